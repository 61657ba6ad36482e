// Canvas drawing of the timeline: the plot is the shared scene (@shared/chart/timeline-scene.ts,
// drawn through canvas/canvas-scene.ts, as the SVG export draws it); the overlay (hover,
// selection, moment, crosshair, search curve) and the overview strip are the page's own. Everything
// here reads the layout and two coordinate functions; nothing walks the trace.

import type { TimelineScene } from '@shared/chart/timeline-scene';
import type { AllocationBand, TimelineLayout } from '@shared/chart/timeline-layout';
import type { TimelineMarkKind } from '@shared/chart/timeline-marks';
import type { CanvasSize } from '../canvas/canvas-host';
import { drawSceneMarks } from '../canvas/canvas-scene';
import { drawVerticalMarker } from '../canvas/vertical-marker';
import type { TimelineTheme } from './timeline-theme';

export interface PlotCoordinates {
  /** CSS-pixel x of an event coordinate (left edge of its slot). */
  xOfEvent(eventCoordinate: number): number;
  /** CSS-pixel y of a byte count. */
  yOfBytes(bytes: number): number;
}

/** Draws the plot's scene; returns the kinds of marks it drew (the legend must name each). */
export function drawTimeline(
  context: CanvasRenderingContext2D,
  size: CanvasSize,
  scene: TimelineScene,
  theme: TimelineTheme,
  hatches: HatchPatterns,
): Set<TimelineMarkKind> {
  context.save();
  context.beginPath();
  context.rect(0, 0, size.width, size.height);
  context.clip();
  drawSceneMarks(context, scene.marks, {
    roles: theme.roles,
    bandColor: theme.colorOfIndex,
    hatch: hatches.patternFor(context, theme.noStackHatch, size.devicePixelRatio),
    font: theme.font,
  });
  context.restore();
  return scene.kinds;
}

/** Width of one stripe period of the no-stack hatch, in CSS pixels (stripes a third of it). */
export const HATCH_PERIOD = 6;

/**
 * The no-stack hatch of one canvas, made again only when its colour or the pixel ratio changes.
 * The chart that owns the canvas owns this (one per chart, not a module-level cache).
 */
export class HatchPatterns {
  #color = '';
  #ratio = 0;
  #pattern: CanvasPattern | null = null;

  /** Diagonal stripes of `color` on transparent, crisp at the device pixel ratio. */
  patternFor(
    context: CanvasRenderingContext2D,
    color: string,
    devicePixelRatio: number,
  ): CanvasPattern | null {
    if (color === this.#color && devicePixelRatio === this.#ratio) return this.#pattern;
    this.#color = color;
    this.#ratio = devicePixelRatio;
    this.#pattern = makeHatchPattern(context, color, devicePixelRatio);
    return this.#pattern;
  }
}

function makeHatchPattern(
  context: CanvasRenderingContext2D,
  color: string,
  devicePixelRatio: number,
): CanvasPattern | null {
  const side = Math.max(1, Math.round(HATCH_PERIOD * devicePixelRatio));
  const tile = document.createElement('canvas');
  tile.width = side;
  tile.height = side;
  const tileContext = tile.getContext('2d');
  if (tileContext === null) return null;
  // A stripe from bottom-left to top-right, wrapped at the tile's corners so tiles join.
  tileContext.strokeStyle = color;
  tileContext.lineWidth = side / 3;
  tileContext.lineCap = 'square';
  tileContext.beginPath();
  for (const offset of [-side, 0, side]) {
    tileContext.moveTo(offset, side);
    tileContext.lineTo(offset + side, 0);
  }
  tileContext.stroke();
  const pattern = context.createPattern(tile, 'repeat');
  pattern?.setTransform(new DOMMatrix().scale(1 / devicePixelRatio));
  return pattern;
}

/** The band's outline as one closed sub-path: its top edge left to right, its bottom edge back. */
export function traceBand(
  context: CanvasRenderingContext2D,
  band: AllocationBand,
  coordinates: PlotCoordinates,
  snap: (value: number) => number = (value) => value,
): void {
  const steps = band.stepEvents.length;
  if (steps === 0) return;
  const xs = new Float64Array(steps + 1);
  for (let i = 0; i < steps; i++) xs[i] = snap(coordinates.xOfEvent(band.stepEvents[i]!));
  xs[steps] = snap(coordinates.xOfEvent(band.endEvent));
  const size = band.sizeBytes;
  context.moveTo(xs[0]!, snap(coordinates.yOfBytes(band.stepOffsets[0]! + size)));
  for (let i = 0; i < steps; i++) {
    const top = snap(coordinates.yOfBytes(band.stepOffsets[i]! + size));
    context.lineTo(xs[i]!, top);
    context.lineTo(xs[i + 1]!, top);
  }
  for (let i = steps - 1; i >= 0; i--) {
    const bottom = snap(coordinates.yOfBytes(band.stepOffsets[i]!));
    context.lineTo(xs[i + 1]!, bottom);
    context.lineTo(xs[i]!, bottom);
  }
  context.closePath();
}

function fillEnvelope(
  context: CanvasRenderingContext2D,
  values: Float64Array,
  columnWidth: number,
  baseY: number,
  coordinates: PlotCoordinates,
  color: string,
): void {
  const columns = values.length;
  if (columns === 0) return;
  context.fillStyle = color;
  context.beginPath();
  context.moveTo(0, baseY);
  for (let column = 0; column < columns; column++) {
    const y = coordinates.yOfBytes(values[column]!);
    context.lineTo(column * columnWidth, y);
    context.lineTo((column + 1) * columnWidth, y);
  }
  context.lineTo(columns * columnWidth, baseY);
  context.closePath();
  context.fill();
}

export interface OverlayPicture {
  crosshairX: number | null;
  hoverBand: AllocationBand | null;
  selectedBand: AllocationBand | null;
  /** Lifetime of a selected allocation that is not drawn as a band (merged into "other"). */
  selectedSpan: { x0: number; x1: number } | null;
  momentX: number | null;
  /** The search's bytes over time (search-curve.ts), or null without a search. */
  searchPoints: Float64Array | null;
}

/** The search curve's colour: apart from the bands, the curves and the markers in both themes. */
const SEARCH_LINE = '#d6336c';

export function drawOverlay(
  context: CanvasRenderingContext2D,
  size: CanvasSize,
  coordinates: PlotCoordinates,
  picture: OverlayPicture,
  theme: TimelineTheme,
): void {
  const { width, height } = size;
  context.save();
  context.beginPath();
  context.rect(0, 0, width, height);
  context.clip();

  if (picture.selectedSpan !== null) {
    // Not drawn individually (merged into the smaller allocations): mark its lifetime instead.
    const { x0, x1 } = picture.selectedSpan;
    const left = Math.max(-2, x0);
    const right = Math.min(width + 2, Math.max(x1, x0 + 1));
    context.fillStyle = theme.selection;
    context.globalAlpha = 0.06;
    context.fillRect(left, 0, right - left, height);
    context.globalAlpha = 1;
    context.strokeStyle = theme.selection;
    context.lineWidth = 1;
    context.setLineDash([4, 3]);
    context.beginPath();
    for (const x of [Math.round(left) + 0.5, Math.round(right) - 0.5]) {
      context.moveTo(x, 0);
      context.lineTo(x, height);
    }
    context.stroke();
    context.setLineDash([]);
  }

  if (picture.hoverBand !== null && picture.hoverBand !== picture.selectedBand) {
    context.beginPath();
    traceBand(context, picture.hoverBand, coordinates);
    context.strokeStyle = theme.hover;
    context.lineWidth = 1;
    context.stroke();
  }

  if (picture.selectedBand !== null) {
    context.beginPath();
    traceBand(context, picture.selectedBand, coordinates);
    context.lineJoin = 'miter';
    context.strokeStyle = theme.selectionHalo;
    context.lineWidth = 3.5;
    context.stroke();
    context.strokeStyle = theme.selection;
    context.lineWidth = 1.5;
    context.stroke();
  }

  if (picture.searchPoints !== null && picture.searchPoints.length >= 2) {
    const points = picture.searchPoints;
    context.beginPath();
    context.moveTo(points[0]!, points[1]!);
    for (let i = 2; i < points.length; i += 2) context.lineTo(points[i]!, points[i + 1]!);
    context.strokeStyle = SEARCH_LINE;
    context.lineWidth = 2;
    context.lineJoin = 'round';
    context.stroke();
  }

  if (picture.momentX !== null) {
    drawVerticalMarker(
      context,
      { x: picture.momentX, color: theme.moment, dash: [], width: 1 },
      height,
    );
  }
  if (picture.crosshairX !== null) {
    drawVerticalMarker(
      context,
      { x: picture.crosshairX, color: theme.crosshair, dash: [2, 3], width: 1 },
      height,
    );
  }
  context.restore();
}

export function drawOverview(
  context: CanvasRenderingContext2D,
  size: CanvasSize,
  layout: TimelineLayout,
  yOfBytes: (bytes: number) => number,
  theme: TimelineTheme,
): void {
  const columns = layout.activeMax.length;
  const columnWidth = size.width / Math.max(1, columns);
  const coordinates: PlotCoordinates = { xOfEvent: (e) => e, yOfBytes };
  const baseY = yOfBytes(0);
  if (layout.reservedRecorded)
    fillEnvelope(
      context,
      layout.reservedMax,
      columnWidth,
      baseY,
      coordinates,
      theme.overviewReserved,
    );
  fillEnvelope(context, layout.activeMax, columnWidth, baseY, coordinates, theme.overviewActive);
}
