// The x axis of the timeline, in the app and in exported SVG. Geometry is in event coordinates
// (event e's state holds over [e, e + 1)); the axis shows either those directly or wall-clock
// time since the first event. In time mode event -> x goes through the recorded times and
// x -> event is a binary search, so one linear scale over x units converts pixels for every mark.

import { relativeTimes, traceTimesUsable } from '../analyzed/device-times';

export type XMode = 'time' | 'event';

export interface EventAxis {
  mode: XMode;
  /** Event coordinates the chart covers: [minEvent, maxEvent]. */
  minEvent: number;
  maxEvent: number;
  /** The same range in x units (events, or microseconds since the first event). */
  minX: number;
  maxX: number;
  /** Smallest span one may zoom to, in x units. */
  minSpan: number;
  /** x units of an event coordinate (fractional coordinates interpolate). */
  toX(eventCoordinate: number): number;
  /** Fractional event coordinate at x: floor() of it is the event whose state shows there. */
  toEvent(x: number): number;
}

export interface EventAxisSource {
  traceLength: number;
  timeUs: Float64Array | null;
}

/** Fewest events a window may show. */
const MIN_EVENT_SPAN = 8;
/** Shortest time window, in microseconds. */
const MIN_TIME_SPAN_US = 4;

/**
 * The axis of a device. A trace with no entries still shows the state it ends in, as one slot
 * [-1, 0) (the allocations alive "before" the empty trace). Time mode falls back to events when
 * the file records no times or all entries share one time.
 */
export function createEventAxis(source: EventAxisSource, requested: XMode): EventAxis {
  const length = source.traceLength;
  if (length === 0) return eventModeAxis(-1, 0);
  const times = requested === 'time' ? relativeTimes(source.timeUs, length) : null;
  if (times === null) return eventModeAxis(0, length);
  return timeModeAxis(times, length);
}

/** Whether time mode is possible for this device: its times are usable (analyzed/device-times.ts). */
export function hasUsableTimes(source: EventAxisSource): boolean {
  return traceTimesUsable(source.timeUs, source.traceLength);
}

function eventModeAxis(minEvent: number, maxEvent: number): EventAxis {
  const total = maxEvent - minEvent;
  return {
    mode: 'event',
    minEvent,
    maxEvent,
    minX: minEvent,
    maxX: maxEvent,
    minSpan: Math.min(total, MIN_EVENT_SPAN),
    toX: (eventCoordinate) => eventCoordinate,
    toEvent: (x) => x,
  };
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
    // The last event that has happened by then: times[event] <= at < times[event + 1].
    const event = lastEventAtOrBefore(times, length, at);
    const start = times[event]!;
    return event + (at - start) / (times[event + 1]! - start);
  };
  return {
    mode: 'time',
    minEvent: 0,
    maxEvent: length,
    minX: 0,
    maxX,
    minSpan: Math.min(maxX, MIN_TIME_SPAN_US),
    toX,
    toEvent,
  };
}

/** Largest event in [0, length - 1] with times[event] <= x (0 when none). */
export function lastEventAtOrBefore(times: Float64Array, length: number, x: number): number {
  let low = 0;
  let high = length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (times[middle]! <= x) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The event whose state shows at x, within the axis. */
export function eventAtX(axis: EventAxis, x: number): number {
  const event = Math.floor(axis.toEvent(x));
  return Math.max(axis.minEvent, Math.min(axis.maxEvent - 1, event));
}

/**
 * Event coordinate of the line marking the state after `event`: the event's time, or the middle
 * of its slot on an event axis. Events outside the axis are drawn at its ends.
 */
export function momentCoordinate(axis: EventAxis, event: number): number {
  const clamped = Math.max(axis.minEvent, Math.min(axis.maxEvent - 1, event));
  return axis.mode === 'event' ? clamped + 0.5 : clamped;
}

export interface EventWindow {
  /** Events [startEvent, endEvent) overlap the visible x range. */
  startEvent: number;
  endEvent: number;
  /** columns + 1 entries for layoutTimeline: column c holds the events that start in it. */
  columnStartEvents: Int32Array;
}

/**
 * Events visible in [x0, x1] split into `columns` equal pixel columns. Column c holds the events
 * whose slot starts inside it; the first column also holds the event already under its left edge.
 */
export function eventWindow(axis: EventAxis, x0: number, x1: number, columns: number): EventWindow {
  // From the left end the window starts at the first event even when several share its time.
  let startEvent = x0 <= axis.minX ? axis.minEvent : Math.floor(axis.toEvent(x0));
  startEvent = Math.max(axis.minEvent, Math.min(axis.maxEvent - 1, startEvent));
  let endEvent = Math.ceil(axis.toEvent(x1));
  endEvent = Math.max(startEvent + 1, Math.min(axis.maxEvent, endEvent));
  return {
    startEvent,
    endEvent,
    columnStartEvents: splitIntoColumns(axis, x0, x1, startEvent, endEvent, columns),
  };
}

/**
 * Events [startEvent, endEvent) split into `columns` equal pixel columns over their x range:
 * columns + 1 start events for layoutTimeline, as eventWindow() splits the visible range.
 */
export function columnStartEvents(
  axis: EventAxis,
  startEvent: number,
  endEvent: number,
  columns: number,
): Int32Array {
  return splitIntoColumns(
    axis,
    axis.toX(startEvent),
    axis.toX(endEvent),
    startEvent,
    endEvent,
    columns,
  );
}

/** Column c of [x0, x1] starts at the first event whose slot starts in it (non-decreasing). */
function splitIntoColumns(
  axis: EventAxis,
  x0: number,
  x1: number,
  startEvent: number,
  endEvent: number,
  columns: number,
): Int32Array {
  const count = Math.max(1, Math.floor(columns));
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
