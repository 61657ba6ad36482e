import { describe, expect, it } from 'vitest';
import { allocatorStateOf } from '../../../test/support/builders/allocator-state';
import { figuresByGroup } from '../state/memory-figures';
import { SegmentTypeCode } from '../analysis/segment-history';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import {
  barLabel,
  flowSegments,
  SEGMENTS_SVG_HEADER_HEIGHT,
  SEGMENTS_SVG_PAD,
} from './segments-flow';
import { freeBytesBySegment, svgSegmentGroups } from './segments-svg-groups';

const MiB = 1024 * 1024;
const view = { pools: ['0,0'], streams: [0] } as unknown as AnalyzedSnapshot;

describe('barLabel', () => {
  const state = allocatorStateOf([
    { address: 0, isExpandable: true, blocks: [{ sizeBytes: 2 * MiB, kind: 'free' }] },
  ]);
  const segment = state.segments[0]!;

  it('says as much as fits the bar', () => {
    expect(barLabel(segment, 2 * MiB, 500)).toBe('2.0 MiB · 2.0 MiB free · expandable');
    expect(barLabel(segment, 2 * MiB, 75)).toBe('2.0 MiB exp.');
    expect(barLabel(segment, 2 * MiB, 45)).toBe('2.0 MiB');
    expect(barLabel(segment, 2 * MiB, 10)).toBe('');
  });

  it('calls a segment without free bytes full', () => {
    expect(barLabel({ ...segment, isExpandable: false }, 0, 500)).toBe('2.0 MiB · full');
  });
});

describe('flowSegments', () => {
  const state = allocatorStateOf([
    { address: 0, blocks: [{ sizeBytes: 60, kind: 'allocated' }] },
    { address: 100, blocks: [{ sizeBytes: 50, kind: 'free' }] },
    { address: 200, blocks: [{ sizeBytes: 30, kind: 'free' }] },
    {
      address: 300,
      segmentType: SegmentTypeCode.small,
      blocks: [{ sizeBytes: 10, kind: 'free' }],
    },
  ]);
  const groups = svgSegmentGroups(view, state, figuresByGroup(state, 0));
  const free = freeBytesBySegment(state);

  it('wraps bars like words and puts each group under its title', () => {
    const layout = flowSegments(
      groups,
      { bytesPerPixel: 1, barHeight: 10, labels: false },
      100,
      free,
    );
    expect(layout.groups.map((placed) => placed.titleY)).toEqual([
      SEGMENTS_SVG_HEADER_HEIGHT + 14,
      // Title (20), two lines of bars (10 + 5 each), the group gap (10).
      SEGMENTS_SVG_HEADER_HEIGHT + 20 + 30 + 10 + 14,
    ]);
    // 60 then 50 do not share a line of 100; 50 and 30 do.
    expect(layout.bars.map((bar) => [bar.x - SEGMENTS_SVG_PAD, bar.width])).toEqual([
      [0, 60],
      [0, 50],
      [56, 30],
      [0, 10],
    ]);
    expect(layout.bars[1]!.y).toBe(layout.bars[2]!.y);
    expect(layout.bars[1]!.y - layout.bars[0]!.y).toBe(15);
    expect(layout.height).toBe(SEGMENTS_SVG_HEADER_HEIGHT + 20 + 30 + 10 + 20 + 15 + 10);
  });

  it('leaves room above a line for its labels', () => {
    const layout = flowSegments(
      groups,
      { bytesPerPixel: 1, barHeight: 10, labels: true },
      400,
      free,
    );
    expect(layout.bars[0]!.label).not.toBe('');
    expect(layout.bars[0]!.y).toBe(SEGMENTS_SVG_HEADER_HEIGHT + 20 + 13);
  });
});
