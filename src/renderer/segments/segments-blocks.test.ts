import { describe, expect, it } from 'vitest';
import { BlockKind } from '@shared/state/allocator-state';
import { allocatorStateOf } from '../../../test/support/builders/allocator-state';
import { dominantKind } from '@shared/chart/segments-paint';
import { DEFAULT_LAYOUT_OPTIONS, layoutSegments } from '@shared/chart/segments-layout';
import { SEGMENTS_PADDING, type SegmentsScene } from '@shared/chart/segments-scene';
import { blockAtPoint, pointOfLargestBlock, rectsOfBlock } from './segments-blocks';

// Two segments of 100 bytes, drawn in the order second, first, at one pixel per byte.
const state = allocatorStateOf([
  {
    address: 1000,
    blocks: [
      { sizeBytes: 60, kind: 'allocated' },
      { sizeBytes: 40, kind: 'free' },
    ],
  },
  {
    address: 5000,
    blocks: [
      { sizeBytes: 30, kind: 'pending free' },
      { sizeBytes: 70, kind: 'allocated' },
    ],
  },
]);
const order = [1, 0];
const layout = layoutSegments(
  [
    { sizeBytes: 100, group: 0 },
    { sizeBytes: 100, group: 0 },
  ],
  { ...DEFAULT_LAYOUT_OPTIONS, width: 400, viewportHeight: 300 },
  1,
);
const scene: SegmentsScene = { state, layout, order, largestFreeBlock: -1 };
const rowY = layout.rows[0]!.y;
const gap = DEFAULT_LAYOUT_OPTIONS.segmentGap;

describe('rectsOfBlock', () => {
  it('finds where a block is drawn', () => {
    expect(rectsOfBlock(scene, 3)).toEqual([{ x: 30, y: rowY, width: 70, row: 0 }]);
    expect(rectsOfBlock(scene, 1)).toEqual([{ x: 100 + gap + 60, y: rowY, width: 40, row: 0 }]);
  });

  it('finds nothing for a block outside the state', () => {
    expect(rectsOfBlock(scene, 4)).toEqual([]);
    expect(rectsOfBlock(scene, -1)).toEqual([]);
  });
});

describe('blockAtPoint', () => {
  it('finds the block and its segment under a point', () => {
    expect(blockAtPoint(scene, 10, rowY + 5)).toEqual({ block: 2, segment: 1 });
    expect(blockAtPoint(scene, 100 + gap + 1, rowY + 5)).toEqual({ block: 0, segment: 0 });
  });

  it('finds nothing between bars', () => {
    expect(blockAtPoint(scene, 101, rowY + 5)).toBeNull();
    expect(blockAtPoint(scene, 10, rowY + layout.rowHeight + 1)).toBeNull();
  });
});

describe('dominantKind', () => {
  it('is the state holding most bytes', () => {
    expect(dominantKind(state.blocks, 0, 2)).toBe(BlockKind.allocated);
    expect(dominantKind(state.blocks, 1, 3)).toBe(BlockKind.free);
    expect(dominantKind(state.blocks, 2, 3)).toBe(BlockKind.pendingFree);
  });
});

describe('pointOfLargestBlock', () => {
  it('points at the middle of the largest allocated block in view', () => {
    const point = pointOfLargestBlock(scene, 0, 1, SEGMENTS_PADDING.top, 300);
    expect(point).toEqual({
      x: SEGMENTS_PADDING.left + 30 + 35,
      y: Math.round(rowY + SEGMENTS_PADDING.top + layout.rowHeight / 2),
    });
  });

  it('is null when no row is in view', () => {
    expect(pointOfLargestBlock(scene, 0, 0, SEGMENTS_PADDING.top, 300)).toBeNull();
  });
});
