// Canvas drawing of a laid-out timeline: envelopes as filled areas, allocation bands as step
// polygons, curve lines and markers. Everything here reads the layout and two coordinate
// functions; nothing walks the trace.

import { annotationLabels } from '@shared/chart/annotation-labels';
import type { AllocationBand, TimelineLayout } from '@shared/chart/timeline-layout';
import type { TimelineMarkKind } from '@shared/chart/timeline-marks';
import type { CanvasSize } from '../canvas/canvas-host';
import { drawVerticalMarker, type VerticalMarker } from '../canvas/vertical-marker';
import type { TimelineTheme } from './timeline-theme';

export interface PlotCoordinates {
  /** CSS-pixel x of an event coordinate (left edge of its slot). */
  xOfEvent(eventCoordinate: number): number;
  /** CSS-pixel y of a byte count. */
  yOfBytes(bytes: number): number;
}

export interface SpanMark {
  name: string;
  /** CSS pixels. */
  x0: number;
  x1: number;
  depth: number;
}

/** The annotation lane: 2 px bars per nesting level, then rows of names under them. */
export const ANNOTATION_LANE = {
  barPitch: 3,
  barHeight: 2,
  bars: 3,
  labelTop: 10,
  labelRow: 12,
  font: '10px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
} as const;

export interface TimelinePicture {
  layout: TimelineLayout;
  /** Per band: its palette index (chart/band-colors.ts resolveBandColors). */
  bandColors: Int16Array;
  /** Per band: 1 when its allocation has no recorded stack (drawn hatched). */
  bandNoStack: Uint8Array;
  /** Per band: 1 when a search leaves it out (drawn faint); null without a search. */
  bandDimmed: Uint8Array | null;
  gridBytes: readonly number[];
  spans: readonly SpanMark[];
  /** The training steps in CSS pixels (the ruler along the bottom); [] for none. */
  steps: readonly { x0: number; x1: number }[];
  markers: readonly (VerticalMarker & { kind: TimelineMarkKind })[];
}

/** Height of the step ruler along the bottom of the plot, in CSS pixels. */
const STEP_RULER_HEIGHT = 4;

/** How faint the bands a search leaves out are drawn. */
const DIMMED_ALPHA = 0.22;

/** Draws the plot; returns the kinds of marks it drew (the legend must name each). */
export function drawTimeline(
  context: CanvasRenderingContext2D,
  size: CanvasSize,
  coordinates: PlotCoordinates,
  picture: TimelinePicture,
  theme: TimelineTheme,
): Set<TimelineMarkKind> {
  const drawn = new Set<TimelineMarkKind>();
  const { layout } = picture;
  const { width, height } = size;
  const snap = pixelSnapper(size.devicePixelRatio);

  context.save();
  context.beginPath();
  context.rect(0, 0, width, height);
  context.clip();

  // Grid first, under everything.
  context.strokeStyle = theme.grid;
  context.lineWidth = 1;
  context.beginPath();
  for (const bytes of picture.gridBytes) {
    const y = Math.round(coordinates.yOfBytes(bytes)) + 0.5;
    context.moveTo(0, y);
    context.lineTo(width, y);
  }
  context.stroke();

  // Annotation spans: a thin mark per nesting level along the top, and a faint wash for spans that
  // do not cover the whole view (a wash everywhere would say nothing).
  if (picture.spans.length > 0) {
    context.fillStyle = theme.annotationFill;
    for (const span of picture.spans) {
      if (span.depth > 0 || span.x1 - span.x0 > width * 0.9) continue;
      context.fillRect(span.x0, 0, Math.max(1, span.x1 - span.x0), height);
    }
    context.fillStyle = theme.annotationLane;
    const lane = ANNOTATION_LANE;
    for (const span of picture.spans) {
      if (span.depth >= lane.bars) continue;
      context.fillRect(
        span.x0,
        span.depth * lane.barPitch,
        Math.max(1, span.x1 - span.x0),
        lane.barHeight,
      );
    }
    drawn.add('annotations');
  }

  const columns = layout.activeMax.length;
  const columnWidth = width / Math.max(1, columns);
  const baseY = coordinates.yOfBytes(0);

  // Reserved as a light area (the gap above the active area is cached memory), active "other" over it.
  fillEnvelope(context, layout.reservedMax, columnWidth, baseY, coordinates, theme.reservedFill);
  fillEnvelope(context, layout.activeMax, columnWidth, baseY, coordinates, theme.otherFill);
  if (columns > 0) drawn.add('reserved').add('other');

  // Bands tall enough to see get a hairline edge so neighbours of one colour stay apart; those
  // with no recorded stack are hatched over their fill.
  const pixelsPerByte = Math.abs(coordinates.yOfBytes(0) - coordinates.yOfBytes(1));
  const hatch = hatchPattern(context, theme.noStackHatch, size.devicePixelRatio);
  context.strokeStyle = theme.bandSeparator;
  context.lineWidth = 1 / size.devicePixelRatio;
  layout.bands.forEach((band, index) => {
    context.globalAlpha = picture.bandDimmed?.[index] === 1 ? DIMMED_ALPHA : 1;
    context.fillStyle = theme.colorOfIndex(picture.bandColors[index]!);
    context.beginPath();
    traceBand(context, band, coordinates, snap);
    context.fill();
    if (picture.bandNoStack[index] === 1 && hatch !== null) {
      context.fillStyle = hatch;
      context.fill();
      drawn.add('no-stack');
    } else drawn.add('bands');
    if (band.sizeBytes * pixelsPerByte >= 4) context.stroke();
  });
  context.globalAlpha = 1;

  strokeEnvelope(context, layout.activeMax, columnWidth, coordinates, theme.activeLine, 1);
  strokeEnvelope(context, layout.reservedMax, columnWidth, coordinates, theme.reservedLine, 1.5);
  if (columns > 0) drawn.add('active');

  // The step ruler: every step a bar along the bottom, in alternate shades.
  if (picture.steps.length > 0) {
    context.fillStyle = theme.activeLine;
    picture.steps.forEach((step, index) => {
      if (step.x1 < 0 || step.x0 > width) return;
      context.globalAlpha = index % 2 === 0 ? 0.55 : 0.22;
      context.fillRect(
        step.x0,
        height - STEP_RULER_HEIGHT,
        Math.max(1, step.x1 - step.x0),
        STEP_RULER_HEIGHT,
      );
    });
    context.globalAlpha = 1;
    drawn.add('steps');
  }

  for (const marker of picture.markers) {
    drawVerticalMarker(context, marker, height);
    if (marker.x >= 0 && marker.x <= width) drawn.add(marker.kind);
  }
  drawAnnotationNames(context, picture.spans, width, theme);
  context.restore();
  return drawn;
}

/** The spans' names in rows under the lane bars, each cut to its span, over a halo. */
const MAX_CACHED_WIDTHS = 20_000;
const laneTextWidths = { font: '', widths: new Map<string, number>() };

function drawAnnotationNames(
  context: CanvasRenderingContext2D,
  spans: readonly SpanMark[],
  width: number,
  theme: TimelineTheme,
): void {
  if (spans.length === 0) return;
  const lane = ANNOTATION_LANE;
  context.font = lane.font;
  // Widths outlive a frame: zooming redraws the same names (and their cut versions) every frame.
  if (laneTextWidths.font !== lane.font || laneTextWidths.widths.size > MAX_CACHED_WIDTHS) {
    laneTextWidths.font = lane.font;
    laneTextWidths.widths.clear();
  }
  const widths = laneTextWidths.widths;
  const measure = (text: string): number => {
    let measured = widths.get(text);
    if (measured === undefined) {
      measured = context.measureText(text).width;
      widths.set(text, measured);
    }
    return measured;
  };
  const labels = annotationLabels(spans, width, measure);
  context.textBaseline = 'top';
  context.lineJoin = 'round';
  context.lineWidth = 3;
  context.strokeStyle = theme.surface;
  context.fillStyle = theme.annotationText;
  for (const label of labels) {
    const y = lane.labelTop + label.depth * lane.labelRow;
    context.strokeText(label.text, label.x, y);
    context.fillText(label.text, label.x, y);
  }
}

/** Width of one stripe period of the no-stack hatch, in CSS pixels (stripes a third of it). */
export const HATCH_PERIOD = 6;

const hatchCache = new WeakMap<
  CanvasRenderingContext2D,
  { color: string; ratio: number; pattern: CanvasPattern | null }
>();

/** Diagonal stripes of `color` on transparent, crisp at the device pixel ratio. */
function hatchPattern(
  context: CanvasRenderingContext2D,
  color: string,
  devicePixelRatio: number,
): CanvasPattern | null {
  const cached = hatchCache.get(context);
  if (cached !== undefined && cached.color === color && cached.ratio === devicePixelRatio)
    return cached.pattern;
  const side = Math.max(1, Math.round(HATCH_PERIOD * devicePixelRatio));
  const tile = document.createElement('canvas');
  tile.width = side;
  tile.height = side;
  const tileContext = tile.getContext('2d');
  let pattern: CanvasPattern | null = null;
  if (tileContext !== null) {
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
    pattern = context.createPattern(tile, 'repeat');
    pattern?.setTransform(new DOMMatrix().scale(1 / devicePixelRatio));
  }
  hatchCache.set(context, { color, ratio: devicePixelRatio, pattern });
  return pattern;
}

function pixelSnapper(devicePixelRatio: number): (value: number) => number {
  return (value) => Math.round(value * devicePixelRatio) / devicePixelRatio;
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

function strokeEnvelope(
  context: CanvasRenderingContext2D,
  values: Float64Array,
  columnWidth: number,
  coordinates: PlotCoordinates,
  color: string,
  lineWidth: number,
): void {
  const columns = values.length;
  if (columns === 0) return;
  context.strokeStyle = color;
  context.lineWidth = lineWidth;
  context.lineJoin = 'round';
  context.beginPath();
  for (let column = 0; column < columns; column++) {
    const y = coordinates.yOfBytes(values[column]!);
    if (column === 0) context.moveTo(0, y);
    else context.lineTo(column * columnWidth, y);
    context.lineTo((column + 1) * columnWidth, y);
  }
  context.stroke();
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
