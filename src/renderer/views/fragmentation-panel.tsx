// Fragmentation of one device: curves on the timeline's x axis (reserved − active, the largest
// free block, internal waste, the share of reserved memory in small holes), and the figures at
// the selected moment and at the active peak, in total and per pool, stream and size class.

import { useLayoutEffect, useMemo, useRef, useState, type JSX } from 'react';
import type { XMode } from '@shared/chart/event-axis';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import { sampleMoments } from '@shared/state/fragmentation-series';
import {
  figuresByGroup,
  figuresOfState,
  type GroupFigures,
  type MemoryFigures,
} from '@shared/state/memory-figures';
import { formatBytes, formatExactBytes } from '@shared/units';
import type { DeviceView, SnapshotView } from '@shared/view/snapshot-view';
import { describeEvent } from '../charts/allocation-facts';
import {
  cachedAt,
  FragmentationChart,
  type FragmentationHover,
  type FragmentationWindow,
} from '../charts/fragmentation-chart';
import '../charts/fragmentation.css';
import { groupKey, groupLabel } from '../charts/segment-groups';
import { useFragmentationSeries, useStateAt } from './use-allocator-state';

export interface FragmentationPanelProps {
  view: SnapshotView;
  device: DeviceView;
  stateIndex: AllocatorStateIndex | null;
  moment: number;
  smallHoleThresholdBytes: number;
  xMode: XMode;
  /** The timeline's visible window (x units of its axis), or null for the whole trace. */
  timelineWindow: (FragmentationWindow & { startEvent: number; endEvent: number }) | null;
  onMoment: (event: number) => void;
}

/** Samples over the whole trace, and over a zoomed window. */
const FULL_SAMPLES = 600;
const WINDOW_SAMPLES = 300;
/** A window this small a part of the trace gets its own, finer samples. */
const ZOOM_FRACTION = 0.5;
const WINDOW_DEBOUNCE_MS = 200;

export function FragmentationPanel(props: FragmentationPanelProps): JSX.Element {
  const {
    view,
    device,
    stateIndex,
    moment,
    smallHoleThresholdBytes,
    xMode,
    timelineWindow,
    onMoment,
  } = props;
  const peak = device.summary.active_bytes.peak_event_index;
  const rootRef = useRef<HTMLElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const axesRef = useRef<SVGSVGElement>(null);
  const chartRef = useRef<FragmentationChart | null>(null);
  const momentRef = useRef(onMoment);
  const [hover, setHover] = useState<FragmentationHover | null>(null);

  useLayoutEffect(() => {
    momentRef.current = onMoment;
  });

  const fullMoments = useMemo(
    () =>
      sampleMoments(device.traceLength, FULL_SAMPLES, [
        peak,
        ...device.ooms.map((o) => o.eventIndex),
      ]),
    [device, peak],
  );
  const full = useFragmentationSeries(stateIndex, fullMoments, smallHoleThresholdBytes);

  // A zoomed timeline gets finer samples of its window, once it stops moving.
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
  const windowSeries =
    windowStart >= 0 && zoomed.series !== null && zoomed.series.moments === windowMoments
      ? zoomed.series
      : null;

  const momentState = useStateAt(stateIndex, moment);
  const peakState = useStateAt(stateIndex, peak);
  const momentFigures = useMemo(
    () => (momentState === null ? null : figuresOfState(momentState, smallHoleThresholdBytes)),
    [momentState, smallHoleThresholdBytes],
  );
  const peakFigures = useMemo(
    () => (peakState === null ? null : figuresOfState(peakState, smallHoleThresholdBytes)),
    [peakState, smallHoleThresholdBytes],
  );
  const momentGroups = useMemo(
    () => (momentState === null ? [] : figuresByGroup(momentState, smallHoleThresholdBytes)),
    [momentState, smallHoleThresholdBytes],
  );
  const peakGroups = useMemo(
    () => (peakState === null ? [] : figuresByGroup(peakState, smallHoleThresholdBytes)),
    [peakState, smallHoleThresholdBytes],
  );

  useLayoutEffect(() => {
    const chart = new FragmentationChart(
      {
        root: rootRef.current!,
        stage: stageRef.current!,
        canvas: canvasRef.current!,
        overlay: overlayRef.current!,
        axes: axesRef.current!,
      },
      { onHover: setHover, onMoment: (event) => momentRef.current(event) },
    );
    chartRef.current = chart;
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
  }, []);

  useLayoutEffect(() => {
    chartRef.current?.setData({
      device,
      mode: xMode,
      series: full.series,
      windowSeries,
      moment,
      momentFigures,
    });
  }, [device, xMode, full.series, windowSeries, moment, momentFigures]);

  useLayoutEffect(() => {
    chartRef.current?.setWindow(
      timelineWindow === null
        ? null
        : { mode: timelineWindow.mode, x0: timelineWindow.x0, x1: timelineWindow.x1 },
    );
  }, [timelineWindow]);

  const computing = stateIndex === null || full.series === null;
  return (
    <section
      ref={rootRef}
      className="frag"
      data-testid="fragmentation-panel"
      aria-label={`Fragmentation of cuda:${device.device}`}
      data-series={computing ? 'computing' : 'ready'}
      data-threshold-bytes={String(smallHoleThresholdBytes)}
    >
      <div className="frag-toolbar">
        <ul className="frag-legend" aria-label="Legend">
          <li title="Reserved minus active bytes after every event (exact)">
            <span className="frag-swatch frag-swatch-cached" aria-hidden="true" />
            reserved − active
          </li>
          <li title="The largest free block of any segment (sampled moments)">
            <span className="frag-swatch frag-swatch-largest" aria-hidden="true" />
            largest free block
          </li>
          <li title="Σ (block size − requested size) of live blocks (sampled moments)">
            <span className="frag-swatch frag-swatch-waste" aria-hidden="true" />
            internal waste
          </li>
          <li
            title={`Share of reserved bytes in free blocks smaller than ${bytesTitle(smallHoleThresholdBytes)}, the size half of all requested bytes come in (lower pane)`}
          >
            <span className="frag-swatch frag-swatch-small" aria-hidden="true" />
            small holes (&lt; {formatBytes(smallHoleThresholdBytes)}) % of reserved
          </li>
        </ul>
        <span className="frag-status" aria-live="polite">
          {computing
            ? full.total > 0
              ? `Sampling the allocator state… ${Math.round((full.done / full.total) * 100)}%`
              : 'Sampling the allocator state…'
            : hover !== null
              ? hoverText(device, hover.event)
              : `${formatExactBytes(full.series!.moments.length)} sampled ${
                  full.series!.moments.length === 1 ? 'moment' : 'moments'
                }${
                  windowSeries !== null
                    ? ` (+${formatExactBytes(windowSeries.moments.length)} in view)`
                    : ''
                } · click to select a moment`}
        </span>
      </div>
      <div ref={stageRef} className="frag-stage">
        <canvas ref={canvasRef} className="frag-canvas" data-testid="fragmentation-canvas" />
        <canvas ref={overlayRef} className="frag-overlay" aria-hidden="true" />
        <svg ref={axesRef} className="frag-axes" aria-hidden="true" />
      </div>
      <FiguresTables
        view={view}
        device={device}
        moment={moment}
        peak={peak}
        momentFigures={momentFigures}
        peakFigures={peakFigures}
        momentGroups={momentGroups}
        peakGroups={peakGroups}
      />
    </section>
  );
}

function zoomedRange(
  device: DeviceView,
  window: FragmentationPanelProps['timelineWindow'],
): [number, number] | null {
  if (window === null || device.traceLength < 2) return null;
  const start = Math.max(0, Math.floor(window.startEvent));
  const end = Math.min(device.traceLength, Math.ceil(window.endEvent));
  if (end - start >= device.traceLength * ZOOM_FRACTION) return null;
  return [start, end];
}

function windowSamples(start: number, end: number): Int32Array {
  const span = Math.max(1, end - start);
  const count = Math.min(WINDOW_SAMPLES, span);
  const picked = new Set<number>();
  for (let i = 0; i < count; i++)
    picked.add(start + Math.round((i * (span - 1)) / Math.max(1, count - 1)));
  if (start > 0) picked.add(start - 1);
  return Int32Array.from([...picked].sort((a, b) => a - b));
}

function hoverText(device: DeviceView, event: number): string {
  return `${describeEvent(device, event)} · reserved − active ${formatBytes(cachedAt(device, event))}`;
}

function bytesTitle(bytes: number): string {
  return `${formatBytes(bytes)} (${formatExactBytes(bytes)} B)`;
}

type Metric =
  | 'reserved'
  | 'active'
  | 'cached-free'
  | 'largest-free'
  | 'free-blocks'
  | 'internal-waste'
  | 'small-holes';

const METRICS: {
  key: Metric;
  label: string;
  title: string;
  count?: boolean;
  value: (figures: MemoryFigures) => number;
}[] = [
  {
    key: 'reserved',
    label: 'Reserved',
    title: 'Σ segment sizes: what PyTorch holds from CUDA',
    value: (f) => f.reservedBytes,
  },
  {
    key: 'active',
    label: 'Active',
    title: 'Σ requested bytes of live (and pending-free) allocations',
    value: (f) => f.activeBytes,
  },
  {
    key: 'cached-free',
    label: 'Cached free',
    title: 'Σ free blocks: reserved but unused (external fragmentation)',
    value: (f) => f.cachedFreeBytes,
  },
  {
    key: 'largest-free',
    label: 'Largest free block',
    title: 'The largest request that could be served without asking CUDA for more',
    value: (f) => f.largestFreeBytes,
  },
  {
    key: 'free-blocks',
    label: 'Free blocks',
    title: 'How many free blocks the segments hold',
    count: true,
    value: (f) => f.freeBlockCount,
  },
  {
    key: 'internal-waste',
    label: 'Internal waste',
    title: 'Σ (block size − requested size): rounding inside allocated blocks',
    value: (f) => f.internalWasteBytes,
  },
  {
    key: 'small-holes',
    label: 'In small holes',
    title: 'Σ free blocks smaller than a common request size',
    value: (f) => f.smallFreeBytes,
  },
];

function FigureCell(props: {
  figures: MemoryFigures | null;
  metric: (typeof METRICS)[number];
  testId?: string;
}): JSX.Element {
  const { figures, metric, testId } = props;
  if (figures === null) return <td className="numeric frag-muted">…</td>;
  const value = metric.value(figures);
  if (metric.count) {
    return (
      <td className="numeric" data-testid={testId} data-count={String(value)}>
        {formatExactBytes(value)}
      </td>
    );
  }
  return (
    <td
      className="numeric"
      data-testid={testId}
      data-bytes={String(value)}
      title={`${formatExactBytes(value)} bytes`}
    >
      {formatBytes(value)}
    </td>
  );
}

function FiguresTables(props: {
  view: SnapshotView;
  device: DeviceView;
  moment: number;
  peak: number;
  momentFigures: MemoryFigures | null;
  peakFigures: MemoryFigures | null;
  momentGroups: GroupFigures[];
  peakGroups: GroupFigures[];
}): JSX.Element {
  const { view, device, moment, peak, momentFigures, peakFigures, momentGroups, peakGroups } =
    props;
  return (
    <div
      className="frag-figures"
      data-testid="fragmentation-figures"
      data-moment={String(moment)}
      data-peak={String(peak)}
    >
      <table className="frag-table frag-totals">
        <thead>
          <tr>
            <th scope="col">Total</th>
            <th scope="col" className="numeric" title={describeEvent(device, moment)}>
              Selected moment
              <span className="frag-sub">{describeEvent(device, moment)}</span>
            </th>
            <th scope="col" className="numeric" title={describeEvent(device, peak)}>
              Active peak
              <span className="frag-sub">{describeEvent(device, peak)}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {METRICS.map((metric) => (
            <tr key={metric.key}>
              <th scope="row" title={metric.title}>
                {metric.label}
              </th>
              <FigureCell
                figures={momentFigures}
                metric={metric}
                testId={`frag-moment-${metric.key}`}
              />
              <FigureCell
                figures={peakFigures}
                metric={metric}
                testId={`frag-peak-${metric.key}`}
              />
            </tr>
          ))}
        </tbody>
      </table>
      <GroupTable
        view={view}
        when="moment"
        title="By pool, stream and size class — selected moment"
        groups={momentGroups}
      />
      <GroupTable
        view={view}
        when="peak"
        title="By pool, stream and size class — active peak"
        groups={peakGroups}
      />
    </div>
  );
}

const GROUP_METRICS = METRICS.filter((metric) => metric.key !== 'small-holes');

function GroupTable(props: {
  view: SnapshotView;
  when: 'moment' | 'peak';
  title: string;
  groups: GroupFigures[];
}): JSX.Element {
  const { view, when, title, groups } = props;
  return (
    <table className="frag-table frag-groups" data-testid={`frag-groups-${when}`}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">Group</th>
          {GROUP_METRICS.map((metric) => (
            <th key={metric.key} scope="col" className="numeric" title={metric.title}>
              {metric.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {groups.length === 0 && (
          <tr>
            <td colSpan={GROUP_METRICS.length + 1} className="frag-muted">
              No segments at this moment.
            </td>
          </tr>
        )}
        {groups.map((group) => {
          const key = groupKey(group.poolIndex, group.streamId, group.segmentType);
          return (
            <tr key={key} data-testid="frag-group-row" data-when={when} data-group={key}>
              <th scope="row">{groupLabel(view, group)}</th>
              {GROUP_METRICS.map((metric) => (
                <FigureCell key={metric.key} figures={group} metric={metric} />
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
