// The pane sizes of a snapshot page (pane-sizes.ts) in React: measures the page's body, reads and
// remembers the user's choices, and clamps them to what fits now.

import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';
import {
  lowerHeight,
  maxLowerHeight,
  maxSideWidth,
  pageStorage,
  readPaneSize,
  sideWidth,
  writePaneSize,
  LOWER_MIN_PX,
  SIDE_MIN_PX,
  type PaneSizeKey,
} from './pane-sizes';

export interface PaneSizes {
  /** Whether the body was measured (before that the sizes are the defaults of a 0 px body). */
  measured: boolean;
  lowerHeight: number;
  lowerMin: number;
  lowerMax: number;
  sideWidth: number;
  sideMin: number;
  sideMax: number;
  bodyWidth: number;
  bodyHeight: number;
  setLowerHeight(value: number | null): void;
  setSideWidth(value: number | null): void;
}

function useRememberedSize(key: PaneSizeKey): [number | null, (value: number | null) => void] {
  const [chosen, setChosen] = useState(() => readPaneSize(pageStorage(), key));
  const choose = useCallback(
    (value: number | null) => {
      setChosen(value);
      writePaneSize(pageStorage(), key, value);
    },
    [key],
  );
  return [chosen, choose];
}

/**
 * `chartPane` holds the timeline: its height less its plot's (the canvas) is the room the chart's
 * own rows take, which the default sizes leave on top of the plot's height.
 */
export function usePaneSizes(
  body: RefObject<HTMLElement | null>,
  chartPane: RefObject<HTMLElement | null>,
): PaneSizes {
  const [box, setBox] = useState<{ width: number; height: number } | null>(null);
  const [chartChrome, setChartChrome] = useState<number | null>(null);
  const [chosenLower, setLowerHeight] = useRememberedSize('lowerHeight');
  const [chosenSide, setSideWidth] = useRememberedSize('sideWidth');

  useLayoutEffect(() => {
    const element = body.current;
    if (element === null) return;
    const measure = (): void => {
      const { width, height } = element.getBoundingClientRect();
      setBox((previous) =>
        previous !== null && previous.width === width && previous.height === height
          ? previous
          : { width, height },
      );
    };
    measure(); // before the first paint: no flash of default sizes
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [body]);

  useLayoutEffect(() => {
    const pane = chartPane.current;
    const plot = pane?.querySelector<HTMLElement>('[data-testid="timeline-canvas"]');
    if (!pane || !plot) return;
    const measure = (): void => {
      const plotHeight = plot.getBoundingClientRect().height;
      if (plotHeight <= 0) return;
      const chrome = Math.round(pane.getBoundingClientRect().height - plotHeight);
      setChartChrome((previous) => (previous === chrome ? previous : chrome));
    };
    // Before the first paint too: the chart then lays out and draws once, at its final size (a
    // size settled later by the observer alone costs a second full draw right after opening).
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(pane);
    observer.observe(plot);
    return () => observer.disconnect();
  }, [chartPane]);

  const width = box?.width ?? 0;
  const height = box?.height ?? 0;
  return {
    measured: box !== null,
    lowerHeight: lowerHeight(chosenLower, height, chartChrome),
    lowerMin: LOWER_MIN_PX,
    lowerMax: maxLowerHeight(height, chartChrome),
    sideWidth: sideWidth(chosenSide, width),
    sideMin: SIDE_MIN_PX,
    sideMax: maxSideWidth(width),
    bodyWidth: width,
    bodyHeight: height,
    setLowerHeight,
    setSideWidth,
  };
}
