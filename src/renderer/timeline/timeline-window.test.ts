import { describe, expect, it } from 'vitest';
import { createEventAxis } from '@shared/chart/event-axis';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { TimelineWindow } from './timeline-window';

const source = {
  traceLength: 100,
  timeUs: Float64Array.from({ length: 100 }, (_, i) => 1000 + i * 10),
};
const device = source as unknown as AnalyzedDevice;
const other = { traceLength: 40, timeUs: null } as unknown as AnalyzedDevice;

function windowOnEvents(): { window: TimelineWindow; changes: () => number } {
  let changes = 0;
  const window = new TimelineWindow(() => changes++);
  window.setAxis(device, createEventAxis(source, 'event'));
  return { window, changes: () => changes };
}

describe('TimelineWindow', () => {
  it('shows all of a new device, and reports the window in events', () => {
    const { window } = windowOnEvents();
    expect(window.domain).toEqual({ x0: 0, x1: 100 });
    expect(window.isFull()).toBe(true);
    expect(window.info()).toEqual({
      mode: 'event',
      x0: 0,
      x1: 100,
      startEvent: 0,
      endEvent: 100,
      full: true,
    });
  });

  it('zooms about the centre or an anchor, pans, resets, and says so only when it moved', () => {
    const { window, changes } = windowOnEvents();
    window.zoomBy(2);
    expect(window.domain).toEqual({ x0: 25, x1: 75 });
    window.zoomBy(2, 25);
    expect(window.domain).toEqual({ x0: 25, x1: 50 });
    window.panByFraction(0.5);
    expect(window.domain.x0).toBeCloseTo(37.5);
    expect(changes()).toBe(3);
    window.reset();
    expect(window.isFull()).toBe(true);
    window.reset();
    expect(changes()).toBe(4);
  });

  it('never leaves the data nor zooms past the smallest span', () => {
    const { window } = windowOnEvents();
    window.set({ x0: -50, x1: 10 });
    expect(window.domain).toEqual({ x0: 0, x1: 60 });
    window.zoomBy(1000);
    expect(window.domain.x1 - window.domain.x0).toBe(8);
  });

  it('keeps the same events in view when the same device changes axis', () => {
    const { window } = windowOnEvents();
    window.set({ x0: 20, x1: 40 });
    expect(window.setAxis(device, createEventAxis(source, 'time'))).toBe(false);
    const info = window.info()!;
    expect(info.mode).toBe('time');
    expect(info.startEvent).toBeCloseTo(20);
    expect(info.endEvent).toBeCloseTo(40);
    expect(info.x0).toBeCloseTo(200);
  });

  it('shows all of another device, and says the device changed', () => {
    const { window } = windowOnEvents();
    window.set({ x0: 20, x1: 40 });
    expect(window.setAxis(other, createEventAxis(other, 'event'))).toBe(true);
    expect(window.domain).toEqual({ x0: 0, x1: 40 });
  });
});
