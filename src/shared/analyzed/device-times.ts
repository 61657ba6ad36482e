// Whether a device's times are usable: the one rule, applied once when the analyzed snapshot is
// built (AnalyzedDevice.timeUs is null exactly when they are not). The timeline's x mode and
// its toggle, the time extent and the annotation spans, the exported timeline and its title, the
// tables' lifetimes, the JSON documents' timeUs fields and the OOM explanations all follow it.
//
// Times are usable when the trace has entries, its first entry records a finite time_us, and the
// times advance (their running maximum grows past the first): only then can events be placed in
// time. A file without time_us (PyTorch 2.0-era snapshots) or whose entries all share one time
// shows events by index, everywhere alike.

/**
 * Spans already measured, per time column. The analysed model's columns are never written once
 * built, and the timeline asks for a device's span on several paths per render (its extent, its
 * axis, its annotation lane): 4M events of a 1 GB snapshot cost ~40 ms a pass on the main thread.
 */
const spanCache = new WeakMap<Float64Array, { length: number; span: number | null }>();

/**
 * Microseconds from the first entry to the latest one (the running maximum of time − first, so
 * entries without a time or out of order do not shrink it); null when the times are not usable.
 */
export function traceTimeSpanUs(timeUs: Float64Array | null, length: number): number | null {
  if (timeUs === null) return null;
  const cached = spanCache.get(timeUs);
  if (cached !== undefined && cached.length === length) return cached.span;
  const span = measureSpan(timeUs, length);
  spanCache.set(timeUs, { length, span });
  return span;
}

/**
 * Records the span of a column measured elsewhere (the worker measured it while building the
 * analyzed snapshot; the page receives a copy of the column and need not pass over it again).
 */
export function rememberTraceTimeSpan(
  timeUs: Float64Array,
  length: number,
  span: number | null,
): void {
  spanCache.set(timeUs, { length, span });
}

function measureSpan(timeUs: Float64Array, length: number): number | null {
  if (length === 0 || timeUs.length < length) return null;
  const first = timeUs[0]!;
  if (!Number.isFinite(first)) return null;
  let span = 0;
  for (let event = 0; event < length; event++) {
    const t = timeUs[event]! - first;
    if (t > span) span = t;
  }
  return span > 0 ? span : null;
}

/** Relative times already built, per time column (the model's columns are never written once built). */
const relativeTimesCache = new WeakMap<
  Float64Array,
  { length: number; times: Float64Array | null }
>();

/**
 * Microseconds since the first event for events 0..length-1, made non-decreasing, plus one more
 * entry for the end of the last event's slot (one average gap after it). Null when unusable.
 * Built once per time column: the axis and the annotation lane both ask for it on every render
 * that changes the device or the x mode (each pass over a 1 GB snapshot's 4M events costs
 * ~70 ms). The array returned is shared: callers read it, never write it.
 */
export function relativeTimes(timeUs: Float64Array | null, length: number): Float64Array | null {
  if (timeUs === null) return null;
  const cached = relativeTimesCache.get(timeUs);
  if (cached !== undefined && cached.length === length) return cached.times;
  const times = buildRelativeTimes(timeUs, length);
  relativeTimesCache.set(timeUs, { length, times });
  return times;
}

/**
 * Records relative times built elsewhere (the decode worker builds them for the device the page
 * opens on: the timeline's axis would otherwise build them in the page's first render).
 */
export function rememberRelativeTimes(
  timeUs: Float64Array,
  length: number,
  times: Float64Array | null,
): void {
  relativeTimesCache.set(timeUs, { length, times });
}

function buildRelativeTimes(timeUs: Float64Array, length: number): Float64Array | null {
  // The one rule for usable times (analyzed/device-times.ts).
  if (traceTimeSpanUs(timeUs, length) === null) return null;
  const first = timeUs[0]!;
  const times = new Float64Array(length + 1);
  let running = 0;
  for (let event = 0; event < length; event++) {
    const t = timeUs[event]! - first;
    if (t > running) running = t;
    times[event] = running;
  }
  const span = times[length - 1]!;
  times[length] = span + Math.max(span / length, 1);
  return times;
}

/** Whether a trace's recorded times are usable (the rule above), for a raw time column. */
export function traceTimesUsable(timeUs: Float64Array | null, length: number): boolean {
  return traceTimeSpanUs(timeUs, length) !== null;
}

/**
 * Whether an analyzed device's times are usable. The analyzed snapshot applied the rule when it
 * was built (timeUs is null otherwise), so this is O(1) and safe in any render path.
 */
export function deviceTimesUsable(device: { timeUs: Float64Array | null }): boolean {
  return device.timeUs !== null;
}

/** time_us of event `event` as recorded; null without usable times, outside the trace or when that entry has none. */
export function eventTimeUs(
  device: { timeUs: Float64Array | null; traceLength: number },
  event: number,
): number | null {
  if (device.timeUs === null || event < 0 || event >= device.traceLength) return null;
  const time = device.timeUs[event];
  return time !== undefined && Number.isFinite(time) ? time : null;
}
