// External annotations (record_function START/END marks) as spans on exported timelines, placed
// like the app places them (src/renderer/charts/annotation-spans.ts): time mode at their times,
// event mode at the nearest event. Only wall-clock times are recorded for them.

import type { ExternalAnnotation } from '../snapshot/model';
import { relativeTimes, type XMode } from './event-axis';

export interface PlacedSpan {
  name: string;
  /** How many spans were open when this one started (nesting level). */
  depth: number;
  /** In x units of the axis (microseconds since the first event, or event coordinates). */
  x0: number;
  x1: number;
}

interface Span {
  name: string;
  startUs: number;
  endUs: number;
  depth: number;
}

/** START/END pairs of one device matched by name; unmatched marks run to the trace's ends. */
function pairAnnotations(annotations: readonly ExternalAnnotation[], device: number): Span[] {
  const marks = annotations
    .filter((annotation) => annotation.device === device && Number.isFinite(annotation.timeUs))
    .map((annotation, order) => ({ annotation, order }))
    .sort((a, b) => a.annotation.timeUs - b.annotation.timeUs || a.order - b.order);
  const open = new Map<string, Span[]>();
  const spans: Span[] = [];
  let openCount = 0;
  for (const { annotation } of marks) {
    const stage = annotation.stage.toUpperCase();
    if (stage === 'START') {
      const span = {
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
      } else
        spans.push({
          name: annotation.name,
          startUs: -Infinity,
          endUs: annotation.timeUs,
          depth: 0,
        });
    }
  }
  return spans.sort((a, b) => a.startUs - b.startUs);
}

function nearestEvent(times: Float64Array, length: number, t: number): number {
  let low = 0;
  let high = length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (times[middle]! < t) low = middle + 1;
    else high = middle;
  }
  if (low > 0 && t - times[low - 1]! <= times[low]! - t) return low - 1;
  return low;
}

/** The device's annotation spans in x units of the axis, clipped to the trace. */
export function annotationSpans(
  annotations: readonly ExternalAnnotation[],
  device: { device: number; timeUs: Float64Array | null; traceLength: number },
  mode: XMode,
): PlacedSpan[] {
  const { timeUs, traceLength } = device;
  const times = relativeTimes(timeUs, traceLength);
  if (times === null || timeUs === null) return [];
  const firstUs = timeUs[0]!;
  const lastX = times[traceLength]!;
  const placed: PlacedSpan[] = [];
  for (const span of pairAnnotations(annotations, device.device)) {
    const start = span.startUs - firstUs;
    const end = span.endUs - firstUs;
    if (end < 0 || start > lastX) continue;
    const t0 = Math.max(0, start);
    const t1 = Math.min(lastX, end);
    if (mode === 'time') placed.push({ name: span.name, depth: span.depth, x0: t0, x1: t1 });
    else {
      const e0 = nearestEvent(times, traceLength, t0);
      const e1 = end >= lastX ? traceLength : Math.max(e0, nearestEvent(times, traceLength, t1));
      placed.push({ name: span.name, depth: span.depth, x0: e0, x1: e1 });
    }
  }
  return placed;
}
