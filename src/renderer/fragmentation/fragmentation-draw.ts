// Canvas drawing of the fragmentation chart: the grid of both panes, reserved − active as an area
// with its edge, the sampled curves as steps holding each sample until the next, the peak and OOM
// markers; on the overlay the moment and the pointer's crosshair.

import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { stepXs, type SamplePoint } from '@shared/chart/fragmentation-points';
import { fragmentationMarkerEvents, SHARE_TICKS } from '@shared/chart/fragmentation-layout';
import type { FragmentationTheme } from './fragmentation-theme';
import type { CanvasSize } from '../canvas/canvas-host';
import { drawVerticalMarker, type VerticalMarker } from '../canvas/vertical-marker';

export interface FragmentationPicture {
  /** reserved − active per pixel column. */
  cached: Float64Array;
  points: readonly SamplePoint[];
  gridBytes: readonly number[];
  yBytes: (bytes: number) => number;
  yShare: (share: number) => number;
  /** The trace's first moment holds from x (the axis's left end), not from its own x. */
  traceStart: { moment: number; x: number };
  /** Markers already placed, inside the plot. */
  markers: readonly VerticalMarker[];
}

export function drawFragmentation(
  context: CanvasRenderingContext2D,
  plot: CanvasSize,
  picture: FragmentationPicture,
  theme: FragmentationTheme,
): void {
  const { cached, yBytes, yShare } = picture;
  const width = plot.width;
  const columns = cached.length;
  const columnWidth = width / columns;

  context.save();
  // Grid.
  context.strokeStyle = theme.grid;
  context.lineWidth = 1;
  context.beginPath();
  for (const bytes of picture.gridBytes) {
    const y = Math.round(yBytes(bytes)) + 0.5;
    context.moveTo(0, y);
    context.lineTo(width, y);
  }
  for (const share of SHARE_TICKS) {
    const y = Math.round(yShare(share)) + 0.5;
    context.moveTo(0, y);
    context.lineTo(width, y);
  }
  context.stroke();

  // reserved − active: an area with its edge.
  context.fillStyle = theme.cachedFill;
  context.beginPath();
  context.moveTo(0, yBytes(0));
  for (let column = 0; column < columns; column++) {
    const y = yBytes(cached[column]!);
    context.lineTo(column * columnWidth, y);
    context.lineTo((column + 1) * columnWidth, y);
  }
  context.lineTo(width, yBytes(0));
  context.closePath();
  context.fill();
  context.strokeStyle = theme.cached;
  context.lineWidth = 1.25;
  context.beginPath();
  for (let column = 0; column < columns; column++) {
    const y = yBytes(cached[column]!);
    if (column === 0) context.moveTo(0, y);
    else context.lineTo(column * columnWidth, y);
    context.lineTo((column + 1) * columnWidth, y);
  }
  context.stroke();

  // Sampled curves.
  const largest = (point: SamplePoint): number => point.largest;
  const waste = (point: SamplePoint): number => point.waste;
  const smallShare = (point: SamplePoint): number => point.smallShare;
  drawSampleSteps(context, picture, width, largest, yBytes, theme.largest, null);
  drawSampleSteps(context, picture, width, waste, yBytes, theme.waste, null);
  drawSampleSteps(context, picture, width, smallShare, yShare, theme.small, theme.smallFill);

  // OOMs and the active peak, as on the timeline.
  for (const marker of picture.markers) drawVerticalMarker(context, marker, plot.height);
  context.restore();
}

/** A sampled curve: steps that hold each sample until the next, filled down to 0 when `fill`. */
function drawSampleSteps(
  context: CanvasRenderingContext2D,
  picture: FragmentationPicture,
  width: number,
  value: (point: SamplePoint) => number,
  y: (value: number) => number,
  color: string,
  fill: string | null,
): void {
  const { points, traceStart } = picture;
  if (points.length === 0) return;
  const xs = stepXs(points, width, traceStart);
  if (fill !== null) {
    context.fillStyle = fill;
    context.beginPath();
    context.moveTo(xs[0]!, y(0));
    points.forEach((point, i) => {
      context.lineTo(xs[i]!, y(value(point)));
      context.lineTo(i + 1 < points.length ? xs[i + 1]! : width, y(value(point)));
    });
    context.lineTo(width, y(0));
    context.closePath();
    context.fill();
  }
  context.strokeStyle = color;
  context.lineWidth = 1.5;
  context.beginPath();
  points.forEach((point, i) => {
    const yValue = y(value(point));
    if (i === 0) context.moveTo(xs[0]!, yValue);
    else context.lineTo(xs[i]!, yValue);
    context.lineTo(i + 1 < points.length ? xs[i + 1]! : width, yValue);
  });
  context.stroke();
}

/** The active peak and the OOMs, styled as on the timeline, where they fall inside the plot. */
export function placeMarkers(
  device: AnalyzedDevice,
  theme: FragmentationTheme,
  xOfMoment: (event: number) => number,
  plotWidth: number,
): VerticalMarker[] {
  const markers = fragmentationMarkerEvents(device).map(({ event, kind }) =>
    kind === 'oom'
      ? { event, color: theme.oom, dash: [], width: 2 }
      : { event, color: theme.peak, dash: [5, 3], width: 1 },
  );
  const placed: VerticalMarker[] = [];
  for (const { event, ...style } of markers) {
    const x = xOfMoment(event);
    if (x < -1 || x > plotWidth + 1) continue;
    placed.push({ ...style, x });
  }
  return placed;
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
