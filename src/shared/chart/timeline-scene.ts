// The timeline's plot laid out once as a scene of marks (scene-marks.ts), for the page's canvas
// and the exported SVG alike: the grid, the annotation spans, reserved and "smaller allocations"
// as areas, the allocation bands as polygons (one batch of typed arrays, snapped to device pixels),
// the curves, the step ruler and the phase bands along the bottom, the peak and OOM lines, the
// selected moment (exports only: the page draws it on its overlay) and the spans' names. The plot
// box is (0, 0) .. (width, height); the caller places it. The layout is the visible window's
// (timeline-layout.ts), so the page draws only what is visible.

import { annotationLabels } from './annotation-labels';
import { byteTicks, type ByteTicks } from './byte-ticks';
import type { SceneMark, TextItem } from './scene-marks';
import { textWidth } from './text-width';
import type { AllocationBand, TimelineLayout } from './timeline-layout';
import { oomLineWidthIn, type EventMarker, type MarkerKind } from './timeline-markers';
import type { TimelineMarkKind } from './timeline-marks';

/** The palette entries (render/palette.ts `timeline`) the plot is drawn in. */
export type TimelineRole =
  | 'grid'
  | 'annotationFill'
  | 'annotationLane'
  | 'annotationText'
  | 'surface'
  | 'text'
  | 'reservedFill'
  | 'otherFill'
  | 'activeLine'
  | 'reservedLine'
  | 'bandSeparator'
  | 'peakActive'
  | 'peakReserved'
  | 'oom'
  | 'moment'
  | TimelinePhaseRole;

/** The phases of steps/phases.ts (PHASE_NAMES), by name. */
export type TimelinePhaseName = 'forward' | 'backward' | 'optimizer' | 'other';
export type TimelinePhaseRole = `phase-${TimelinePhaseName}`;

export interface TimelineSpan {
  name: string;
  /** Plot pixels. */
  x0: number;
  x1: number;
  depth: number;
}

export interface TimelineSceneInput {
  layout: TimelineLayout;
  /** The plot's box in CSS pixels, and the device pixels per CSS pixel bands are snapped to. */
  width: number;
  height: number;
  devicePixelRatio: number;
  /** Plot x of an event coordinate (left edge of its slot). */
  xOfEvent(eventCoordinate: number): number;
  /** Plot x of the line marking the state after an event. */
  xOfMoment(event: number): number;
  yOfBytes(bytes: number): number;
  gridBytes: readonly number[];
  spans: readonly TimelineSpan[];
  /** Per band of the layout: palette index, no recorded stack (hatched), left out by a search. */
  bandColors: Int16Array;
  bandNoStack: Uint8Array;
  bandDimmed: Uint8Array | null;
  /** Training steps and phases, first and last event of each. */
  steps: readonly { startEvent: number; endEvent: number }[];
  phases: readonly { name: TimelinePhaseName; startEvent: number; endEvent: number }[];
  markers: readonly EventMarker[];
  /** The selected moment's line, or null (the page draws it on its overlay). */
  moment: number | null;
  /**
   * Buffers a caller that draws frame after frame (the page, while zooming) passes again each
   * time: the bands' points are written into them (grown when short) rather than into new arrays
   * each frame, so zooming leaves no garbage behind. The scene's marks are views of them, valid
   * until the next scene is built with the same scratch. Exports pass none.
   */
  scratch?: TimelineSceneScratch;
}

export interface TimelineSceneScratch {
  bandPoints: Float64Array;
}

export interface TimelineScene {
  width: number;
  height: number;
  marks: SceneMark<TimelineRole>[];
  /** The kinds of marks drawn inside the plot (the legend must name each). */
  kinds: Set<TimelineMarkKind>;
  /** The phase bands in plot pixels, in the phases' order. */
  phaseBands: { name: TimelinePhaseName; x0: number; x1: number }[];
}

/** The annotation lane: 2 px bars per nesting level, then rows of names under them. */
export const ANNOTATION_LANE = {
  barPitch: 3,
  barHeight: 2,
  bars: 3,
  labelTop: 10,
  labelRow: 12,
  sizePx: 10,
} as const;

/** The step ruler along the bottom of the plot, and the phase bands just above it. */
export const STEP_RULER_HEIGHT = 4;
export const PHASE_BAND = { height: 5, gap: 1, alpha: 0.85, labelSizePx: 9, labelGap: 2 } as const;

/** How faint the bands a search leaves out are drawn. */
export const DIMMED_ALPHA = 0.22;
/** Bands at least this tall (CSS px) get a hairline edge so neighbours of one colour stay apart. */
const EDGE_MIN_PX = 4;

const MARKER_STYLE: Record<MarkerKind, { role: TimelineRole; dash: readonly number[] | null }> = {
  'peak-reserved': { role: 'peakReserved', dash: [3, 3] },
  'peak-active': { role: 'peakActive', dash: [5, 3] },
  oom: { role: 'oom', dash: null },
};

export function timelineScene(input: TimelineSceneInput): TimelineScene {
  const { layout, width, height } = input;
  const marks: SceneMark<TimelineRole>[] = [];
  const kinds = new Set<TimelineMarkKind>();

  // Grid first, under everything, on half pixels so it stays crisp.
  if (input.gridBytes.length > 0) {
    const lines = new Float64Array(input.gridBytes.length * 4);
    input.gridBytes.forEach((bytes, i) => {
      const y = Math.round(input.yOfBytes(bytes)) + 0.5;
      lines.set([0, y, width, y], i * 4);
    });
    marks.push({ type: 'lines', role: 'grid', lineWidth: 1, dash: null, lines, tag: null });
  }

  // Annotation spans: a faint wash for top-level spans that do not cover the whole view (a wash
  // everywhere would say nothing) and a thin bar per nesting level along the top.
  const spans = input.spans.filter((span) => span.x1 >= 0 && span.x0 <= width);
  if (spans.length > 0) {
    const washes: [number, number][] = [];
    const lanes: [number, number][][] = [[], [], []];
    for (const span of spans) {
      const left = Math.max(-1, span.x0);
      const right = Math.min(width + 1, Math.max(left + 1, span.x1));
      if (span.depth === 0 && span.x1 - span.x0 <= width * 0.9) washes.push([left, right]);
      if (span.depth < ANNOTATION_LANE.bars) lanes[span.depth]!.push([left, right]);
    }
    const wash = mergedRects(washes, 0, height);
    if (wash.length > 0)
      marks.push({
        type: 'rects',
        role: 'annotationFill',
        alpha: 1,
        rects: wash,
        tag: 'annotations',
      });
    const lane = concat(
      lanes.map((ranges, depth) =>
        mergedRects(ranges, depth * ANNOTATION_LANE.barPitch, ANNOTATION_LANE.barHeight),
      ),
    );
    if (lane.length > 0)
      marks.push({
        type: 'rects',
        role: 'annotationLane',
        alpha: 1,
        rects: lane,
        tag: 'annotations',
      });
    kinds.add('annotations');
  }

  // Reserved as a light area (the gap above the active area is cached memory), active "other" over it.
  const columns = layout.activeMax.length;
  const columnWidth = width / Math.max(1, columns);
  const baseY = input.yOfBytes(0);
  const reservedYs = layout.reservedMax.map((bytes) => input.yOfBytes(bytes));
  const activeYs = layout.activeMax.map((bytes) => input.yOfBytes(bytes));
  const drawReserved = columns > 0 && layout.reservedRecorded;
  if (drawReserved)
    marks.push({
      type: 'polygon',
      role: 'reservedFill',
      points: envelopePoints(reservedYs, columnWidth, baseY),
      tag: 'reserved',
    });
  if (columns > 0) {
    marks.push({
      type: 'polygon',
      role: 'otherFill',
      points: envelopePoints(activeYs, columnWidth, baseY),
      tag: 'other',
    });
    kinds.add('other');
    if (drawReserved) kinds.add('reserved');
  }

  if (layout.bands.length > 0) {
    const bands = bandPolygons(layout.bands, input);
    marks.push(bands);
    for (let i = 0; i < layout.bands.length; i++)
      kinds.add(bands.hatched[i] === 1 ? 'no-stack' : 'bands');
  }

  if (columns > 0) {
    marks.push({
      type: 'polyline',
      role: 'activeLine',
      lineWidth: 1,
      points: envelopePoints(activeYs, columnWidth, null),
      tag: 'active',
    });
    if (drawReserved)
      marks.push({
        type: 'polyline',
        role: 'reservedLine',
        lineWidth: 1.5,
        points: envelopePoints(reservedYs, columnWidth, null),
        tag: 'reserved',
      });
    kinds.add('active');
  }

  // The step ruler: every step a bar along the bottom, in alternate shades.
  const ruler = [[], []] as [number[], number[]];
  input.steps.forEach((step, index) => {
    const x0 = input.xOfEvent(step.startEvent);
    const x1 = input.xOfEvent(step.endEvent + 1);
    if (x1 < 0 || x0 > width) return;
    const left = Math.max(-1, x0);
    const right = Math.min(width + 1, x1);
    ruler[index % 2]!.push(
      left,
      height - STEP_RULER_HEIGHT,
      Math.max(1, right - left),
      STEP_RULER_HEIGHT,
    );
  });
  ruler.forEach((rects, shade) => {
    if (rects.length === 0) return;
    marks.push({
      type: 'rects',
      role: 'activeLine',
      alpha: shade === 0 ? 0.55 : 0.22,
      rects: Float64Array.from(rects),
      tag: 'steps',
    });
  });
  if (input.steps.length > 0) kinds.add('steps');

  const phaseBands = phaseBandsOf(input);
  if (phaseBands.length > 0) {
    marks.push(...phaseMarks(phaseBands, width, height));
    kinds.add('phases');
  }

  // Peaks and OOMs: full-height lines, on a half pixel where their width is odd.
  const markerXs = input.markers.map((marker) => input.xOfMoment(marker.event));
  const oomWidth = oomLineWidthIn(input.markers, markerXs, { left: 0, width });
  input.markers.forEach((marker, i) => {
    const style = MARKER_STYLE[marker.kind];
    const lineWidth = marker.kind === 'oom' ? oomWidth : 1;
    const x = Math.round(markerXs[i]!) + (lineWidth % 2 === 1 ? 0.5 : 0);
    marks.push({
      type: 'lines',
      role: style.role,
      lineWidth,
      dash: style.dash,
      lines: Float64Array.of(x, 0, x, height),
      tag: marker.kind,
    });
    if (markerXs[i]! >= 0 && markerXs[i]! <= width) kinds.add(marker.kind);
  });
  if (input.moment !== null) {
    const x = Math.round(input.xOfMoment(input.moment)) + 0.5;
    marks.push({
      type: 'lines',
      role: 'moment',
      lineWidth: 1,
      dash: null,
      lines: Float64Array.of(x, 0, x, height),
      tag: 'moment',
    });
    if (x >= 0 && x <= width) kinds.add('moment');
  }

  // The spans' names in rows under the lane bars, each cut to its span, over a halo.
  if (spans.length > 0) {
    const lane = ANNOTATION_LANE;
    const labels = annotationLabels(spans, width, (text) => textWidth(text, lane.sizePx));
    if (labels.length > 0)
      marks.push({
        type: 'text',
        role: 'annotationText',
        haloRole: 'surface',
        sizePx: lane.sizePx,
        items: labels.map((label) => ({
          text: label.text,
          x: label.x,
          y: lane.labelTop + label.depth * lane.labelRow + lane.sizePx - 1,
        })),
        tag: 'annotations',
      });
  }
  return { width, height, marks, kinds, phaseBands };
}

/** The phases in plot pixels, those inside the plot. */
function phaseBandsOf(input: TimelineSceneInput): TimelineScene['phaseBands'] {
  const bands: TimelineScene['phaseBands'] = [];
  for (const phase of input.phases) {
    const x0 = input.xOfEvent(phase.startEvent);
    const x1 = input.xOfEvent(phase.endEvent + 1);
    if (x1 < 0 || x0 > input.width) continue;
    bands.push({ name: phase.name, x0, x1 });
  }
  return bands;
}

/** Thin bands in each phase's colour just above the step ruler, named where the name fits. */
function phaseMarks(
  bands: TimelineScene['phaseBands'],
  width: number,
  height: number,
): SceneMark<TimelineRole>[] {
  const top = height - STEP_RULER_HEIGHT - PHASE_BAND.gap - PHASE_BAND.height;
  const rects = new Map<TimelinePhaseName, number[]>();
  const labels: TextItem[] = [];
  for (const band of bands) {
    const left = Math.max(-1, band.x0);
    const right = Math.min(width + 1, band.x1);
    const list = rects.get(band.name) ?? [];
    list.push(left, top, Math.max(1, right - left), PHASE_BAND.height);
    rects.set(band.name, list);
    const room = right - Math.max(0, left);
    if (textWidth(band.name, PHASE_BAND.labelSizePx) + 6 <= room)
      labels.push({ text: band.name, x: Math.max(0, left) + 3, y: top - PHASE_BAND.labelGap });
  }
  const marks: SceneMark<TimelineRole>[] = [...rects].map(([name, list]) => ({
    type: 'rects',
    role: `phase-${name}`,
    alpha: PHASE_BAND.alpha,
    rects: Float64Array.from(list),
    tag: 'phases',
  }));
  if (labels.length > 0)
    marks.push({
      type: 'text',
      role: 'text',
      haloRole: 'surface',
      sizePx: PHASE_BAND.labelSizePx,
      items: labels,
      tag: 'phases',
    });
  return marks;
}

/**
 * A step function over pixel columns as points: y(column) held across each column; closed down
 * to baseY (an area) when baseY is given.
 */
export function envelopePoints(
  ys: Float64Array,
  columnWidth: number,
  baseY: number | null,
): Float64Array {
  const columns = ys.length;
  const area = baseY !== null;
  const points = new Float64Array((columns * 2 + (area ? 2 : 0)) * 2);
  let at = 0;
  if (area) {
    points[at++] = 0;
    points[at++] = baseY;
  }
  for (let column = 0; column < columns; column++) {
    points[at++] = column * columnWidth;
    points[at++] = ys[column]!;
    points[at++] = (column + 1) * columnWidth;
    points[at++] = ys[column]!;
  }
  if (area) {
    points[at++] = columns * columnWidth;
    points[at++] = baseY;
  }
  return points;
}

/**
 * The bands as polygons: each band's top edge left to right, its bottom edge back, on device
 * pixels. Steps that snap to no width are dropped (invisible), so a band's outline grows with
 * the pixels it covers, not with its events; a band thinner than a device pixel everywhere keeps
 * a device pixel at its first position.
 */
function bandPolygons(
  bands: readonly AllocationBand[],
  input: TimelineSceneInput,
): SceneMark<TimelineRole> & { type: 'bands' } {
  const ratio = input.devicePixelRatio;
  const snap = (value: number): number => Math.round(value * ratio) / ratio;
  const pixelsPerByte = Math.abs(input.yOfBytes(0) - input.yOfBytes(1));
  const starts = new Int32Array(bands.length + 1);
  const edged = new Uint8Array(bands.length);
  const scratch = input.scratch;
  let points =
    scratch !== undefined && scratch.bandPoints.length > 0
      ? scratch.bandPoints
      : new Float64Array(1024);
  let count = 0;
  const push = (x: number, y: number): void => {
    if (count * 2 + 2 > points.length) {
      const grown = new Float64Array(points.length * 2);
      grown.set(points);
      points = grown;
    }
    points[count * 2] = x;
    points[count * 2 + 1] = y;
    count++;
  };
  const xs: number[] = [];
  const offsets: number[] = [];
  bands.forEach((band, index) => {
    starts[index] = count;
    edged[index] = band.sizeBytes * pixelsPerByte >= EDGE_MIN_PX ? 1 : 0;
    xs.length = 0;
    offsets.length = 0;
    const steps = band.stepEvents.length;
    const endX = snap(input.xOfEvent(band.endEvent));
    let x = steps > 0 ? snap(input.xOfEvent(band.stepEvents[0]!)) : endX;
    for (let i = 0; i < steps; i++) {
      const next = i + 1 < steps ? snap(input.xOfEvent(band.stepEvents[i + 1]!)) : endX;
      const offset = band.stepOffsets[i]!;
      if (next > x && (offsets.length === 0 || offsets[offsets.length - 1] !== offset)) {
        xs.push(x);
        offsets.push(offset);
      }
      x = Math.max(x, next);
    }
    let end = endX;
    if (xs.length === 0) {
      xs.push(snap(input.xOfEvent(band.stepEvents[0] ?? band.endEvent)));
      offsets.push(band.stepOffsets[0] ?? 0);
      end = Math.max(endX, xs[0]! + 1 / ratio);
    }
    const size = band.sizeBytes;
    const n = xs.length;
    const xAt = (i: number): number => (i < n ? xs[i]! : end);
    for (let i = 0; i < n; i++) {
      const top = snap(input.yOfBytes(offsets[i]! + size));
      push(xAt(i), top);
      push(xAt(i + 1), top);
    }
    for (let i = n - 1; i >= 0; i--) {
      const bottom = snap(input.yOfBytes(offsets[i]!));
      push(xAt(i + 1), bottom);
      push(xAt(i), bottom);
    }
  });
  starts[bands.length] = count;
  if (scratch !== undefined) scratch.bandPoints = points;
  return {
    type: 'bands',
    points: points.subarray(0, count * 2),
    starts,
    colors: input.bandColors,
    hatched: input.bandNoStack,
    edged,
    dimmed: input.bandDimmed,
    dimAlpha: DIMMED_ALPHA,
    edgeRole: 'bandSeparator',
    edgeWidth: 1 / ratio,
    tag: 'bands',
    hatchedTag: 'no-stack',
  };
}

/** Layout columns for a plot this wide: one per device pixel, capped (a 4K screen must not double
 * the envelope work). */
export function timelineColumns(width: number, devicePixelRatio: number): number {
  return Math.max(1, Math.min(MAX_COLUMNS, Math.round(width * devicePixelRatio)));
}
const MAX_COLUMNS = 4096;

/** Allocations drawn as bands of their own (timeline-layout.ts selectBandRows). */
export const TIMELINE_MAX_BANDS = 1000;

/** The byte axis of a plot `height` px tall showing up to `maxBytes`: its ticks and its top. */
export function timelineByteScale(
  maxBytes: number,
  height: number,
): { ticks: ByteTicks; topBytes: number } {
  const ticks = byteTicks(maxBytes, Math.max(2, Math.round(height / 45)));
  return { ticks, topBytes: Math.max(maxBytes * 1.06, ticks.values.at(-1) ?? 0, 1) };
}

/** Outline points of all bands: what an export's size follows. */
export function bandPointCount(scene: TimelineScene): number {
  let points = 0;
  for (const mark of scene.marks) if (mark.type === 'bands') points += mark.points.length / 2;
  return points;
}

/**
 * Ranges [left, right] drawn from y down `height` as rectangles, ranges that overlap or lie within
 * half a pixel of each other merged (thousands of short spans stay a handful of marks). Sorts
 * `ranges` in place.
 */
export function mergedRects(ranges: [number, number][], y: number, height: number): Float64Array {
  ranges.sort((a, b) => a[0] - b[0]);
  const rects: number[] = [];
  let current: [number, number] | null = null;
  const flush = (): void => {
    if (current !== null) rects.push(current[0], y, current[1] - current[0], height);
  };
  for (const range of ranges) {
    if (current !== null && range[0] <= current[1] + 0.5)
      current[1] = Math.max(current[1], range[1]);
    else {
      flush();
      current = [range[0], range[1]];
    }
  }
  flush();
  return Float64Array.from(rects);
}

function concat(arrays: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(arrays.reduce((sum, array) => sum + array.length, 0));
  let at = 0;
  for (const array of arrays) {
    out.set(array, at);
    at += array.length;
  }
  return out;
}
