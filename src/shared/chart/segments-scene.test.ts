import { describe, expect, it } from 'vitest';
import { SegmentTypeCode } from '@shared/analysis/segment-history';
import { allocatorStateOf } from '../../../test/support/builders/allocator-state';
import { groupSegments } from './segment-order';
import { DEFAULT_LAYOUT_OPTIONS } from './segments-layout';
import {
  layoutInput,
  layoutScene,
  SEGMENTS_PADDING,
  segmentsLayoutOptions,
} from './segments-scene';

const state = allocatorStateOf([
  { address: 300, blocks: [{ sizeBytes: 30, kind: 'free' }] },
  { address: 100, segmentType: SegmentTypeCode.small, blocks: [{ sizeBytes: 10, kind: 'free' }] },
  { address: 200, blocks: [{ sizeBytes: 20, kind: 'allocated' }] },
]);

describe('layoutInput', () => {
  it('lists the groups’ segments one group after the other', () => {
    const { order, input } = layoutInput(state, groupSegments(state.segments));
    expect(order).toEqual([2, 0, 1]);
    expect(input).toEqual([
      { sizeBytes: 20, group: 0 },
      { sizeBytes: 30, group: 0 },
      { sizeBytes: 10, group: 1 },
    ]);
  });
});

describe('segmentsLayoutOptions', () => {
  it('leaves the padding out of the view', () => {
    const options = segmentsLayoutOptions('detail', 624, 406, 2);
    expect(options).toEqual({
      ...DEFAULT_LAYOUT_OPTIONS,
      width: 624 - SEGMENTS_PADDING.left - SEGMENTS_PADDING.right,
      viewportHeight: 406 - SEGMENTS_PADDING.top,
    });
  });

  it('fits the rows the view holds below the headers', () => {
    const options = segmentsLayoutOptions('fit', 624, 406, 2);
    // (400 − 2 × (26 + 10) − 10) / (18 + 4) = 14.4 rows, one kept free.
    expect(options.maxRows).toBe(13);
    expect(options.minSegmentPx).toBe(0);
  });
});

describe('layoutScene', () => {
  it('lays out the state in group order', () => {
    const scene = layoutScene(state, groupSegments(state.segments), 'detail', 624, 406);
    expect(scene.state).toBe(state);
    expect(scene.order).toEqual([2, 0, 1]);
    expect(scene.layout.groups).toHaveLength(2);
  });
});
