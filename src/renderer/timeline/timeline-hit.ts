// What is under a point of the timeline's plot, read from the laid-out window (TimelinePlot):
// the hover's facts for the tooltip, what a click picks, and where the largest band at the active
// peak can be pointed at (for tests and tours).

import type { Phase, PhaseName } from '@shared/steps/phases';
import { spansAt } from '@shared/chart/annotation-spans';
import {
  hitTestTimeline,
  stepValueAt,
  type AllocationBand,
  type TimelineHit,
} from '@shared/chart/timeline-layout';
import {
  eventAtPixel,
  markerX,
  plotCoordinates,
  TIMELINE_MARGIN,
  type TimelinePlot,
} from './timeline-plot';

export interface TimelineHover {
  /** Pointer position in CSS pixels relative to the main canvas. */
  x: number;
  y: number;
  /** Where the canvas sits in the stage, and its size. */
  plotLeft: number;
  plotTop: number;
  plotWidth: number;
  plotHeight: number;
  event: number;
  hit: TimelineHit | null;
  activeBytes: number;
  reservedBytes: number;
  annotations: string[];
  /** The phase the event lies in (its band on the ruler), or null. */
  phase: PhaseName | null;
}

export interface PlotPoint {
  /** CSS pixels relative to the plot's canvas. */
  x: number;
  y: number;
}

/** The event at the point and the allocation (or merged smaller ones) there, if any. */
export function hitAt(
  plot: TimelinePlot,
  point: PlotPoint,
): { event: number; hit: TimelineHit | null } {
  const event = eventAtPixel(plot, point.x);
  const hit = hitTestTimeline(plot.layout, plot.data.device, event, plot.yScale.invert(point.y));
  return { event, hit };
}

export function hoverAt(
  plot: TimelinePlot,
  point: PlotPoint,
  phases: readonly Pick<Phase, 'name' | 'startEvent' | 'endEvent'>[] = [],
): TimelineHover {
  const { device, spans } = plot.data;
  const { event, hit } = hitAt(plot, point);
  const valueAt = (curve: Float64Array, baseline: number): number =>
    event < 0 || curve.length === 0 ? baseline : curve[Math.min(event, curve.length - 1)]!;
  return {
    x: point.x,
    y: point.y,
    plotLeft: TIMELINE_MARGIN.left,
    plotTop: TIMELINE_MARGIN.top,
    plotWidth: plot.size.width,
    plotHeight: plot.size.height,
    event,
    hit,
    activeBytes: valueAt(device.activeBytes, device.figures.active.baselineBytes),
    reservedBytes: valueAt(device.reservedBytes, device.figures.reserved.baselineBytes),
    annotations: spansAt(spans, plot.xScale.invert(point.x)),
    phase: phaseAt(phases, event),
  };
}

/** The phase holding `event` (phases lie in trace order, apart), or null. */
export function phaseAt(
  phases: readonly Pick<Phase, 'name' | 'startEvent' | 'endEvent'>[],
  event: number,
): PhaseName | null {
  let low = 0;
  let high = phases.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const phase = phases[middle]!;
    if (event < phase.startEvent) high = middle - 1;
    else if (event > phase.endEvent) low = middle + 1;
    else return phase.name;
  }
  return null;
}

/**
 * Where a test (or a tour) can point at the largest band drawn at the active peak: CSS pixels
 * relative to the canvas, checked against the same hit test the pointer uses.
 */
export function largestBandAtPeak(plot: TimelinePlot): PlotPoint | null {
  const { device } = plot.data;
  const { width, height } = plot.size;
  const peak = device.figures.active.peakEventIndex;
  // Zoomed out, an event's slot can be narrower than a pixel: of the pixels around the peak's
  // line, take the one whose hover shows the event nearest to the peak.
  const lineX = Math.floor(markerX(plot, peak));
  let x = Math.max(0, Math.min(width - 1, lineX));
  let event = eventAtPixel(plot, x);
  for (let candidate = lineX - 1; candidate <= lineX + 2; candidate++) {
    if (candidate < 0 || candidate > width - 1) continue;
    const candidateEvent = eventAtPixel(plot, candidate);
    if (Math.abs(candidateEvent - peak) < Math.abs(event - peak)) {
      x = candidate;
      event = candidateEvent;
    }
  }
  // The pointer lands within half a pixel of x: the band must hold still across that range.
  const first = eventAtPixel(plot, Math.max(0, x - 0.49));
  const last = eventAtPixel(plot, Math.min(width, x + 0.49));
  const table = device.allocations;
  let best: AllocationBand | null = null;
  for (const band of plot.layout.bands) {
    if (table.startEvent[band.row]! > first || band.endEvent <= last) continue;
    if (stepValueAt(band, first) !== stepValueAt(band, last)) continue;
    if (best === null || band.sizeBytes > best.sizeBytes) best = band;
  }
  if (best === null) return null;
  const offset = stepValueAt(best, event);
  const y = Math.round(plot.yScale(offset + best.sizeBytes / 2));
  return { x, y: Math.max(0, Math.min(height - 1, y)) };
}

/**
 * Where a test can read the colour of allocations with no recorded stack: the middle of the
 * widest visible step of the tallest such band, where the hit test finds an allocation with no
 * stack (bands thinner than a pixel blend with their neighbours, which are such allocations
 * too); null when none is drawn.
 */
export function largestNoStackBand(plot: TimelinePlot): PlotPoint | null {
  const { device } = plot.data;
  const { width, height } = plot.size;
  const stackIds = device.allocations.stackId;
  const coordinates = plotCoordinates(plot);
  let best: { point: PlotPoint; score: number } | null = null;
  for (const band of plot.layout.bands) {
    if (stackIds[band.row]! >= 0) continue;
    const thickness = Math.abs(plot.yScale(0) - plot.yScale(band.sizeBytes));
    for (let step = 0; step < band.stepEvents.length; step++) {
      const left = Math.max(0, coordinates.xOfEvent(band.stepEvents[step]!));
      const end = step + 1 < band.stepEvents.length ? band.stepEvents[step + 1]! : band.endEvent;
      const right = Math.min(width, coordinates.xOfEvent(end));
      const score = Math.min(right - left, thickness);
      if (right - left < 4 || (best !== null && score <= best.score)) continue;
      const y = Math.round(plot.yScale(band.stepOffsets[step]! + band.sizeBytes / 2));
      const point = { x: Math.round((left + right) / 2), y: Math.max(0, Math.min(height - 1, y)) };
      const { hit } = hitAt(plot, point);
      if (hit?.kind === 'allocation' && stackIds[hit.row]! < 0) best = { point, score };
    }
  }
  return best?.point ?? null;
}
