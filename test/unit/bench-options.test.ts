import { describe, expect, it } from 'vitest';
import { parseBenchOptions } from '../../bench/bench-options';

describe('bench options', () => {
  it('runs the app benchmark three times per input unless told otherwise', () => {
    expect(parseBenchOptions([], {}).uiRuns).toBe(3);
    expect(parseBenchOptions(['--ui-runs', '5'], {}).uiRuns).toBe(5);
    expect(parseBenchOptions(['--ui-runs=1'], {}).uiRuns).toBe(1);
  });

  it('refuses a run count that is not a small whole number', () => {
    for (const bad of ['0', '2.5', 'x', '21']) {
      expect(() => parseBenchOptions(['--ui-runs', bad], {})).toThrow(/--ui-runs/);
    }
    expect(() => parseBenchOptions(['--ui-runs'], {})).toThrow(/--ui-runs/);
  });
});

describe('--jobs', () => {
  it('asks for the jobs bench: 2 and the cores by default, or the counts given', () => {
    expect(parseBenchOptions([], {}).jobs).toBeNull();
    expect(parseBenchOptions(['--jobs'], {}).jobs).toEqual([]);
    expect(parseBenchOptions(['--jobs=2,4'], {}).jobs).toEqual([2, 4]);
    expect(() => parseBenchOptions(['--jobs=1'], {})).toThrow(/2 to 64/);
    expect(() => parseBenchOptions(['--jobs=two'], {})).toThrow(/2 to 64/);
  });
});

describe('--page-memory', () => {
  it('asks for the page bench alone, on the sizes given', () => {
    expect(parseBenchOptions([], {}).pageMemory).toBe(false);
    const options = parseBenchOptions(['--page-memory', '--only', '6GB'], {});
    expect(options.pageMemory).toBe(true);
    expect(options.sizes).toEqual([{ label: '6GB', bytes: 6e9 }]);
  });
});
