import { describe, expect, it } from 'vitest';
import { createEventAxis } from './event-axis';
import type { FragmentationSeries } from '../state/fragmentation-series';
import type { MemoryFigures } from '../state/memory-figures';
import { testDevice } from '../../../test/support/builders/analyzed-device';
import {
  cachedAt,
  cachedColumns,
  largestDrawnBytes,
  samplePoints,
  stepXs,
} from './fragmentation-points';

// testDevice: reserved 4096, 8192, 8192, 8192 over active 3048, 3048, 3560, 1512 (baselines
// 4096 and 1000).
const device = testDevice();

function series(moments: number[], largest: number[], small: number[], reserved: number[]) {
  const floats = (values: number[]): Float64Array => Float64Array.from(values);
  return {
    moments: Int32Array.from(moments),
    reservedBytes: floats(reserved),
    activeBytes: floats(moments.map(() => 0)),
    cachedFreeBytes: floats(moments.map(() => 0)),
    largestFreeBytes: floats(largest),
    smallFreeBytes: floats(small),
    internalWasteBytes: floats(largest.map((value) => value / 2)),
    freeBlockCount: floats(moments.map(() => 1)),
    smallHoleThresholdBytes: 512,
  } satisfies FragmentationSeries;
}

describe('cachedAt', () => {
  it('is reserved − active after the event, the baselines before the trace', () => {
    expect(cachedAt(device, -1)).toBe(4096 - 1000);
    expect(cachedAt(device, 0)).toBe(4096 - 3048);
    expect(cachedAt(device, 3)).toBe(8192 - 1512);
    expect(cachedAt(device, 99)).toBe(8192 - 1512);
  });
});

describe('cachedColumns', () => {
  it('keeps the largest value of each column', () => {
    const axis = createEventAxis(device, 'event');
    // Two columns over events 0..4: [0, 2) and [2, 4).
    expect(Array.from(cachedColumns(device, axis, 0, 4, 2))).toEqual([8192 - 3048, 8192 - 1512]);
  });

  it('holds the final state across an empty trace', () => {
    const empty = { ...device, traceLength: 0 };
    const axis = createEventAxis(empty, 'event');
    expect(Array.from(cachedColumns(empty, axis, -1, 0, 3))).toEqual([3096, 3096, 3096]);
  });
});

describe('samplePoints', () => {
  const xOfMoment = (moment: number): number => moment * 10;
  const data = {
    series: series([0, 2, 4, 6], [100, 200, 300, 400], [0, 50, 0, 0], [1000, 1000, 0, 1000]),
    windowSeries: null,
    moment: 3,
    momentFigures: {
      largestFreeBytes: 250,
      internalWasteBytes: 7,
      smallFreeBytes: 20,
      reservedBytes: 100,
    } as MemoryFigures,
  };

  it('places the samples and the moment’s own figures in moment order', () => {
    const points = samplePoints(data, xOfMoment, -100, 100);
    expect(points.map((point) => point.moment)).toEqual([0, 2, 3, 4, 6]);
    expect(points[1]).toEqual({ moment: 2, x: 20, largest: 200, waste: 100, smallShare: 0.05 });
    expect(points[2]).toEqual({ moment: 3, x: 30, largest: 250, waste: 7, smallShare: 0.2 });
    // No reserved memory, no share.
    expect(points[3]!.smallShare).toBe(0);
  });

  it('keeps one point either side of the visible range', () => {
    const points = samplePoints(data, xOfMoment, 25, 35);
    expect(points.map((point) => point.moment)).toEqual([2, 3, 4]);
  });

  it('prefers the window’s finer samples', () => {
    const finer = { ...data, windowSeries: series([1], [9], [0], [10]), momentFigures: null };
    expect(samplePoints(finer, xOfMoment, -100, 100).map((point) => point.moment)).toEqual([1]);
  });
});

describe('largestDrawnBytes', () => {
  it('covers the cached columns and the sampled figures', () => {
    const points = [{ moment: 0, x: 0, largest: 70, waste: 90, smallShare: 0 }];
    expect(largestDrawnBytes(Float64Array.from([10, 80]), points)).toBe(90);
    expect(largestDrawnBytes(Float64Array.from([10, 80]), [])).toBe(80);
  });
});

describe('stepXs', () => {
  const point = (moment: number, x: number) => ({ moment, x, largest: 0, waste: 0, smallShare: 0 });

  it('keeps xs just outside the plot and starts the trace’s first moment at the axis’s left end', () => {
    const points = [point(-1, 5), point(3, 50), point(9, 500)];
    expect(stepXs(points, 100, { moment: -1, x: 0 })).toEqual([0, 50, 102]);
    // A window that starts later leaves the first point where it is.
    expect(stepXs(points.slice(1), 100, { moment: -1, x: 0 })).toEqual([50, 102]);
  });
});
