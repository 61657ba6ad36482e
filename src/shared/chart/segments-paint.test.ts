import { describe, expect, it } from 'vitest';
import { allocatorStateOf } from '../../../test/support/builders/allocator-state';
import type { ScenePainter } from './scene-painter';
import { DEFAULT_LAYOUT_OPTIONS, layoutSegments } from './segments-layout';
import { paintSegmentsScene, type SegmentsRole } from './segments-paint';
import { largestFreeBlock, type SegmentsScene } from './segments-scene';

interface Call {
  op: 'fill' | 'stroke';
  role: SegmentsRole;
  x: number;
  width: number;
  dash?: readonly number[] | null;
}

function recorder(): ScenePainter<SegmentsRole> & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fillRect: (x, _y, width, _height, role) => calls.push({ op: 'fill', role, x, width }),
    strokeRect: (x, _y, width, _height, role, _lineWidth, dash) =>
      calls.push({ op: 'stroke', role, x, width, dash }),
  };
}

/** One row, one pixel per `bytesPerPixel` bytes, segments in the given order. */
function sceneOf(state: ReturnType<typeof allocatorStateOf>, pixelsPerByte: number): SegmentsScene {
  const layout = layoutSegments(
    state.segments.map((segment) => ({ sizeBytes: segment.sizeBytes, group: 0 })),
    { ...DEFAULT_LAYOUT_OPTIONS, width: 10_000, viewportHeight: 100 },
    pixelsPerByte,
  );
  return {
    state,
    layout,
    order: state.segments.map((_, i) => i),
    largestFreeBlock: largestFreeBlock(state),
  };
}

describe('paintSegmentsScene', () => {
  it('draws wide blocks one by one with a hairline after each, and outlines the bar', () => {
    const state = allocatorStateOf([
      {
        address: 0,
        blocks: [
          { sizeBytes: 60, kind: 'allocated' },
          { sizeBytes: 40, kind: 'free' },
        ],
      },
    ]);
    const painter = recorder();
    paintSegmentsScene(sceneOf(state, 1), painter, 10, 0, 0.5);
    expect(painter.calls).toEqual([
      { op: 'fill', role: 'allocated', x: 10, width: 59.5 },
      { op: 'fill', role: 'free', x: 70, width: 39.5 },
      // The largest (only) free block, outlined inside itself.
      { op: 'stroke', role: 'largestHole', x: 70.75, width: 38.5, dash: null },
      { op: 'stroke', role: 'outline', x: 9.5, width: 101, dash: null },
    ]);
  });

  it('merges blocks thinner than a pixel into one mark per pixel column, in the state holding most', () => {
    // 0.1 px per byte: blocks of 3, 3 and 4 bytes share the first pixel column (allocated wins
    // 6 to 4), the next 10 bytes (pending free) fill the second.
    const state = allocatorStateOf([
      {
        address: 0,
        isExpandable: true,
        blocks: [
          { sizeBytes: 3, kind: 'allocated' },
          { sizeBytes: 3, kind: 'allocated' },
          { sizeBytes: 4, kind: 'free' },
          { sizeBytes: 10, kind: 'pending free' },
          { sizeBytes: 30, kind: 'free' },
        ],
      },
    ]);
    const painter = recorder();
    paintSegmentsScene(sceneOf(state, 0.1), painter, 0, 0, 0.5);
    const fills = painter.calls.filter((call) => call.op === 'fill');
    expect(fills.map((call) => [call.role, call.x])).toEqual([
      ['allocated', 0],
      ['pendingFree', 1],
      ['free', 2],
    ]);
    // Expandable: outlined dashed.
    expect(painter.calls.at(-1)).toMatchObject({ role: 'expandable', dash: [3, 2] });
  });

  it('draws a bar thinner than a pixel a pixel wide, in its main state, without an outline', () => {
    const state = allocatorStateOf([
      {
        address: 0,
        blocks: [
          { sizeBytes: 2, kind: 'free' },
          { sizeBytes: 5, kind: 'pending free' },
        ],
      },
    ]);
    const painter = recorder();
    paintSegmentsScene(sceneOf(state, 0.01), painter, 0, 0, 0.5);
    expect(painter.calls).toEqual([{ op: 'fill', role: 'pendingFree', x: 0, width: 1 }]);
  });
});
