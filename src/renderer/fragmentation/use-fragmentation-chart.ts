// Mounts the fragmentation canvas chart on the panel's elements and keeps it in step with React:
// the data to draw and the timeline's window. The hovered moment comes back as React state.

import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { FragmentationChart, type FragmentationHover } from './fragmentation-chart';
import type { FragmentationData, FragmentationWindow } from './fragmentation-data';
import { useMountedChart } from '../canvas/use-mounted-chart';

export interface FragmentationChartRefs {
  root: RefObject<HTMLElement | null>;
  stage: RefObject<HTMLDivElement | null>;
  canvas: RefObject<HTMLCanvasElement | null>;
  overlay: RefObject<HTMLCanvasElement | null>;
  axes: RefObject<SVGSVGElement | null>;
}

/** `refs`: the panel's elements the chart draws in and listens to, set by the time it mounts. */
export function useFragmentationChart(
  refs: FragmentationChartRefs,
  data: FragmentationData,
  timelineWindow: FragmentationWindow | null,
  onMoment: (event: number) => void,
): FragmentationHover | null {
  const momentRef = useRef(onMoment);
  const [hover, setHover] = useState<FragmentationHover | null>(null);

  useLayoutEffect(() => {
    momentRef.current = onMoment;
  });

  const chartRef = useMountedChart(
    () =>
      new FragmentationChart(
        {
          root: refs.root.current!,
          stage: refs.stage.current!,
          canvas: refs.canvas.current!,
          overlay: refs.overlay.current!,
          axes: refs.axes.current!,
        },
        { onHover: setHover, onMoment: (event) => momentRef.current(event) },
      ),
  );

  const { device, mode, series, windowSeries, moment, momentFigures } = data;
  useLayoutEffect(() => {
    chartRef.current?.setData({ device, mode, series, windowSeries, moment, momentFigures });
  }, [chartRef, device, mode, series, windowSeries, moment, momentFigures]);

  useLayoutEffect(() => {
    chartRef.current?.setWindow(
      timelineWindow === null
        ? null
        : { mode: timelineWindow.mode, x0: timelineWindow.x0, x1: timelineWindow.x1 },
    );
  }, [chartRef, timelineWindow]);

  return hover;
}
