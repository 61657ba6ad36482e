// The marks of the segments picture: each row's bars with their blocks coloured by state, drawn
// through a ScenePainter, so the page's canvas and the exported SVG draw the same marks. Blocks
// at least a pixel wide are drawn one by one (inset by a hairline where they are wide enough to
// show where one ends and the next begins); thinner ones are merged per pixel column into the
// colour of the state holding most of it, so the number of marks follows the picture's pixels,
// not the number of blocks (a large state has hundreds of thousands).

import { BlockKind, type StateBlocks } from '../state/allocator-state';
import type { ScenePainter } from './scene-painter';
import { blockAtAddress } from './segments-layout';
import type { SegmentsScene } from './segments-scene';

/** The palette entries (render/palette.ts `segments`) the picture is drawn in. */
export type SegmentsRole =
  'allocated' | 'pendingFree' | 'free' | 'outline' | 'expandable' | 'largestHole';

export function roleOfKind(kind: number): SegmentsRole {
  if (kind === BlockKind.allocated) return 'allocated';
  if (kind === BlockKind.pendingFree) return 'pendingFree';
  return 'free';
}

export interface SegmentsPaintRange {
  /** Rows firstRow .. endRow - 1 of the layout. */
  firstRow: number;
  endRow: number;
  /** Where picture (0, 0) lands in the painter's coordinates. */
  originX: number;
  originY: number;
  /** The gap left between neighbouring wide blocks: a device pixel on screen. */
  hairline: number;
}

/** Blocks at least this wide (CSS px) get the hairline gap after them. */
const INSET_MIN_WIDTH = 4;
/** The largest hole's outline. */
const HOLE_LINE_WIDTH = 1.5;
/** Dashes of an expandable segment's outline. */
export const EXPANDABLE_DASH: readonly number[] = [3, 2];

/** The BlockKind holding most bytes of blocks first .. end - 1 (the first of equals). */
export function dominantKind(blocks: StateBlocks, first: number, end: number): number {
  const bytes = [0, 0, 0];
  for (let b = first; b < end; b++) bytes[blocks.kind[b]!]! += blocks.sizeBytes[b]!;
  let best = 0;
  for (let kind = 1; kind < 3; kind++) if (bytes[kind]! > bytes[best]!) best = kind;
  return best;
}

export function paintSegmentRows(
  scene: SegmentsScene,
  painter: ScenePainter<SegmentsRole>,
  range: SegmentsPaintRange,
): void {
  const { state, layout, order } = scene;
  const { blocks } = state;
  const scale = layout.pixelsPerByte;
  const height = layout.rowHeight;
  // Bytes of each kind in the pixel column being gathered (blocks thinner than a pixel).
  const cover = [0, 0, 0];
  let column = -1;
  let columnEnd = 0;
  let y = 0;
  const flushColumn = (): void => {
    if (column < 0) return;
    let best = 0;
    for (let kind = 1; kind < 3; kind++) if (cover[kind]! > cover[best]!) best = kind;
    painter.fillRect(column, y, Math.min(1, columnEnd - column), height, roleOfKind(best));
    cover[0] = cover[1] = cover[2] = 0;
    column = -1;
  };

  for (let r = range.firstRow; r < range.endRow; r++) {
    const row = layout.rows[r]!;
    y = row.y + range.originY;
    for (let p = row.firstPiece; p < row.endPiece; p++) {
      const piece = layout.pieces[p]!;
      const segment = state.segments[order[piece.segment]!]!;
      const x = range.originX + piece.x;
      const base = segment.address;
      if (piece.width < 1) {
        // Narrower than a pixel: the colour of what holds most of it, without an outline.
        const kind = dominantKind(blocks, segment.firstBlock, segment.endBlock);
        painter.fillRect(x, y, 1, height, roleOfKind(kind));
        continue;
      }
      // Blocks tile the segment: those meeting this piece, from the one holding its first byte.
      let b = blockAtAddress(
        blocks.address,
        blocks.sizeBytes,
        segment.firstBlock,
        segment.endBlock,
        base + piece.byteStart,
      );
      if (b < 0) b = segment.firstBlock;
      columnEnd = x + piece.width;
      let holeX0 = NaN;
      let holeX1 = NaN;
      for (; b < segment.endBlock; b++) {
        const start = blocks.address[b]! - base;
        if (start >= piece.byteEnd) break;
        const end = start + blocks.sizeBytes[b]!;
        const from = Math.max(start, piece.byteStart);
        const to = Math.min(end, piece.byteEnd);
        if (to <= from) continue;
        const bx = x + (from - piece.byteStart) * scale;
        const width = (to - from) * scale;
        const kind = blocks.kind[b]!;
        if (b === scene.largestFreeBlock) {
          holeX0 = bx;
          holeX1 = bx + width;
        }
        if (width >= 1) {
          flushColumn();
          const inset = width >= INSET_MIN_WIDTH && to === end ? range.hairline : 0;
          painter.fillRect(bx, y, width - inset, height, roleOfKind(kind));
          continue;
        }
        const at = x + Math.floor(bx - x);
        if (at !== column) {
          flushColumn();
          column = at;
        }
        cover[kind]! += to - from;
      }
      flushColumn();
      if (!Number.isNaN(holeX0)) {
        // Inside the block, so neighbours' outlines never hide it; a thin hole still shows.
        const inset = HOLE_LINE_WIDTH / 2;
        painter.strokeRect(
          holeX0 + inset,
          y + inset,
          Math.max(HOLE_LINE_WIDTH, holeX1 - holeX0 - 2 * inset),
          height - 2 * inset,
          'largestHole',
          HOLE_LINE_WIDTH,
          null,
        );
      }
      painter.strokeRect(
        x - 0.5,
        y - 0.5,
        Math.max(1, piece.width) + 1,
        height + 1,
        segment.isExpandable ? 'expandable' : 'outline',
        1,
        segment.isExpandable ? EXPANDABLE_DASH : null,
      );
    }
  }
}

/** Every row of the scene, picture (0, 0) at (originX, originY). */
export function paintSegmentsScene(
  scene: SegmentsScene,
  painter: ScenePainter<SegmentsRole>,
  originX: number,
  originY: number,
  hairline: number,
): void {
  paintSegmentRows(scene, painter, {
    firstRow: 0,
    endRow: scene.layout.rows.length,
    originX,
    originY,
    hairline,
  });
}
