import { describe, expect, it } from 'vitest';
import {
  columnStartEvents,
  createEventAxis,
  eventAtX,
  eventWindow,
  hasUsableTimes,
  lastEventAtOrBefore,
  momentCoordinate,
} from './event-axis';
import { relativeTimes } from '../analyzed/device-times';

const times = (values: number[]): Float64Array => Float64Array.from(values);

describe('event mode', () => {
  it('is the identity over [0, length]', () => {
    const axis = createEventAxis({ traceLength: 100, timeUs: null }, 'event');
    expect(axis).toMatchObject({ mode: 'event', minEvent: 0, maxEvent: 100, minX: 0, maxX: 100 });
    expect(axis.toX(42.5)).toBe(42.5);
    expect(axis.toEvent(42.5)).toBe(42.5);
    expect(eventAtX(axis, 42.9)).toBe(42);
    expect(eventAtX(axis, 100)).toBe(99);
    expect(eventAtX(axis, -3)).toBe(0);
  });

  it('shows an empty trace as the one slot before it', () => {
    const axis = createEventAxis({ traceLength: 0, timeUs: null }, 'time');
    expect(axis).toMatchObject({ mode: 'event', minEvent: -1, maxEvent: 0, minSpan: 1 });
    expect(eventAtX(axis, -0.5)).toBe(-1);
  });

  it('is what time mode falls back to without usable times', () => {
    expect(createEventAxis({ traceLength: 3, timeUs: null }, 'time').mode).toBe('event');
    const flat = { traceLength: 3, timeUs: times([5, 5, 5]) };
    expect(hasUsableTimes(flat)).toBe(false);
    expect(createEventAxis(flat, 'time').mode).toBe('event');
    const nan = { traceLength: 2, timeUs: times([NaN, NaN]) };
    expect(createEventAxis(nan, 'time').mode).toBe('event');
  });
});

describe('time mode', () => {
  // Events at 1000, 1010, 1010, 1040 µs: relative 0, 10, 10, 40; the last slot ends one mean gap later.
  const source = { traceLength: 4, timeUs: times([1000, 1010, 1010, 1040]) };
  const axis = createEventAxis(source, 'time');

  it('measures microseconds since the first event', () => {
    expect(relativeTimes(source.timeUs, 4)).toEqual(times([0, 10, 10, 40, 50]));
    expect(axis).toMatchObject({ mode: 'time', minX: 0, maxX: 50, minEvent: 0, maxEvent: 4 });
  });

  it('maps events to times and back', () => {
    expect(axis.toX(0)).toBe(0);
    expect(axis.toX(1)).toBe(10);
    expect(axis.toX(0.5)).toBe(5);
    expect(axis.toX(3)).toBe(40);
    expect(axis.toX(4)).toBe(50);
    expect(axis.toEvent(5)).toBe(0.5);
    expect(axis.toEvent(50)).toBe(4);
    for (const x of [0, 3, 9.99, 10, 25, 40, 49]) expect(axis.toX(axis.toEvent(x))).toBeCloseTo(x);
  });

  it('shows the state after the last of several events that share a time', () => {
    expect(eventAtX(axis, 10)).toBe(2);
    expect(eventAtX(axis, 12)).toBe(2);
    expect(eventAtX(axis, 9.9)).toBe(0);
    expect(eventAtX(axis, 45)).toBe(3);
  });

  it('makes decreasing times non-decreasing', () => {
    expect(relativeTimes(times([100, 90, 120]), 3)).toEqual(times([0, 0, 20, 20 + 20 / 3]));
  });

  it('builds the relative times of a column once, per length asked for', () => {
    const column = times([100, 110, 150, 160]);
    const whole = relativeTimes(column, 4);
    // The axis and the annotation lane share one array (a pass over 4M events each otherwise).
    expect(relativeTimes(column, 4)).toBe(whole);
    expect(relativeTimes(column, 2)).toEqual(times([0, 10, 10 + 10 / 2]));
    expect(relativeTimes(column, 4)).toEqual(times([0, 10, 50, 60, 60 + 60 / 4]));
    // An equal column elsewhere is another column.
    expect(relativeTimes(times([100, 110, 150, 160]), 4)).not.toBe(whole);
  });

  it('finds the last event at or before a time by binary search', () => {
    const t = times([0, 10, 10, 40, 50]);
    expect(lastEventAtOrBefore(t, 4, -1)).toBe(0);
    expect(lastEventAtOrBefore(t, 4, 10)).toBe(2);
    expect(lastEventAtOrBefore(t, 4, 39)).toBe(2);
    expect(lastEventAtOrBefore(t, 4, 1000)).toBe(3);
  });
});

describe('eventWindow', () => {
  it('splits the visible events into columns by where their slots start', () => {
    const axis = createEventAxis({ traceLength: 10, timeUs: null }, 'event');
    const window = eventWindow(axis, 0, 10, 5);
    expect(window.startEvent).toBe(0);
    expect(window.endEvent).toBe(10);
    expect([...window.columnStartEvents]).toEqual([0, 2, 4, 6, 8, 10]);
  });

  it('includes the event under the left edge and leaves columns empty when zoomed in', () => {
    const axis = createEventAxis({ traceLength: 10, timeUs: null }, 'event');
    const window = eventWindow(axis, 2.5, 4.5, 4);
    expect(window.startEvent).toBe(2);
    expect(window.endEvent).toBe(5);
    expect([...window.columnStartEvents]).toEqual([2, 3, 4, 4, 5]);
  });

  it('is non-decreasing, starts and ends on the window in time mode', () => {
    const times = new Float64Array(1000);
    for (let i = 0; i < 1000; i++) times[i] = 1e6 + Math.floor(i / 7) * 13 + (i % 3);
    const axis = createEventAxis({ traceLength: 1000, timeUs: times }, 'time');
    for (const [x0, x1] of [
      [axis.minX, axis.maxX],
      [100, 900],
      [axis.maxX - 20, axis.maxX],
    ] as const) {
      const window = eventWindow(axis, x0, x1, 97);
      const starts = window.columnStartEvents;
      expect(starts.length).toBe(98);
      expect(starts[0]).toBe(window.startEvent);
      expect(starts[97]).toBe(window.endEvent);
      for (let c = 1; c < starts.length; c++)
        expect(starts[c]!).toBeGreaterThanOrEqual(starts[c - 1]!);
      expect(window.endEvent).toBeGreaterThan(window.startEvent);
    }
    // From the left end the window starts at event 0 even though events 0..6 share a time.
    expect(eventWindow(axis, 0, 100, 10).startEvent).toBe(0);
  });

  it('covers the single slot of an empty trace', () => {
    const axis = createEventAxis({ traceLength: 0, timeUs: null }, 'event');
    const window = eventWindow(axis, -1, 0, 3);
    expect(window).toMatchObject({ startEvent: -1, endEvent: 0 });
    expect([...window.columnStartEvents]).toEqual([-1, 0, 0, 0]);
  });
});

describe('columnStartEvents', () => {
  it('splits events [start, end) into the columns eventWindow gives their x range', () => {
    const times = new Float64Array(1000);
    for (let i = 0; i < 1000; i++) times[i] = 1e6 + Math.floor(i / 7) * 13 + (i % 3);
    for (const mode of ['time', 'event'] as const) {
      const axis = createEventAxis({ traceLength: 1000, timeUs: times }, mode);
      expect(axis.mode).toBe(mode);
      const whole = eventWindow(axis, axis.minX, axis.maxX, 333);
      expect(columnStartEvents(axis, whole.startEvent, whole.endEvent, 333)).toEqual(
        whole.columnStartEvents,
      );
    }
    const axis = createEventAxis({ traceLength: 1000, timeUs: null }, 'event');
    const part = eventWindow(axis, 120, 480, 50);
    expect(part).toMatchObject({ startEvent: 120, endEvent: 480 });
    expect(columnStartEvents(axis, 120, 480, 50)).toEqual(part.columnStartEvents);
  });

  it('gives one column at least', () => {
    const axis = createEventAxis({ traceLength: 10, timeUs: null }, 'event');
    expect([...columnStartEvents(axis, 2, 6, 0)]).toEqual([2, 6]);
    expect([...columnStartEvents(axis, 0, 10, 5)]).toEqual([0, 2, 4, 6, 8, 10]);
  });
});

describe('momentCoordinate', () => {
  it('marks a moment in the middle of its slot on an event axis, clamped to the axis', () => {
    const axis = createEventAxis({ traceLength: 10, timeUs: null }, 'event');
    expect(momentCoordinate(axis, 3)).toBe(3.5);
    expect(momentCoordinate(axis, -1)).toBe(0.5);
    expect(momentCoordinate(axis, 42)).toBe(9.5);
  });

  it('marks a moment at its own time on a time axis', () => {
    const axis = createEventAxis({ traceLength: 3, timeUs: times([10, 20, 40]) }, 'time');
    expect(momentCoordinate(axis, 1)).toBe(1);
    expect(momentCoordinate(axis, 7)).toBe(2);
  });
});
