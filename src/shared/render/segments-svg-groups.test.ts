import { describe, expect, it } from 'vitest';
import { allocatorStateOf } from '../../../test/support/builders/allocator-state';
import { figuresByGroup } from '../state/memory-figures';
import { SegmentTypeCode } from '../analysis/segment-history';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { freeBytesBySegment, largestFreeBlock, svgSegmentGroups } from './segments-svg-groups';

const view = { pools: ['0,0'], streams: [0, 0x5a] } as unknown as AnalyzedSnapshot;

const state = allocatorStateOf([
  {
    address: 0,
    blocks: [
      { sizeBytes: 100, kind: 'allocated' },
      { sizeBytes: 50, kind: 'free' },
    ],
  },
  { address: 1000, blocks: [{ sizeBytes: 400, kind: 'free' }] },
  {
    address: 5000,
    segmentType: SegmentTypeCode.small,
    streamId: 1,
    blocks: [
      { sizeBytes: 10, kind: 'free' },
      { sizeBytes: 400, kind: 'pending free' },
    ],
  },
]);

describe('svgSegmentGroups', () => {
  it('lists each group’s segments largest first under a title', () => {
    const groups = svgSegmentGroups(view, state, figuresByGroup(state, 64));
    expect(groups.map((group) => group.title)).toEqual([
      'default pool · default stream · large segments',
      'default pool · stream 0x5a · small segments',
    ]);
    expect(groups[0]!.segments.map((segment) => segment.address)).toEqual([1000, 0]);
    expect(groups[1]!.segments.map((segment) => segment.address)).toEqual([5000]);
  });
});

describe('free blocks', () => {
  it('sums each segment’s free bytes', () => {
    const free = freeBytesBySegment(state);
    expect(state.segments.map((segment) => free.get(segment))).toEqual([50, 400, 10]);
  });

  it('finds the largest free block, the first of equals', () => {
    expect(largestFreeBlock(state)).toBe(2);
    expect(largestFreeBlock(allocatorStateOf([]))).toBe(-1);
  });
});
