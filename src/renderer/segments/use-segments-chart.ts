// Mounts the segments canvas chart on the view's elements and keeps it in step with React: the
// state and its groups, the scale, the selected block (scrolled into view when chosen
// elsewhere). Hover and layout come back as React state for the tooltip and the group headers.

import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { AllocatorState } from '@shared/state/allocator-state';
import type { SegmentGroup } from './segment-groups';
import { SegmentsChart, type SegmentsHover } from './segments-chart';
import type { SegmentsLayout } from '@shared/chart/segments-layout';
import type { SegmentsScale } from '@shared/chart/segments-scene';
import { useMountedChart } from '../canvas/use-mounted-chart';

export interface SegmentsLayoutInfo {
  layout: SegmentsLayout;
  padding: { left: number; top: number };
}

export interface SegmentsChartInput {
  state: AllocatorState | null;
  groups: SegmentGroup[];
  scale: SegmentsScale;
  selectedBlock: number | null;
  /** Set when the selection is an allocation (made here or elsewhere). */
  selectedRow: number | null;
  /** A click on a block, or between bars (null). */
  onPick: (block: number | null) => void;
}

export interface SegmentsChartRefs {
  root: RefObject<HTMLElement | null>;
  scroll: RefObject<HTMLDivElement | null>;
  canvas: RefObject<HTMLCanvasElement | null>;
  overlay: RefObject<HTMLCanvasElement | null>;
}

/** `refs`: the view's elements the chart draws in and listens to, set by the time it mounts. */
export function useSegmentsChart(
  refs: SegmentsChartRefs,
  input: SegmentsChartInput,
): { hover: SegmentsHover | null; layoutInfo: SegmentsLayoutInfo | null } {
  const { state, groups, scale, selectedBlock, selectedRow, onPick } = input;
  const pickRef = useRef<(block: number | null) => void>(() => {});
  const [hover, setHover] = useState<SegmentsHover | null>(null);
  const [layoutInfo, setLayoutInfo] = useState<SegmentsLayoutInfo | null>(null);

  useLayoutEffect(() => {
    pickRef.current = onPick;
  });

  const chartRef = useMountedChart(
    () =>
      new SegmentsChart(
        {
          root: refs.root.current!,
          scroll: refs.scroll.current!,
          canvas: refs.canvas.current!,
          overlay: refs.overlay.current!,
        },
        {
          onHover: setHover,
          onPick: (block) => pickRef.current(block),
          onLayout: (layout, padding) => setLayoutInfo({ layout, padding }),
        },
      ),
  );

  useLayoutEffect(() => {
    if (state !== null) chartRef.current?.setState(state, groups);
  }, [chartRef, state, groups]);

  useLayoutEffect(() => {
    chartRef.current?.setSelectedBlock(selectedBlock);
  }, [chartRef, selectedBlock]);

  useLayoutEffect(() => {
    chartRef.current?.setScale(scale);
  }, [chartRef, scale]);

  // A selection made elsewhere (timeline, table) scrolls its block into view.
  useLayoutEffect(() => {
    if (selectedRow === null || selectedBlock === null) return;
    chartRef.current?.revealBlock(selectedBlock);
  }, [chartRef, selectedRow, selectedBlock]);

  return { hover, layoutInfo };
}
