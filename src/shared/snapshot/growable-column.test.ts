import { describe, expect, it } from 'vitest';
import { float64Column, int32Column } from './growable-column';

describe('GrowableColumn', () => {
  it('keeps every value pushed one by one and in runs, across growths', () => {
    const column = int32Column();
    const expected: number[] = [];
    column.push(7);
    expected.push(7);
    // A run longer than twice the first capacity: grown once to fit, not twice.
    const long = Int32Array.from({ length: 5000 }, (_, i) => i * 3 - 17);
    column.pushAll(long);
    expected.push(...long);
    column.pushAll(new Int32Array(0));
    for (let i = 0; i < 3000; i++) {
      column.push(-i - 1);
      expected.push(-i - 1);
    }
    column.pushAll(long.subarray(10, 20));
    expected.push(...long.subarray(10, 20));
    expect(column.length).toBe(expected.length);
    expect(Array.from(column.values())).toEqual(expected);
  });

  it('a float column takes runs as well', () => {
    const column = float64Column();
    column.pushAll(Float64Array.of(0.5, -1e300, Number.NaN));
    expect(Array.from(column.values())).toEqual([0.5, -1e300, Number.NaN]);
  });
});
