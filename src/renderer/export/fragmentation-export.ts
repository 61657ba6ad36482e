// The fragmentation series an export draws, computed in slices like the chart's own
// (../moment/use-allocator-state.ts): each sample is a whole allocator state, and a large trace's
// few hundred of them must not hold the page at once.

import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import {
  emptyFragmentationSeries,
  fillFragmentationSeries,
  type FragmentationSeries,
} from '@shared/state/fragmentation-series';
import type { Slicing } from './slicing';

export async function slicedFragmentationSeries(
  index: AllocatorStateIndex,
  moments: Int32Array,
  smallHoleThresholdBytes: number,
  slicing: Slicing,
): Promise<FragmentationSeries> {
  const series = emptyFragmentationSeries(moments, smallHoleThresholdBytes);
  let offset = 0;
  while (offset < moments.length) {
    const started = slicing.now();
    do {
      fillFragmentationSeries(series, index, offset, offset + 1);
      offset++;
    } while (offset < moments.length && slicing.now() - started < slicing.sliceMs);
    if (offset < moments.length) await slicing.pause();
  }
  return series;
}
