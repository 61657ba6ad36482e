// What the timeline's legend and x-mode toggle need to know about a device's times, in one pass
// and without allocating: whether time mode is possible, and how many annotation spans fall
// inside the trace. The same figures as relativeTimes() / placeAnnotationSpans() in
// @shared/chart/event-axis.ts and annotation-spans.ts, which build an array of the trace's length
// (57 MB for a 1 GB snapshot) to answer them.

import type { AnnotationSpan } from '@shared/chart/annotation-spans';
import { traceTimeSpanUs } from '@shared/analyzed/device-times';

export interface TraceTimeExtent {
  /** time_us of the first event. */
  firstUs: number;
  /** Microseconds from the first event to the end of the last event's slot (x of the axis end). */
  lastX: number;
}

/** Null where the times are not usable (@shared/analyzed/device-times: the one rule). */
export function traceTimeExtent(
  timeUs: Float64Array | null,
  length: number,
): TraceTimeExtent | null {
  // relativeTimes() makes the times non-decreasing; its last value is this span.
  const span = traceTimeSpanUs(timeUs, length);
  if (span === null || timeUs === null) return null;
  return { firstUs: timeUs[0]!, lastX: span + Math.max(span / length, 1) };
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
