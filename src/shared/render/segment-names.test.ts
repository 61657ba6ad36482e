import { describe, expect, it } from 'vitest';
import { SegmentTypeCode } from '../analysis/segment-history';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { poolName, segmentTypeName, streamName } from './segment-names';

const view = { pools: ['0,0', '1,3'], streams: [0, 0x5a] } as unknown as AnalyzedSnapshot;

describe('segment names', () => {
  it('names the default pool and private pools by their id', () => {
    expect(poolName(view, 0)).toBe('default pool');
    expect(poolName(view, 1)).toBe('private pool (1,3)');
    expect(poolName(view, 4)).toBe('private pool (4)');
  });

  it('names streams by their raw value', () => {
    expect(streamName(view, 0)).toBe('default stream');
    expect(streamName(view, 1)).toBe('stream 0x5a');
  });

  it('names size classes', () => {
    expect(segmentTypeName(SegmentTypeCode.large)).toBe('large');
    expect(segmentTypeName(SegmentTypeCode.small)).toBe('small');
    expect(segmentTypeName(SegmentTypeCode.unknown)).toBe('unknown');
  });
});
