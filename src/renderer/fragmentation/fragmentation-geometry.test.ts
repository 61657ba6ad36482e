import { describe, expect, it } from 'vitest';
import { createEventAxis } from '@shared/chart/event-axis';
import { sameWindow, splitPanes, visibleDomain } from './fragmentation-geometry';

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
