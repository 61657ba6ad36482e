import { describe, expect, it } from 'vitest';
import { formatEventTick, timeTickFormatter } from './axis-format';

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
