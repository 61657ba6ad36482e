import { describe, expect, it } from 'vitest';
import { xAxisTicks } from './x-axis-ticks';

describe('xAxisTicks', () => {
  it('labels every time tick in the unit of its step', () => {
    const ticks = xAxisTicks('time', [0, 500_000, 1_000_000, 1_500_000], 0, 1_600_000, 10);
    expect(ticks.values).toEqual([0, 500_000, 1_000_000, 1_500_000]);
    expect(ticks.values.map(ticks.format)).toEqual(['0', '0.5 s', '1.0 s', '1.5 s']);
  });

  it('falls back to the shown span as the step of a single time tick', () => {
    const ticks = xAxisTicks('time', [2000], 0, 4000, 10);
    expect(ticks.format(2000)).toBe('2 ms');
  });

  it('labels whole events only, grouped', () => {
    const ticks = xAxisTicks('event', [0, 0.5, 1, 1.5, 2000], 0, 2000, 2001);
    expect(ticks.values).toEqual([0, 1, 2000]);
    expect(ticks.format(2000)).toBe('2,000');
  });

  it('labels nothing on the axis of an empty trace', () => {
    expect(xAxisTicks('event', [-1, -0.5, 0], -1, 0, 0).values).toEqual([]);
  });
});
