// Canvas drawing of the segments chart: the bars of the rows scrolled into view with their
// blocks coloured by state, and on the overlay the hovered and selected blocks' outlines.

import { BlockKind } from '@shared/state/allocator-state';
import { dominantKind, rectsOfBlock } from './segments-blocks';
import { blockAtAddress, rowsBetween } from './segments-layout';
import { SEGMENTS_PADDING, type SegmentsScene } from './segments-scene';
import type { SegmentsTheme } from './segments-theme';
import type { CanvasSize } from '../canvas/canvas-host';

export interface VisibleRows {
  firstRow: number;
  endRow: number;
  /** Canvas y of picture y 0. */
  offsetY: number;
}

function colorOf(theme: SegmentsTheme, kind: number): string {
  if (kind === BlockKind.allocated) return theme.allocated;
  if (kind === BlockKind.pendingFree) return theme.pendingFree;
  return theme.free;
}

/** Draws the rows in view of a box scrolled to scrollTop; returns which rows those were. */
export function drawSegments(
  context: CanvasRenderingContext2D,
  scene: SegmentsScene,
  theme: SegmentsTheme,
  size: CanvasSize,
  scrollTop: number,
): VisibleRows {
  const { state, layout, order } = scene;
  const offsetY = SEGMENTS_PADDING.top - scrollTop;
  const left = SEGMENTS_PADDING.left;
  const [firstRow, endRow] = rowsBetween(layout, -offsetY, -offsetY + size.height);
  const { blocks } = state;
  const scale = layout.pixelsPerByte;
  const height = layout.rowHeight;
  const pixel = 1 / size.devicePixelRatio;

  for (let r = firstRow; r < endRow; r++) {
    const row = layout.rows[r]!;
    const y = row.y + offsetY;
    for (let p = row.firstPiece; p < row.endPiece; p++) {
      const piece = layout.pieces[p]!;
      const segment = state.segments[order[piece.segment]!]!;
      const x = left + piece.x;
      const base = segment.address;
      // Blocks tile the segment: draw those meeting this piece, each inset by a hairline
      // where it is wide enough to show where one block ends and the next begins.
      let b = blockAtAddress(
        blocks.address,
        blocks.sizeBytes,
        segment.firstBlock,
        segment.endBlock,
        base + piece.byteStart,
      );
      if (b < 0) b = segment.firstBlock;
      if (piece.width < 1) {
        // Narrower than a pixel: the colour of what holds most of it.
        context.fillStyle = colorOf(
          theme,
          dominantKind(blocks, segment.firstBlock, segment.endBlock),
        );
        context.fillRect(x, y, 1, height);
        continue;
      }
      for (; b < segment.endBlock; b++) {
        const start = blocks.address[b]! - base;
        if (start >= piece.byteEnd) break;
        const end = start + blocks.sizeBytes[b]!;
        const from = Math.max(start, piece.byteStart);
        const to = Math.min(end, piece.byteEnd);
        if (to <= from) continue;
        const bx = x + (from - piece.byteStart) * scale;
        const width = (to - from) * scale;
        context.fillStyle = colorOf(theme, blocks.kind[b]!);
        context.fillRect(bx, y, width >= 4 && to === end ? width - pixel : width, height);
      }
      context.lineWidth = 1;
      context.strokeStyle = segment.isExpandable ? theme.expandable : theme.outline;
      context.setLineDash(segment.isExpandable ? [3, 2] : []);
      context.strokeRect(x - 0.5, y - 0.5, Math.max(1, piece.width) + 1, height + 1);
    }
  }
  context.setLineDash([]);
  return { firstRow, endRow, offsetY };
}

export function drawSegmentsOverlay(
  context: CanvasRenderingContext2D,
  scene: SegmentsScene,
  theme: SegmentsTheme,
  scrollTop: number,
  hoverBlock: number | null,
  selectedBlock: number | null,
): void {
  const offsetY = SEGMENTS_PADDING.top - scrollTop;
  const height = scene.layout.rowHeight;
  const outline = (block: number, color: string, width: number): void => {
    context.strokeStyle = color;
    context.lineWidth = width;
    for (const rect of rectsOfBlock(scene, block)) {
      const x = SEGMENTS_PADDING.left + rect.x;
      const y = rect.y + offsetY;
      context.strokeRect(
        x - width / 2,
        y - width / 2,
        Math.max(1, rect.width) + width,
        height + width,
      );
    }
  };
  if (hoverBlock !== null && hoverBlock !== selectedBlock) outline(hoverBlock, theme.hover, 1.5);
  if (selectedBlock !== null) {
    outline(selectedBlock, theme.selectionHalo, 4);
    outline(selectedBlock, theme.selection, 2);
  }
}
