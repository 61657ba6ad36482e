// An imperative canvas chart made once its elements exist (a layout effect on mount) and
// destroyed on unmount; the effects that feed it data go through the returned ref.

import { useLayoutEffect, useRef, type RefObject } from 'react';

export function useMountedChart<Chart extends { destroy(): void }>(
  create: () => Chart,
): RefObject<Chart | null> {
  const chartRef = useRef<Chart | null>(null);
  useLayoutEffect(() => {
    const chart = create();
    chartRef.current = chart;
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
    // Made once: `create` reads the elements from refs and reaches callbacks through refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return chartRef;
}
