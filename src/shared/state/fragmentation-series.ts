// Fragmentation over time: the figures of the allocator state at sampled moments. Each sample is a
// full state (O(segments + live allocations)), so callers choose how many (a few hundred per
// chart width) and always include the moments users look at: the peak, OOMs, the selection.

import type { AllocatorStateIndex } from './allocator-state';
import { figuresOfState } from './memory-figures';

export interface FragmentationSeries {
  /** Moments sampled (the state after each event), ascending. */
  moments: Int32Array;
  reservedBytes: Float64Array;
  activeBytes: Float64Array;
  cachedFreeBytes: Float64Array;
  largestFreeBytes: Float64Array;
  smallFreeBytes: Float64Array;
  internalWasteBytes: Float64Array;
  freeBlockCount: Float64Array;
  smallHoleThresholdBytes: number;
}

/** `count` evenly spaced moments over -1 .. traceLength - 1 plus `include`, sorted and unique. */
export function sampleMoments(
  traceLength: number,
  count: number,
  include: readonly number[],
): Int32Array {
  const last = traceLength - 1;
  const picked = new Set<number>();
  const steps = Math.max(1, Math.min(count, traceLength + 1));
  for (let i = 0; i < steps; i++) {
    picked.add(steps === 1 ? last : Math.round(-1 + ((last + 1) * i) / (steps - 1)));
  }
  for (const moment of include) {
    if (Number.isInteger(moment) && moment >= -1 && moment <= last) picked.add(moment);
  }
  return Int32Array.from([...picked].sort((a, b) => a - b));
}

export function fragmentationSeries(
  index: AllocatorStateIndex,
  moments: Int32Array,
  smallHoleThresholdBytes: number,
): FragmentationSeries {
  const series = emptyFragmentationSeries(moments, smallHoleThresholdBytes);
  fillFragmentationSeries(series, index, 0, moments.length);
  return series;
}

/** A series with room for every moment and nothing computed yet (all zeros). */
export function emptyFragmentationSeries(
  moments: Int32Array,
  smallHoleThresholdBytes: number,
): FragmentationSeries {
  const n = moments.length;
  return {
    moments,
    reservedBytes: new Float64Array(n),
    activeBytes: new Float64Array(n),
    cachedFreeBytes: new Float64Array(n),
    largestFreeBytes: new Float64Array(n),
    smallFreeBytes: new Float64Array(n),
    internalWasteBytes: new Float64Array(n),
    freeBlockCount: new Float64Array(n),
    smallHoleThresholdBytes,
  };
}

/** Computes the figures of moments [from, to) in place, so callers can spread the work out. */
export function fillFragmentationSeries(
  series: FragmentationSeries,
  index: AllocatorStateIndex,
  from: number,
  to: number,
): void {
  for (let i = from; i < to; i++) {
    const figures = figuresOfState(
      index.stateAt(series.moments[i]!),
      series.smallHoleThresholdBytes,
    );
    series.reservedBytes[i] = figures.reservedBytes;
    series.activeBytes[i] = figures.activeBytes;
    series.cachedFreeBytes[i] = figures.cachedFreeBytes;
    series.largestFreeBytes[i] = figures.largestFreeBytes;
    series.smallFreeBytes[i] = figures.smallFreeBytes;
    series.internalWasteBytes[i] = figures.internalWasteBytes;
    series.freeBlockCount[i] = figures.freeBlockCount;
  }
}
