// External annotations (record_function / dynamo_timed START and END marks) as spans on the
// timeline, in the app and in exported SVG. They carry wall-clock times only: time mode places
// them directly, event mode at the nearest event.

import type { ExternalAnnotation } from '../snapshot/model';
import { relativeTimes } from '../analyzed/device-times';
import type { XMode } from './event-axis';

export interface AnnotationSpan {
  name: string;
  /** Microseconds since the Unix epoch; an unmatched START runs to the end, an END from the start. */
  startUs: number;
  endUs: number;
  /** How many spans were open when this one started (nesting level). */
  depth: number;
}

/**
 * START/END pairs of one device matched by name (the innermost open START of that name takes an
 * END), in order of start. Unmatched marks become spans open to the trace's ends.
 */
export function pairAnnotations(
  annotations: readonly ExternalAnnotation[],
  device: number,
): AnnotationSpan[] {
  const marks = annotations
    .filter((annotation) => annotation.device === device && Number.isFinite(annotation.timeUs))
    .map((annotation, order) => ({ annotation, order }))
    .sort((a, b) => a.annotation.timeUs - b.annotation.timeUs || a.order - b.order);
  const open = new Map<string, AnnotationSpan[]>();
  const spans: AnnotationSpan[] = [];
  let openCount = 0;
  for (const { annotation } of marks) {
    const stage = annotation.stage.toUpperCase();
    if (stage === 'START') {
      const span: AnnotationSpan = {
        name: annotation.name,
        startUs: annotation.timeUs,
        endUs: Infinity,
        depth: openCount,
      };
      spans.push(span);
      const list = open.get(annotation.name) ?? [];
      list.push(span);
      open.set(annotation.name, list);
      openCount++;
    } else if (stage === 'END') {
      const span = open.get(annotation.name)?.pop();
      if (span !== undefined) {
        span.endUs = annotation.timeUs;
        openCount--;
      } else {
        spans.push({
          name: annotation.name,
          startUs: -Infinity,
          endUs: annotation.timeUs,
          depth: 0,
        });
      }
    }
  }
  return spans.sort((a, b) => a.startUs - b.startUs);
}

export interface PlacedSpan {
  name: string;
  depth: number;
  /** In x units of the axis (microseconds since the first event, or event coordinates). */
  x0: number;
  x1: number;
}

/**
 * Spans in x units, clipped to the trace; spans wholly outside it are dropped. Null times (the
 * file records none) place nothing.
 */
export function placeAnnotationSpans(
  spans: readonly AnnotationSpan[],
  timeUs: Float64Array | null,
  traceLength: number,
  mode: XMode,
): PlacedSpan[] {
  const times = relativeTimes(timeUs, traceLength);
  if (times === null || timeUs === null) return [];
  const firstUs = timeUs[0]!;
  const lastX = times[traceLength]!;
  const placed: PlacedSpan[] = [];
  for (const span of spans) {
    const start = span.startUs - firstUs;
    const end = span.endUs - firstUs;
    if (end < 0 || start > lastX) continue;
    const t0 = Math.max(0, start);
    const t1 = Math.min(lastX, end);
    if (mode === 'time') {
      placed.push({ name: span.name, depth: span.depth, x0: t0, x1: t1 });
    } else {
      const e0 = nearestEvent(times, traceLength, t0);
      const e1 = end >= lastX ? traceLength : Math.max(e0, nearestEvent(times, traceLength, t1));
      placed.push({ name: span.name, depth: span.depth, x0: e0, x1: e1 });
    }
  }
  return placed;
}

/** The event whose time is nearest to t (the earlier one on a tie), by binary search. */
export function nearestEvent(times: Float64Array, length: number, t: number): number {
  let low = 0;
  let high = length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (times[middle]! < t) low = middle + 1;
    else high = middle;
  }
  // low is the first event at or after t (or the last event); its predecessor may be nearer.
  if (low > 0 && t - times[low - 1]! <= times[low]! - t) return low - 1;
  return low;
}

/** Names of the spans that contain x (innermost last). */
export function spansAt(spans: readonly PlacedSpan[], x: number): string[] {
  const names: { name: string; depth: number }[] = [];
  for (const span of spans) if (span.x0 <= x && x <= span.x1) names.push(span);
  return names.sort((a, b) => a.depth - b.depth).map((span) => span.name);
}
