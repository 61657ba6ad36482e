import { precisionFixed as d3PrecisionFixed } from 'd3';
import { describe, expect, it } from 'vitest';
import { formatEventTick, precisionFixed, timeTickFormatter } from './axis-format';

describe('timeTickFormatter', () => {
  it('picks the unit of the step and just enough decimals', () => {
    const seconds = timeTickFormatter(500_000, 1_500_000);
    expect([0, 500_000, 1_000_000, 1_500_000].map(seconds)).toEqual([
      '0',
      '0.5 s',
      '1.0 s',
      '1.5 s',
    ]);
    expect(timeTickFormatter(2_000_000)(4_000_000)).toBe('4 s');
    expect(timeTickFormatter(50_000, 950_000)(150_000)).toBe('150 ms');
    expect(timeTickFormatter(200, 1_400)(1_400)).toBe('1.4 ms');
    expect(timeTickFormatter(200, 800)(400)).toBe('400 µs');
    expect(timeTickFormatter(2_000, 14_000)(14_000)).toBe('14 ms');
    // Zoomed far in late in a long trace: seconds, with the decimals of the step.
    expect(timeTickFormatter(20, 17_490_120)(17_490_100)).toBe('17.49010 s');
    expect(timeTickFormatter(20)(140)).toBe('140 µs');
    expect(timeTickFormatter(0.5)(1.5)).toBe('1.5 µs');
  });

  it('labels ticks from the first event to the end of a window', () => {
    const labels = (step: number, max: number): string[] =>
      [0, step, 2 * step, max].map(timeTickFormatter(step, max));
    expect(labels(0.5, 3)).toEqual(['0', '0.5 µs', '1.0 µs', '3.0 µs']);
    expect(labels(20_000, 300_000)).toEqual(['0', '20 ms', '40 ms', '300 ms']);
    expect(labels(100_000, 1_500_000)).toEqual(['0', '0.1 s', '0.2 s', '1.5 s']);
    // A step of 2.5 s needs no decimals by d3's count, so its labels round.
    expect(labels(2_500_000, 10_000_000)).toEqual(['0', '3 s', '5 s', '10 s']);
  });

  it('copes with a missing step', () => {
    expect(timeTickFormatter(0)(3)).toBe('3 µs');
    expect(timeTickFormatter(NaN)(3)).toBe('3 µs');
  });
});

describe('formatEventTick', () => {
  it('groups digits', () => {
    expect(formatEventTick(12_345)).toBe('12,345');
    expect(formatEventTick(0)).toBe('0');
  });
});

describe('precisionFixed', () => {
  it('counts decimals as d3-format does, float noise included', () => {
    for (const step of [
      1,
      10,
      0.5,
      0.1,
      0.25,
      0.001,
      0.3 - 0.2,
      1e-7,
      123.456,
      0.020000000000000004,
      2e-5,
      999.99,
    ])
      expect(precisionFixed(step)).toBe(d3PrecisionFixed(step));
    expect(precisionFixed(0)).toBe(0);
    expect(precisionFixed(NaN)).toBe(0);
  });
});
