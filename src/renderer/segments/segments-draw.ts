// Canvas drawing of the segments chart: the rows scrolled into view, their marks decided by the
// shared scene (@shared/chart/segments-paint.ts, which the exported SVG draws too), and on the
// overlay the hovered and selected blocks' outlines.

import { rowsBetween } from '@shared/chart/segments-layout';
import { paintSegmentRows } from '@shared/chart/segments-paint';
import { SEGMENTS_PADDING, type SegmentsScene } from '@shared/chart/segments-scene';
import { rectsOfBlock } from './segments-blocks';
import type { SegmentsTheme } from './segments-theme';
import type { CanvasSize } from '../canvas/canvas-host';
import { canvasPainter } from '../canvas/canvas-painter';

export interface VisibleRows {
  firstRow: number;
  endRow: number;
  /** Canvas y of picture y 0. */
  offsetY: number;
}

/** Draws the rows in view of a box scrolled to scrollTop; returns which rows those were. */
export function drawSegments(
  context: CanvasRenderingContext2D,
  scene: SegmentsScene,
  theme: SegmentsTheme,
  size: CanvasSize,
  scrollTop: number,
): VisibleRows {
  const offsetY = SEGMENTS_PADDING.top - scrollTop;
  const [firstRow, endRow] = rowsBetween(scene.layout, -offsetY, -offsetY + size.height);
  paintSegmentRows(scene, canvasPainter(context, theme), {
    firstRow,
    endRow,
    originX: SEGMENTS_PADDING.left,
    originY: offsetY,
    hairline: 1 / size.devicePixelRatio,
  });
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
