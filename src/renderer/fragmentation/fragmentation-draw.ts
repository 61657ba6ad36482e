// Canvas drawing of the fragmentation chart: the plot is the shared scene
// (@shared/chart/fragmentation-scene.ts, drawn through canvas/canvas-scene.ts, as the SVG export
// draws it); on the overlay the moment and the pointer's crosshair.

import type { FragmentationPlot } from '@shared/chart/fragmentation-scene';
import type { CanvasSize } from '../canvas/canvas-host';
import { drawSceneMarks } from '../canvas/canvas-scene';
import { drawVerticalMarker } from '../canvas/vertical-marker';
import type { FragmentationTheme } from './fragmentation-theme';

export function drawFragmentation(
  context: CanvasRenderingContext2D,
  plot: FragmentationPlot,
  theme: FragmentationTheme,
): void {
  context.save();
  drawSceneMarks(context, plot.scene.marks, { roles: theme.roles });
  context.restore();
}

/** The selected moment's line and, while the pointer is over the plot, its crosshair. */
export function drawFragmentationOverlay(
  context: CanvasRenderingContext2D,
  plot: CanvasSize,
  momentX: number,
  pointerX: number | null,
  theme: FragmentationTheme,
): void {
  drawVerticalMarker(context, { x: momentX, color: theme.moment, dash: [], width: 1 }, plot.height);
  if (pointerX !== null) {
    drawVerticalMarker(
      context,
      { x: pointerX, color: theme.crosshair, dash: [2, 3], width: 1 },
      plot.height,
    );
  }
}
