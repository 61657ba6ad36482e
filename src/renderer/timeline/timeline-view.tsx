// The memory timeline of one device: stacked allocation bands under the active curve, the
// reserved curve over them, markers, the overview brush and a tooltip. Drawing and input live in
// timeline-chart.ts; this component mounts it, passes props in and renders the DOM parts
// (toolbar, tooltip) that React is good at.

import type { TimelineSearch } from './search-curve';
import { Fragment, useLayoutEffect, useMemo, useRef, useState, type JSX } from 'react';
import { bandColorIndex, NO_STACK_COLOR } from '@shared/chart/band-colors';
import { timelineMarks, type TimelineMarkKind } from '@shared/chart/timeline-marks';
import { FIGURE } from '@shared/format/glossary';
import { describeStack, stackLabel, stackLabelOfStack } from '@shared/analysis/user-frame';
import { shownText } from '@shared/format/shown-text';
import { pairAnnotations } from '@shared/chart/annotation-spans';
import type { TimelineHit } from '@shared/chart/timeline-layout';
import { formatBytes, formatDurationUs, formatExactBytes } from '@shared/format/units';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import {
  allocationFacts,
  bytesWithExact,
  describeEvent,
  shortFrameText,
  stackFrames,
  supportingFrames,
  TOOLTIP_FRAME_CHARS,
} from '../allocations/allocation-facts';
import { TimelineChart, type TimelineDomainInfo, type TimelineHover } from './timeline-chart';
import './timeline.css';
import { AllocationLifetimeRows } from '../allocations/allocation-lifetime-rows';
import { tooltipDetailRows } from '../allocations/detail-rows';
import { allocationDetails } from '@shared/analyzed/allocation-details';
import { countSpansInTrace, traceTimeExtent } from './trace-time-extent';
import { usePlacedTooltip } from '../ui/use-placed-tooltip';
import { useMountedChart } from '../canvas/use-mounted-chart';
import { ColorBySelect } from './color-by';
import { useTab, useTabStore } from '../state/tab-store-context';
import {
  bandColoring,
  colorByFor,
  colorBysOf,
  coloringLegend,
} from '@shared/holders/band-coloring';
import { useCategoryRules } from '../holders/category-rules-setting';
import { ColorLegend } from './color-legend';
import { deviceLabel } from '@shared/format/words';
import type { TrainingStep } from '@shared/steps/find-steps';
import { usePhases } from './use-phases';

export interface TimelineViewProps {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  xMode: 'time' | 'event';
  /** Row of device.allocations. */
  selectedRow: number | null;
  onSelectRow: (row: number | null) => void;
  /** An event index the user clicked, or null. */
  moment: number | null;
  onMoment: (event: number | null) => void;
  /** The visible window changed (zoom, pan, brush, another device or axis). */
  onWindowChange?: (window: TimelineDomainInfo) => void;
  /** What a click does for the view below the timeline, said in the tooltip. */
  clickHint: string;
  /** A search's bytes over time and its matches (the "Who holds it" view's search), or null. */
  search?: TimelineSearch | null;
  /** The training steps found (drawn as a ruler along the bottom); none when absent. */
  steps?: readonly TrainingStep[];
}

const NO_STEPS: readonly TrainingStep[] = [];

/** Frames listed in the tooltip under the top user frame; the panel shows them all. */
const TOOLTIP_FRAMES = 6;

export function TimelineView(props: TimelineViewProps): JSX.Element {
  const { snapshot, device, xMode, selectedRow, moment } = props;
  const rootRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const axesRef = useRef<SVGSVGElement>(null);
  const overviewRef = useRef<HTMLDivElement>(null);
  const overviewCanvasRef = useRef<HTMLCanvasElement>(null);
  const overviewBrushRef = useRef<SVGSVGElement>(null);
  const handlersRef = useRef({
    onSelectRow: props.onSelectRow,
    onMoment: props.onMoment,
    onWindowChange: props.onWindowChange,
  });
  const [hover, setHover] = useState<TimelineHover | null>(null);
  // Zooming re-renders this view only when it flips between the whole trace and a part; the range
  // text follows every frame imperatively (no render of the legend and the toolbar per frame).
  const [zoomed, setZoomed] = useState(false);
  const rangeRef = useRef<HTMLSpanElement>(null);
  const deviceRef = useRef(device);
  const store = useTabStore();
  const colorBy = colorByFor(
    device,
    useTab((state) => state.colorBy),
  );
  const setColorBy = store.getState().setColorBy;
  const { rules } = useCategoryRules();
  const coloring = useMemo(
    () => bandColoring(snapshot, device, colorBy, rules),
    [snapshot, device, colorBy, rules],
  );
  const colorLegend = coloringLegend(coloring);

  const timeExtent = useMemo(() => traceTimeExtent(device.timeUs, device.traceLength), [device]);
  const timesUsable = timeExtent !== null;
  const mode = xMode === 'time' && timesUsable ? 'time' : 'event';

  useLayoutEffect(() => {
    deviceRef.current = device;
    handlersRef.current = {
      onSelectRow: props.onSelectRow,
      onMoment: props.onMoment,
      onWindowChange: props.onWindowChange,
    };
  });

  const chartRef = useMountedChart(
    () =>
      new TimelineChart(
        {
          root: rootRef.current!,
          stage: stageRef.current!,
          canvas: canvasRef.current!,
          overlay: overlayRef.current!,
          axes: axesRef.current!,
          overview: overviewRef.current!,
          overviewCanvas: overviewCanvasRef.current!,
          overviewBrush: overviewBrushRef.current!,
        },
        {
          onHover: setHover,
          onDomain: (info) => {
            setZoomed(!info.full);
            if (rangeRef.current !== null)
              rangeRef.current.textContent = describeDomain(info, deviceRef.current);
            handlersRef.current.onWindowChange?.(info);
          },
          onSelectRow: (row) => handlersRef.current.onSelectRow(row),
          onMoment: (event) => handlersRef.current.onMoment(event),
        },
      ),
  );

  useLayoutEffect(() => {
    chartRef.current?.setData(snapshot, device, mode);
  }, [chartRef, snapshot, device, mode]);

  // The window the tab's store kept (this page shown again after another tab): shown at once.
  useLayoutEffect(() => {
    const kept = store.getState().timelineWindow;
    if (kept !== null && !kept.full) chartRef.current?.showEvents(kept.startEvent, kept.endEvent);
  }, [chartRef, store]);

  useLayoutEffect(() => {
    chartRef.current?.setSelectedRow(selectedRow);
  }, [chartRef, selectedRow]);

  useLayoutEffect(() => {
    chartRef.current?.setMoment(moment);
  }, [chartRef, moment]);

  useLayoutEffect(() => {
    chartRef.current?.setColoring(coloring);
  }, [chartRef, coloring]);

  const steps = props.steps ?? NO_STEPS;
  useLayoutEffect(() => {
    chartRef.current?.setSteps(steps);
  }, [chartRef, steps]);

  const phases = usePhases(snapshot, device);
  useLayoutEffect(() => {
    chartRef.current?.setPhases(phases);
  }, [chartRef, phases]);

  const search = props.search ?? null;
  useLayoutEffect(() => {
    chartRef.current?.setSearch(search);
  }, [chartRef, search]);

  // Annotations that fall inside this device's trace (others are not drawn, so not in the legend).
  // Allocations without a recorded stack are drawn in their own colour: named in the legend.
  const hasUnrecordedStacks = useMemo(
    () => device.allocations.stackId.some((stackId) => bandColorIndex(stackId) === NO_STACK_COLOR),
    [device],
  );
  const annotationCount = useMemo(
    () => countSpansInTrace(pairAnnotations(snapshot.annotations, device.device), timeExtent),
    [snapshot, device, timeExtent],
  );
  const marks = timelineMarks({
    coloring,
    noStack: hasUnrecordedStacks,
    trace: device.traceLength > 0,
    reserved: device.figures.reservedRecorded,
    ooms: device.figures.ooms.length > 0,
    annotations: annotationCount > 0,
    steps: steps.length > 0,
    moment: moment !== null,
    phases: phases.length > 0,
  });

  return (
    <div
      ref={rootRef}
      className="tl"
      data-testid="timeline"
      data-allocations={device.allocations.count}
      data-color-by={colorBy}
      tabIndex={0}
      role="figure"
      aria-label={`Memory timeline of ${deviceLabel(device.device)}. Scroll, + and - or W and S zoom; Shift+scroll, A and D pan; 0 resets; ← and → step the selected moment; ? lists every key.`}
    >
      <div className="tl-toolbar">
        <ul className="tl-legend" aria-label="Legend">
          {marks.map((mark) => (
            <li
              key={mark.kind}
              data-mark={mark.kind}
              data-testid={mark.kind === 'no-stack' ? 'legend-no-stack' : undefined}
              title={mark.title}
            >
              <span
                className={`tl-swatch ${SWATCH_CLASS[mark.kind]}${!coloring.noStackFill && mark.kind === 'no-stack' ? ' tl-swatch-coloured' : ''}`}
                aria-hidden="true"
              />
              {mark.kind === 'bands' ? (
                // The bands' entry holds the colouring toggle: one row of legend and controls
                // leaves the plot its height on a laptop screen. The label stays for readers.
                <>
                  <span className="tl-visually-hidden">{mark.label}</span>
                  <span aria-hidden="true">allocations by</span>
                  <ColorBySelect
                    colorBy={colorBy}
                    options={colorBysOf(device)}
                    onChange={setColorBy}
                  />
                </>
              ) : (
                mark.label
              )}
            </li>
          ))}
        </ul>
        <div className="tl-controls">
          <span ref={rangeRef} className="tl-range" hidden={!zoomed} />
          <span className="tl-help" title={helpText(annotationCount > 0)} aria-hidden="true">
            ?
          </span>
          <span className="tl-button-group">
            <button
              type="button"
              className="tl-button"
              title="Zoom out (-)"
              aria-label="Zoom out"
              onClick={() => chartRef.current?.zoomBy(1 / 1.5)}
              disabled={!zoomed}
            >
              −
            </button>
            <button
              type="button"
              className="tl-button"
              title="Zoom in (+)"
              aria-label="Zoom in"
              onClick={() => chartRef.current?.zoomBy(1.5)}
              disabled={device.traceLength < 2}
            >
              +
            </button>
            <button
              type="button"
              className="tl-button"
              title="Show everything (0)"
              onClick={() => chartRef.current?.resetZoom()}
              disabled={!zoomed}
            >
              Reset
            </button>
          </span>
        </div>
      </div>
      {colorLegend !== null && <ColorLegend name={coloring.name} entries={colorLegend} />}
      {xMode === 'time' && !timesUsable && device.traceLength > 0 && (
        <p className="tl-note">This device records no usable times: x is the event index.</p>
      )}
      {device.traceLength === 0 && (
        <p className="tl-note">
          No trace entries on this device: the chart shows the allocations alive in the snapshot.
        </p>
      )}
      <div ref={stageRef} className="tl-stage">
        <canvas ref={canvasRef} className="tl-canvas" data-testid="timeline-canvas" />
        <canvas ref={overlayRef} className="tl-overlay" aria-hidden="true" />
        <svg ref={axesRef} className="tl-axes" aria-hidden="true" />
        {hover !== null && (
          <TimelineTooltip
            snapshot={snapshot}
            device={device}
            hover={hover}
            clickHint={props.clickHint}
          />
        )}
      </div>
      <div ref={overviewRef} className="tl-overview" title="Drag to choose the visible range">
        <canvas ref={overviewCanvasRef} className="tl-overview-canvas" aria-hidden="true" />
        <svg ref={overviewBrushRef} className="tl-overview-brush" />
      </div>
    </div>
  );
}

/** The legend swatch of each kind of mark (timeline.css). */
const SWATCH_CLASS: Record<TimelineMarkKind, string> = {
  bands: 'tl-swatch-bands',
  'no-stack': 'tl-swatch-no-stack',
  other: 'tl-swatch-other',
  active: 'tl-swatch-active',
  reserved: 'tl-swatch-reserved',
  'peak-reserved': 'tl-swatch-peak-reserved',
  'peak-active': 'tl-swatch-peak',
  oom: 'tl-swatch-oom',
  moment: 'tl-swatch-moment',
  annotations: 'tl-swatch-annotation',
  steps: 'tl-swatch-steps',
  phases: 'tl-swatch-phases',
};

function helpText(hasAnnotations: boolean): string {
  return [
    'Scroll to zoom around the pointer, drag to pan, or brush the strip below.',
    'Keys: + − (W S) zoom, A D (Ctrl+← →) pan, 0 shows everything, ← → step the selected moment, Esc clears the selection; ? lists every key.',
    'Click a band for its details and stack; click elsewhere to list what was alive at that moment.',
    hasAnnotations
      ? 'Amber marks along the top are annotations, named where they are wide enough; hover for the names of all that contain the pointer.'
      : '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

function formatOffsetUs(us: number): string {
  return us <= 0 ? '0' : formatDurationUs(us);
}

function describeDomain(domain: TimelineDomainInfo, device: AnalyzedDevice): string {
  if (device.traceLength === 0) return 'no trace entries';
  if (domain.mode === 'time') return `${formatOffsetUs(domain.x0)} – ${formatOffsetUs(domain.x1)}`;
  const start = Math.max(0, Math.floor(domain.startEvent));
  const end = Math.min(device.traceLength, Math.ceil(domain.endEvent));
  return `events ${formatExactBytes(start)} – ${formatExactBytes(end)} of ${formatExactBytes(device.traceLength)}`;
}

function TimelineTooltip(props: {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  hover: TimelineHover;
  clickHint: string;
}): JSX.Element {
  const { snapshot, device, hover, clickHint } = props;
  const ref = useRef<HTMLDivElement>(null);
  const hit = hover.hit;

  // Placed after measuring: beside the pointer, on whichever side keeps it inside the chart.
  usePlacedTooltip(ref, hover.plotLeft + hover.x, hover.plotTop + hover.y);

  return (
    <div
      ref={ref}
      className="tl-tooltip"
      data-testid="tooltip"
      data-row={hit?.kind === 'allocation' ? hit.row : undefined}
      role="tooltip"
    >
      {hit?.kind === 'allocation' ? (
        <AllocationTooltip snapshot={snapshot} device={device} row={hit.row} />
      ) : (
        <MomentTooltip device={device} hover={hover} hit={hit} clickHint={clickHint} />
      )}
      {hover.phase !== null && (
        <div className="tl-tooltip-phase" data-testid="tooltip-phase" data-phase={hover.phase}>
          <span
            className="tl-phase-swatch"
            style={{ background: `var(--tl-phase-${hover.phase})` }}
            aria-hidden="true"
          />
          {hover.phase} phase
        </div>
      )}
      {hover.annotations.length > 0 && (
        <div className="tl-tooltip-annotations">in {hover.annotations.join(' › ')}</div>
      )}
    </div>
  );
}

function AllocationTooltip(props: {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  row: number;
}): JSX.Element {
  const { snapshot, device, row } = props;
  const facts = allocationFacts(snapshot, device, row);
  const frames = stackFrames(snapshot, facts.stackId);
  // The label's frame, as topUserFrameIndex finds it, from the label computed once per stack.
  const userIndex = stackLabelOfStack(snapshot, facts.stackId)?.index ?? -1;
  const supporting = userIndex < 0 ? [] : supportingFrames(frames, userIndex, TOOLTIP_FRAMES);
  const unlisted = frames.length - 1 - supporting.length;
  // What the newest snapshots record about it (category, forward frames, metadata), one line each.
  const details = tooltipDetailRows(allocationDetails(snapshot, device, row), (stackId) =>
    describeStack(snapshot, stackId),
  );
  return (
    <>
      <div className="tl-tooltip-title">
        <span>{formatBytes(facts.sizeBytes)}</span>
        <span className="tl-exact">{formatExactBytes(facts.sizeBytes)} B requested</span>
      </div>
      <dl className="tl-facts">
        <dt>address</dt>
        <dd className="tl-mono" data-testid="tooltip-address">
          {facts.address}
        </dd>
        {facts.blockSizeBytes !== null && (
          <>
            <dt>rounded</dt>
            <dd>{bytesWithExact(facts.blockSizeBytes)}</dd>
          </>
        )}
        <AllocationLifetimeRows facts={facts} />
        {details.map((detail) => (
          <Fragment key={detail.key}>
            <dt>{detail.label}</dt>
            <dd data-testid={`tooltip-detail-${detail.key}`}>{detail.text}</dd>
          </Fragment>
        ))}
      </dl>
      {frames.length === 0 ? (
        <div className="tl-tooltip-stack tl-tooltip-muted">{FIGURE.noStack}</div>
      ) : (
        <ol className="tl-tooltip-stack">
          <li className="tl-user-frame" data-testid="tooltip-frame">
            {stackLabel(snapshot, facts.stackId)}
          </li>
          {supporting.map((frame, index) => (
            <li key={index} data-testid="tooltip-frame">
              {shownText(shortFrameText(frame), TOOLTIP_FRAME_CHARS)}
            </li>
          ))}
          {unlisted > 0 && (
            <li className="tl-tooltip-muted">
              … {unlisted} more {unlisted === 1 ? 'frame' : 'frames'}; click for the full stack
            </li>
          )}
        </ol>
      )}
    </>
  );
}

function MomentTooltip(props: {
  device: AnalyzedDevice;
  hover: TimelineHover;
  hit: TimelineHit | null;
  clickHint: string;
}): JSX.Element {
  const { device, hover, hit, clickHint } = props;
  const cached = Math.max(0, hover.reservedBytes - hover.activeBytes);
  return (
    <>
      <div className="tl-tooltip-title">
        {hit?.kind === 'other' ? (
          <>
            <span>{formatBytes(hit.bytes)}</span>
            <span className="tl-exact">in {FIGURE.merged}</span>
          </>
        ) : (
          <span>{describeEvent(device, hover.event)}</span>
        )}
      </div>
      <dl className="tl-facts">
        {hit?.kind === 'other' && (
          <>
            <dt>exact</dt>
            <dd>{formatExactBytes(hit.bytes)} B</dd>
            <dt>at</dt>
            <dd>{describeEvent(device, hover.event)}</dd>
          </>
        )}
        <dt>{FIGURE.active}</dt>
        <dd>{bytesWithExact(hover.activeBytes)}</dd>
        {device.figures.reservedRecorded && (
          <>
            <dt>{FIGURE.reserved}</dt>
            <dd>{bytesWithExact(hover.reservedBytes)}</dd>
            <dt>{FIGURE.notActive}</dt>
            <dd>{formatBytes(cached)}</dd>
          </>
        )}
      </dl>
      {hit === null && clickHint !== '' && (
        <div className="tl-tooltip-muted" data-testid="timeline-click-hint">
          {clickHint}
        </div>
      )}
    </>
  );
}
