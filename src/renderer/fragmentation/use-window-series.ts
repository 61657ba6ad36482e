// Finer fragmentation samples of the timeline's window while it is zoomed in: computed once the
// window stops moving, and dropped (null) as soon as they no longer match it.

import { useLayoutEffect, useState } from 'react';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import type { FragmentationSeries } from '@shared/state/fragmentation-series';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { windowSamples, zoomedRange } from '@shared/chart/fragmentation-sampling';
import { useFragmentationSeries } from '../moment/use-allocator-state';

const WINDOW_DEBOUNCE_MS = 200;

export function useWindowSeries(
  stateIndex: AllocatorStateIndex | null,
  device: AnalyzedDevice,
  timelineWindow: { startEvent: number; endEvent: number } | null,
  smallHoleThresholdBytes: number,
): FragmentationSeries | null {
  const windowRange = zoomedRange(device, timelineWindow);
  const windowStart = windowRange?.[0] ?? -1;
  const windowEnd = windowRange?.[1] ?? -1;
  const [windowMoments, setWindowMoments] = useState<Int32Array | null>(null);
  useLayoutEffect(() => {
    if (windowStart < 0) return;
    const timer = setTimeout(
      () => setWindowMoments(windowSamples(windowStart, windowEnd)),
      WINDOW_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [windowStart, windowEnd]);
  const zoomed = useFragmentationSeries(
    stateIndex,
    windowStart < 0 ? null : windowMoments,
    smallHoleThresholdBytes,
  );
  return windowStart >= 0 && zoomed.series !== null && zoomed.series.moments === windowMoments
    ? zoomed.series
    : null;
}
