import { describe, expect, it } from 'vitest';
import { createEventAxis } from './event-axis';
import { testDevice } from '../../../test/support/builders/analyzed-device';
import {
  fragmentationByteScale,
  fragmentationMarkerEvents,
  sameWindow,
  splitPanes,
  visibleDomain,
} from './fragmentation-layout';

describe('splitPanes', () => {
  it('gives the share pane about 30% below a 12 px gap', () => {
    expect(splitPanes(212)).toEqual({
      bytesTop: 0,
      bytesHeight: 140,
      shareTop: 152,
      shareHeight: 60,
    });
  });

  it('keeps both panes at least 16 px tall', () => {
    const panes = splitPanes(30);
    expect(panes.bytesHeight).toBe(16);
    expect(panes.shareTop).toBe(28);
    expect(panes.shareHeight).toBe(2);
  });
});

describe('visibleDomain', () => {
  const axis = createEventAxis({ traceLength: 100, timeUs: null }, 'event');

  it('follows the timeline’s window on the same axis, within the trace', () => {
    expect(visibleDomain(axis, { mode: 'event', x0: 10, x1: 20 })).toEqual({ x0: 10, x1: 20 });
    expect(visibleDomain(axis, { mode: 'event', x0: -5, x1: 120 })).toEqual({ x0: 0, x1: 100 });
  });

  it('shows the whole trace without a window, on another axis or for an empty one', () => {
    expect(visibleDomain(axis, null)).toEqual({ x0: 0, x1: 100 });
    expect(visibleDomain(axis, { mode: 'time', x0: 10, x1: 20 })).toEqual({ x0: 0, x1: 100 });
    expect(visibleDomain(axis, { mode: 'event', x0: 20, x1: 20 })).toEqual({ x0: 0, x1: 100 });
  });
});

describe('sameWindow', () => {
  it('compares windows by value', () => {
    expect(sameWindow(null, null)).toBe(true);
    expect(sameWindow({ mode: 'event', x0: 1, x1: 2 }, { mode: 'event', x0: 1, x1: 2 })).toBe(true);
    expect(sameWindow({ mode: 'event', x0: 1, x1: 2 }, { mode: 'time', x0: 1, x1: 2 })).toBe(false);
    expect(sameWindow({ mode: 'event', x0: 1, x1: 2 }, null)).toBe(false);
  });
});

describe('fragmentationByteScale', () => {
  it('puts the largest figure under the top, with room above it, on binary ticks', () => {
    const max = 3 * 1024 ** 3 + 5;
    const { ticks, top } = fragmentationByteScale(max, 140);
    expect(top).toBeGreaterThanOrEqual(max * 1.08);
    expect(ticks.values[0]).toBe(0);
    for (const value of ticks.values) expect(value % ticks.stepBytes).toBe(0);
    expect(ticks.values.at(-1)!).toBeLessThanOrEqual(top);
  });

  it('keeps a scale for an empty chart', () => {
    expect(fragmentationByteScale(0, 100).top).toBe(1);
  });
});

describe('fragmentationMarkerEvents', () => {
  it('marks the active peak and every OOM', () => {
    const device = testDevice();
    const withOoms = {
      ...device,
      ooms: [{ eventIndex: 2 }, { eventIndex: 3 }] as unknown as typeof device.ooms,
    };
    expect(fragmentationMarkerEvents(withOoms)).toEqual([
      { event: device.figures.active.peakEventIndex, kind: 'peak-active' },
      { event: 2, kind: 'oom' },
      { event: 3, kind: 'oom' },
    ]);
  });
});
