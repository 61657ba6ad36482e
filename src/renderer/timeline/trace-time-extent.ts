// What the timeline's legend and x-mode toggle need to know about a device's times, in one pass
// and without allocating: whether time mode is possible, and how many annotation spans fall
// inside the trace. The same figures as relativeTimes() / placeAnnotationSpans() in
// @shared/chart/event-axis.ts and annotation-spans.ts, which build an array of the trace's length
// (57 MB for a 1 GB snapshot) to answer them.

import type { AnnotationSpan } from '@shared/chart/annotation-spans';

export interface TraceTimeExtent {
  /** time_us of the first event. */
  firstUs: number;
  /** Microseconds from the first event to the end of the last event's slot (x of the axis end). */
  lastX: number;
}

/** Null where the chart cannot use time mode (no times, non-finite first time, zero span). */
export function traceTimeExtent(
  timeUs: Float64Array | null,
  length: number,
): TraceTimeExtent | null {
  if (timeUs === null || length === 0 || timeUs.length < length) return null;
  const first = timeUs[0]!;
  if (!Number.isFinite(first)) return null;
  // relativeTimes() makes the times non-decreasing; its last value is the running maximum.
  let span = 0;
  for (let event = 0; event < length; event++) {
    const t = timeUs[event]! - first;
    if (t > span) span = t;
  }
  if (!(span > 0)) return null;
  return { firstUs: first, lastX: span + Math.max(span / length, 1) };
}

/** How many of the spans placeAnnotationSpans() keeps (those that overlap the trace). */
export function countSpansInTrace(
  spans: readonly AnnotationSpan[],
  extent: TraceTimeExtent | null,
): number {
  if (extent === null) return 0;
  let count = 0;
  for (const span of spans) {
    const start = span.startUs - extent.firstUs;
    const end = span.endUs - extent.firstUs;
    if (!(end < 0 || start > extent.lastX)) count++;
  }
  return count;
}
