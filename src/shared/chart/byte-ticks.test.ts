import { describe, expect, it } from 'vitest';
import { binaryStepBytes, byteTicks, byteUnitIndex } from './byte-ticks';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

describe('byteTicks', () => {
  it('steps by powers of two in the unit of the maximum', () => {
    const ticks = byteTicks(8.5 * GiB, 5);
    expect(ticks.stepBytes).toBe(2 * GiB);
    expect(ticks.values).toEqual([0, 2 * GiB, 4 * GiB, 6 * GiB, 8 * GiB]);
    expect(ticks.values.map(ticks.format)).toEqual(['0', '2 GiB', '4 GiB', '6 GiB', '8 GiB']);
  });

  it('writes fractional steps with exactly the decimals they need', () => {
    const ticks = byteTicks(3.2 * GiB, 6);
    expect(ticks.stepBytes).toBe(512 * MiB);
    expect(ticks.values.map(ticks.format)).toEqual([
      '0',
      '0.5 GiB',
      '1 GiB',
      '1.5 GiB',
      '2 GiB',
      '2.5 GiB',
      '3 GiB',
    ]);
  });

  it('uses the smaller unit just above a unit boundary', () => {
    const ticks = byteTicks(1.2 * GiB, 5);
    expect(ticks.stepBytes).toBe(256 * MiB);
    expect(ticks.values.map(ticks.format)).toEqual([
      '0',
      '256 MiB',
      '512 MiB',
      '768 MiB',
      '1024 MiB',
    ]);
  });

  it('every step is a power of two and the tick count stays near the target', () => {
    for (const max of [1, 1000, 5 * KiB, 217_763_364, 84_202_749_952, 3 * 1024 ** 4]) {
      for (const target of [2, 4, 6, 10]) {
        const { stepBytes, values } = byteTicks(max, target);
        expect(Number.isInteger(Math.log2(stepBytes))).toBe(true);
        expect(values[0]).toBe(0);
        expect(values.at(-1)!).toBeLessThanOrEqual(max);
        expect(values.at(-1)! + stepBytes).toBeGreaterThan(max);
        if (max >= target) expect(Math.abs(values.length - 1 - target)).toBeLessThanOrEqual(target);
      }
    }
  });

  it('labels below one KiB in bytes, and survives zero, negative and non-finite maxima', () => {
    const small = byteTicks(700, 4);
    expect(small.values.map(small.format)).toEqual([
      '0',
      '128 B',
      '256 B',
      '384 B',
      '512 B',
      '640 B',
    ]);
    for (const max of [0, -5, NaN, Infinity]) {
      const ticks = byteTicks(max, 5);
      expect(ticks.values).toEqual([0]);
      expect(ticks.format(0)).toBe('0');
    }
  });
});

describe('binaryStepBytes', () => {
  it('prefers the larger step on a tie', () => {
    // 73.6 GiB with 3 ticks: 16 GiB gives 4, 32 GiB gives 2; both one away.
    expect(binaryStepBytes(73.6 * GiB, 3)).toBe(32 * GiB);
  });
});

describe('byteUnitIndex', () => {
  it('picks the largest power of 1024 not above the value', () => {
    expect(byteUnitIndex(0)).toBe(0);
    expect(byteUnitIndex(1023)).toBe(0);
    expect(byteUnitIndex(1024)).toBe(1);
    expect(byteUnitIndex(GiB - 1)).toBe(2);
    expect(byteUnitIndex(GiB)).toBe(3);
  });
});

describe('byteTicks on device-sized maxima', () => {
  it('labels every tick in one binary unit', () => {
    const labels = (max: number, count: number): string[] => {
      const ticks = byteTicks(max, count);
      return ticks.values.map(ticks.format);
    };
    expect(labels(0, 5)).toEqual(['0']);
    expect(labels(1000, 4)).toEqual(['0', '256 B', '512 B', '768 B']);
    expect(labels(78.4 * GiB, 18)).toEqual(
      Array.from({ length: 20 }, (_, i) => (i === 0 ? '0' : `${4 * i} GiB`)),
    );
    // Nearby maxima get the same ticks as the cases above.
    expect(labels(3 * GiB, 8)).toEqual(labels(3.2 * GiB, 6));
    expect(labels(1.1 * GiB, 5)).toEqual(labels(1.2 * GiB, 5));
  });
});
