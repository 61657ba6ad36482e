// Blocks in the segments chart's picture: where a block is drawn, which block is under a point,
// which state colours a piece too thin to show its blocks, and where a test can point at one.
// Pure geometry over a scene (segments-scene.ts), in picture coordinates unless said otherwise.

import { BlockKind } from '@shared/state/allocator-state';
import { SEGMENTS_PADDING, type SegmentsScene } from '@shared/chart/segments-scene';
import { blockAtAddress, hitTestSegments, rectsOfRange } from '@shared/chart/segments-layout';

export interface BlockRect {
  x: number;
  y: number;
  width: number;
}

/** Where a block is drawn: one rectangle per row its bytes reach; none when not in the picture. */
export function rectsOfBlock(scene: SegmentsScene, block: number): BlockRect[] {
  const { state, layout, order } = scene;
  if (block < 0 || block >= state.blocks.count) return [];
  const segmentIndex = state.segments.findIndex(
    (segment) => segment.firstBlock <= block && block < segment.endBlock,
  );
  if (segmentIndex < 0) return [];
  const layoutIndex = order.indexOf(segmentIndex);
  if (layoutIndex < 0) return [];
  const segment = state.segments[segmentIndex]!;
  const start = state.blocks.address[block]! - segment.address;
  return rectsOfRange(layout, layoutIndex, start, start + state.blocks.sizeBytes[block]!);
}

/** The block under a point of the picture and its segment's index in state.segments. */
export function blockAtPoint(
  scene: SegmentsScene,
  x: number,
  y: number,
): { block: number; segment: number } | null {
  const { state, layout, order } = scene;
  const hit = hitTestSegments(layout, x, y);
  if (hit === null) return null;
  const segmentIndex = order[hit.segment]!;
  const segment = state.segments[segmentIndex]!;
  const block = blockAtAddress(
    state.blocks.address,
    state.blocks.sizeBytes,
    segment.firstBlock,
    segment.endBlock,
    segment.address + hit.byteOffset,
  );
  return block < 0 ? null : { block, segment: segmentIndex };
}

/**
 * Where a test (or a tour) can point at a block: the middle of the widest visible piece of the
 * largest allocated block (any block when none is allocated), in CSS pixels of the canvas. Rows
 * firstRow .. endRow - 1 are visible; offsetY moves picture y to canvas y.
 */
export function pointOfLargestBlock(
  scene: SegmentsScene,
  firstRow: number,
  endRow: number,
  offsetY: number,
  viewHeight: number,
): { x: number; y: number } | null {
  const { state, layout, order } = scene;
  const { blocks } = state;
  let best: { x: number; y: number; bytes: number; allocated: boolean } | null = null;
  for (let r = firstRow; r < endRow; r++) {
    const row = layout.rows[r]!;
    const y = row.y + offsetY + layout.rowHeight / 2;
    if (y < 2 || y > viewHeight - 2) continue;
    for (let p = row.firstPiece; p < row.endPiece; p++) {
      const piece = layout.pieces[p]!;
      const segment = state.segments[order[piece.segment]!]!;
      for (let b = segment.firstBlock; b < segment.endBlock; b++) {
        const start = Math.max(blocks.address[b]! - segment.address, piece.byteStart);
        const end = Math.min(
          blocks.address[b]! - segment.address + blocks.sizeBytes[b]!,
          piece.byteEnd,
        );
        const width = (end - start) * layout.pixelsPerByte;
        if (width < 3) continue;
        const allocated = blocks.kind[b] === BlockKind.allocated;
        const bytes = blocks.sizeBytes[b]!;
        if (
          best === null ||
          (allocated && !best.allocated) ||
          (allocated === best.allocated && bytes > best.bytes)
        ) {
          const x =
            SEGMENTS_PADDING.left + piece.x + (start - piece.byteStart) * layout.pixelsPerByte;
          best = { x: Math.round(x + width / 2), y: Math.round(y), bytes, allocated };
        }
      }
    }
  }
  return best === null ? null : { x: best.x, y: best.y };
}

/** Bars described on the view for tests: at most this many. */
const DESCRIBED_PIECES = 48;

/**
 * The bars of rows firstRow .. endRow - 1 as the tests read them off the view: "address:x,y,width"
 * in picture coordinates (the segment's address, in hex), in the order drawn, the first
 * DESCRIBED_PIECES of them, joined by ";". Enough to compare the segment order and the positions
 * with the exported picture's scene (test/e2e/segments-export.spec.ts).
 */
export function describePieces(scene: SegmentsScene, firstRow: number, endRow: number): string {
  const { state, layout, order } = scene;
  const parts: string[] = [];
  for (let r = firstRow; r < endRow && parts.length < DESCRIBED_PIECES; r++) {
    const row = layout.rows[r]!;
    for (let p = row.firstPiece; p < row.endPiece && parts.length < DESCRIBED_PIECES; p++) {
      const piece = layout.pieces[p]!;
      const segment = state.segments[order[piece.segment]!]!;
      parts.push(
        `${segment.address.toString(16)}:${piece.x.toFixed(1)},${row.y.toFixed(1)},${piece.width.toFixed(1)}`,
      );
    }
  }
  return parts.join(';');
}
