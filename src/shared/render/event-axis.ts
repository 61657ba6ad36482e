// The timeline's x axis for exports: event coordinates (event e's state holds over [e, e + 1)),
// shown as event indices or as time since the first event. The same mapping as the app's axis
// (src/renderer/charts/event-axis.ts), so an exported chart has the app's geometry.

export type XMode = 'time' | 'event';

export interface EventAxis {
  mode: XMode;
  /** Event coordinates the chart covers: [minEvent, maxEvent]. */
  minEvent: number;
  maxEvent: number;
  /** x units of an event coordinate (events, or microseconds since the first event). */
  toX(eventCoordinate: number): number;
  /** Fractional event coordinate at x. */
  toEvent(x: number): number;
}

export interface EventAxisSource {
  traceLength: number;
  timeUs: Float64Array | null;
}

/** A trace with no entries shows one slot [-1, 0); time falls back to events without usable times. */
export function createEventAxis(source: EventAxisSource, requested: XMode): EventAxis {
  const length = source.traceLength;
  if (length === 0) return eventModeAxis(-1, 0);
  const times = requested === 'time' ? relativeTimes(source.timeUs, length) : null;
  if (times === null) return eventModeAxis(0, length);
  return timeModeAxis(times, length);
}

function eventModeAxis(minEvent: number, maxEvent: number): EventAxis {
  return {
    mode: 'event',
    minEvent,
    maxEvent,
    toX: (eventCoordinate) => eventCoordinate,
    toEvent: (x) => x,
  };
}

/** Microseconds since the first event, non-decreasing, plus the end of the last slot. */
export function relativeTimes(timeUs: Float64Array | null, length: number): Float64Array | null {
  if (timeUs === null || length === 0 || timeUs.length < length) return null;
  const first = timeUs[0]!;
  if (!Number.isFinite(first)) return null;
  const times = new Float64Array(length + 1);
  let running = 0;
  for (let event = 0; event < length; event++) {
    const t = timeUs[event]! - first;
    if (t > running) running = t;
    times[event] = running;
  }
  const span = times[length - 1]!;
  if (!(span > 0)) return null;
  times[length] = span + Math.max(span / length, 1);
  return times;
}

function timeModeAxis(times: Float64Array, length: number): EventAxis {
  const maxX = times[length]!;
  const toX = (eventCoordinate: number): number => {
    if (eventCoordinate <= 0) return 0;
    if (eventCoordinate >= length) return maxX;
    const event = Math.floor(eventCoordinate);
    const fraction = eventCoordinate - event;
    const start = times[event]!;
    return fraction === 0 ? start : start + fraction * (times[event + 1]! - start);
  };
  const toEvent = (x: number): number => {
    if (x >= maxX) return length;
    const at = Math.max(0, x);
    let low = 0;
    let high = length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (times[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    const start = times[low]!;
    return low + (at - start) / (times[low + 1]! - start);
  };
  return { mode: 'time', minEvent: 0, maxEvent: length, toX, toEvent };
}

/**
 * Events of [x0, x1] split into `columns` equal pixel columns: columns + 1 start events for
 * layoutTimeline (column c holds the events whose slot starts inside it).
 */
export function columnStartEvents(
  axis: EventAxis,
  startEvent: number,
  endEvent: number,
  columns: number,
): Int32Array {
  const count = Math.max(1, Math.floor(columns));
  const x0 = axis.toX(startEvent);
  const x1 = axis.toX(endEvent);
  const starts = new Int32Array(count + 1);
  starts[0] = startEvent;
  let previous = startEvent;
  const width = (x1 - x0) / count;
  for (let column = 1; column < count; column++) {
    let event = Math.ceil(axis.toEvent(x0 + column * width));
    if (event < previous) event = previous;
    if (event > endEvent) event = endEvent;
    starts[column] = event;
    previous = event;
  }
  starts[count] = endEvent;
  return starts;
}
