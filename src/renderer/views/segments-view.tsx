// The allocator's segments at the selected moment: one bar per segment, grouped by pool, stream
// and size class, its blocks coloured by state. Hover a block for its figures and stack; click it
// for the details beside the picture (an allocation's block also selects it on the timeline).

import { useLayoutEffect, useMemo, useRef, useState, type JSX } from 'react';
import { shortFrameLabel, topUserFrameIndex } from '@shared/analysis/user-frame';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import {
  figuresByGroup,
  figuresOfState,
  type GroupFigures,
  type MemoryFigures,
} from '@shared/state/memory-figures';
import { formatBytes, formatExactBytes } from '@shared/units';
import type { DeviceView, SnapshotView } from '@shared/view/snapshot-view';
import {
  allocationFacts,
  bytesWithExact,
  describeEvent,
  stackFrames,
  supportingFrames,
} from '../charts/allocation-facts';
import {
  blockAtStateAddress,
  blockFacts,
  blockOfRow,
  type BlockFacts,
} from '../charts/block-facts';
import { groupKey, groupLabel, groupSegments, type SegmentGroup } from '../charts/segment-groups';
import { SegmentsChart, type SegmentsHover, type SegmentsScale } from '../charts/segments-chart';
import type { SegmentsLayout } from '../charts/segments-layout';
import '../charts/segments.css';
import { useStateAt } from './use-allocator-state';

export interface SegmentsViewProps {
  view: SnapshotView;
  device: DeviceView;
  /** Null while the index is being built. */
  stateIndex: AllocatorStateIndex | null;
  moment: number;
  smallHoleThresholdBytes: number;
  /** Row of device.allocations. */
  selectedRow: number | null;
  onSelectRow: (row: number | null) => void;
}

interface LayoutInfo {
  layout: SegmentsLayout;
  padding: { left: number; top: number };
}

const TOOLTIP_FRAMES = 5;
const DETAIL_FRAMES = 12;
const TOOLTIP_OFFSET = 14;

export function SegmentsView(props: SegmentsViewProps): JSX.Element {
  const { view, device, stateIndex, moment, smallHoleThresholdBytes, selectedRow, onSelectRow } =
    props;
  const state = useStateAt(stateIndex, moment);
  const rootRef = useRef<HTMLElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<SegmentsChart | null>(null);
  const pickRef = useRef<(block: number | null) => void>(() => {});
  const [hover, setHover] = useState<SegmentsHover | null>(null);
  const [layoutInfo, setLayoutInfo] = useState<LayoutInfo | null>(null);
  /** A free block the user picked, by address (it may be another block at another moment). */
  const [pickedAddress, setPickedAddress] = useState<number | null>(null);
  const [scale, setScale] = useState<SegmentsScale>('detail');

  const groups = useMemo(() => (state === null ? [] : groupSegments(state.segments)), [state]);
  const totals = useMemo(
    () => (state === null ? null : figuresOfState(state, smallHoleThresholdBytes)),
    [state, smallHoleThresholdBytes],
  );
  const groupFigures = useMemo(() => {
    const byKey = new Map<string, GroupFigures>();
    if (state === null) return byKey;
    for (const figures of figuresByGroup(state, smallHoleThresholdBytes)) {
      byKey.set(groupKey(figures.poolIndex, figures.streamId, figures.segmentType), figures);
    }
    return byKey;
  }, [state, smallHoleThresholdBytes]);

  const selectedBlock = useMemo(() => {
    if (state === null) return null;
    const block =
      selectedRow !== null
        ? blockOfRow(state, selectedRow)
        : pickedAddress !== null
          ? blockAtStateAddress(state, pickedAddress)
          : -1;
    return block < 0 ? null : block;
  }, [state, selectedRow, pickedAddress]);

  useLayoutEffect(() => {
    pickRef.current = (block) => {
      if (state === null || block === null) {
        setPickedAddress(null);
        onSelectRow(null);
        return;
      }
      const row = state.blocks.allocationRow[block]!;
      if (row >= 0) {
        setPickedAddress(null);
        onSelectRow(row);
      } else {
        setPickedAddress(state.blocks.address[block]!);
        onSelectRow(null);
      }
    };
  });

  useLayoutEffect(() => {
    const chart = new SegmentsChart(
      {
        root: rootRef.current!,
        scroll: scrollRef.current!,
        canvas: canvasRef.current!,
        overlay: overlayRef.current!,
      },
      {
        onHover: setHover,
        onPick: (block) => pickRef.current(block),
        onLayout: (layout, padding) => setLayoutInfo({ layout, padding }),
      },
    );
    chartRef.current = chart;
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
  }, []);

  useLayoutEffect(() => {
    if (state !== null) chartRef.current?.setState(state, groups);
  }, [state, groups]);

  useLayoutEffect(() => {
    chartRef.current?.setSelectedBlock(selectedBlock);
  }, [selectedBlock]);

  useLayoutEffect(() => {
    chartRef.current?.setScale(scale);
  }, [scale]);

  // A selection made elsewhere (timeline, table) scrolls its block into view.
  useLayoutEffect(() => {
    if (selectedRow === null || selectedBlock === null) return;
    chartRef.current?.revealBlock(selectedBlock);
  }, [selectedRow, selectedBlock]);

  const selectedFacts =
    state === null || selectedBlock === null ? null : blockFacts(view, state, selectedBlock);
  const hoverFacts = state === null || hover === null ? null : blockFacts(view, state, hover.block);
  const loading = state === null;

  return (
    <section
      ref={rootRef}
      className="seg"
      data-testid="segments-view"
      aria-label={`Segments of cuda:${device.device}`}
      aria-busy={loading}
      data-moment={loading ? undefined : String(state.event)}
      data-segment-count={totals === null ? undefined : String(totals.segmentCount)}
      data-block-count={loading ? undefined : String(state.blocks.count)}
      data-reserved-bytes={totals === null ? undefined : String(totals.reservedBytes)}
      data-active-bytes={totals === null ? undefined : String(totals.activeBytes)}
      data-block-bytes={totals === null ? undefined : String(totals.blockBytes)}
      data-free-bytes={totals === null ? undefined : String(totals.cachedFreeBytes)}
      data-largest-free-bytes={totals === null ? undefined : String(totals.largestFreeBytes)}
      data-free-blocks={totals === null ? undefined : String(totals.freeBlockCount)}
      data-group-count={String(groups.length)}
    >
      <div className="seg-toolbar">
        <ul className="seg-legend" aria-label="Legend">
          <li>
            <span className="seg-swatch seg-swatch-allocated" aria-hidden="true" />
            allocated
          </li>
          <li title="Freed by the program, not yet reusable: the allocator waits for the streams that used it">
            <span className="seg-swatch seg-swatch-pending" aria-hidden="true" />
            pending free
          </li>
          <li title="Free blocks the allocator keeps (reserved but unused)">
            <span className="seg-swatch seg-swatch-free" aria-hidden="true" />
            cached free
          </li>
          <li title="Expandable segments (expandable_segments:True): the bar is the extent mapped at this moment">
            <span className="seg-swatch seg-swatch-expandable" aria-hidden="true" />
            expandable (mapped extent)
          </li>
        </ul>
        <div
          className="segmented seg-scale"
          role="radiogroup"
          aria-label="Scale"
          data-testid="segments-scale"
          data-value={scale}
        >
          <button
            type="button"
            role="radio"
            aria-checked={scale === 'fit'}
            title="Everything in view: thin segments are drawn a pixel wide"
            onClick={() => setScale('fit')}
          >
            Fit
          </button>
          <button
            type="button"
            role="radio"
            aria-checked={scale === 'detail'}
            title="Room for small segments and blocks; scroll for the rest"
            onClick={() => setScale('detail')}
          >
            Detail
          </button>
        </div>
        <div className="seg-totals" aria-live="polite">
          {loading ? (
            <span className="seg-muted">Reconstructing the allocator state…</span>
          ) : (
            <>
              <span>{describeEvent(device, state.event)}</span>
              {totals !== null && (
                <>
                  <span>
                    {formatExactBytes(totals.segmentCount)}{' '}
                    {totals.segmentCount === 1 ? 'segment' : 'segments'}
                  </span>
                  <Bytes label="reserved" bytes={totals.reservedBytes} />
                  <Bytes label="allocated" bytes={totals.blockBytes} />
                  <Bytes label="cached free" bytes={totals.cachedFreeBytes} />
                  <Bytes label="largest hole" bytes={totals.largestFreeBytes} />
                </>
              )}
            </>
          )}
        </div>
      </div>
      {state !== null && state.outsideSegments.length > 0 && (
        <p className="seg-note">
          {formatExactBytes(state.outsideSegments.length)} live{' '}
          {state.outsideSegments.length === 1 ? 'allocation lies' : 'allocations lie'} in no segment
          at this moment (the file disagrees with itself); they are not drawn.
        </p>
      )}
      <div className="seg-body">
        <div className="seg-stage">
          <div
            ref={scrollRef}
            className="seg-scroll"
            role="img"
            aria-label="Segments and their blocks; hover or click a block for its details"
          >
            <div className="seg-sticky">
              <canvas ref={canvasRef} className="seg-canvas" data-testid="segments-canvas" />
              <canvas ref={overlayRef} className="seg-overlay" aria-hidden="true" />
            </div>
            <div
              className="seg-content"
              style={{ height: layoutInfo === null ? 0 : layoutInfo.layout.height }}
            >
              {layoutInfo !== null &&
                state !== null &&
                layoutInfo.layout.groups.map((placed) => {
                  const group = groups[placed.group];
                  if (group === undefined) return null;
                  return (
                    <GroupHeader
                      key={group.key}
                      view={view}
                      group={group}
                      figures={groupFigures.get(group.key) ?? null}
                      top={placed.headerY + layoutInfo.padding.top}
                      left={layoutInfo.padding.left}
                    />
                  );
                })}
            </div>
          </div>
          {!loading && state.segments.length === 0 && (
            <div className="seg-empty">No segments are reserved at this moment.</div>
          )}
          {hover !== null && hoverFacts !== null && (
            <BlockTooltip view={view} device={device} facts={hoverFacts} hover={hover} />
          )}
        </div>
        <BlockDetails
          view={view}
          device={device}
          facts={selectedFacts}
          onClose={() => pickRef.current(null)}
        />
      </div>
    </section>
  );
}

function Bytes(props: { label: string; bytes: number }): JSX.Element {
  return (
    <span title={`${formatExactBytes(props.bytes)} bytes`} data-bytes={String(props.bytes)}>
      {props.label} <strong>{formatBytes(props.bytes)}</strong>
    </span>
  );
}

function GroupHeader(props: {
  view: SnapshotView;
  group: SegmentGroup;
  figures: MemoryFigures | null;
  top: number;
  left: number;
}): JSX.Element {
  const { view, group, figures, top, left } = props;
  return (
    <div
      className="seg-group-header"
      style={{ top, left }}
      data-testid="segments-group"
      data-group={group.key}
      data-segments={String(group.segments.length)}
      data-reserved-bytes={figures === null ? undefined : String(figures.reservedBytes)}
      data-free-bytes={figures === null ? undefined : String(figures.cachedFreeBytes)}
    >
      <span className="seg-group-name">{groupLabel(view, group)}</span>
      {figures !== null && (
        <span className="seg-group-figures">
          <span>
            {formatExactBytes(figures.segmentCount)}{' '}
            {figures.segmentCount === 1 ? 'segment' : 'segments'}
          </span>
          <Bytes label="reserved" bytes={figures.reservedBytes} />
          <Bytes label="allocated" bytes={figures.blockBytes} />
          <Bytes label="cached free" bytes={figures.cachedFreeBytes} />
          <Bytes label="largest hole" bytes={figures.largestFreeBytes} />
          <span data-count={String(figures.freeBlockCount)}>
            {formatExactBytes(figures.freeBlockCount)}{' '}
            {figures.freeBlockCount === 1 ? 'free block' : 'free blocks'}
          </span>
        </span>
      )}
    </div>
  );
}

function sizeText(facts: BlockFacts): string {
  return `${bytesWithExact(facts.sizeBytes)}${facts.sizeIsEstimate ? ' · estimated' : ''}`;
}

function BlockFigures(props: { facts: BlockFacts }): JSX.Element {
  const { facts } = props;
  return (
    <>
      <dt>address</dt>
      <dd className="tl-mono">{facts.address}</dd>
      <dt>size</dt>
      <dd
        data-testid="block-size"
        data-bytes={String(facts.sizeBytes)}
        title={
          facts.sizeIsEstimate
            ? 'Estimated: the allocator’s rounding of the request (the block was gone by the time of the snapshot)'
            : undefined
        }
      >
        {sizeText(facts)}
      </dd>
      {facts.requestedBytes !== null && (
        <>
          <dt>requested</dt>
          <dd data-testid="block-requested" data-bytes={String(facts.requestedBytes)}>
            {bytesWithExact(facts.requestedBytes)}
          </dd>
          <dt>rounding waste</dt>
          <dd data-testid="block-waste" data-bytes={String(facts.wasteBytes)}>
            {bytesWithExact(facts.wasteBytes!)}
            {facts.sizeIsEstimate ? ' · estimated' : ''}
          </dd>
        </>
      )}
    </>
  );
}

function StackLines(props: {
  view: SnapshotView;
  stackId: number;
  limit: number;
  testId: string;
}): JSX.Element {
  const { view, stackId, limit, testId } = props;
  const frames = stackFrames(view, stackId);
  if (frames.length === 0) return <div className="tl-tooltip-muted">no stack recorded</div>;
  const userIndex = topUserFrameIndex(frames);
  const supporting = supportingFrames(frames, userIndex, limit);
  const unlisted = frames.length - 1 - supporting.length;
  return (
    <ol className="tl-tooltip-stack">
      <li className="tl-user-frame" data-testid={testId}>
        {shortFrameLabel(frames[userIndex]!)}
      </li>
      {supporting.map((frame, index) => (
        <li key={index} data-testid={testId}>
          {shortFrameLabel(frame)}
        </li>
      ))}
      {unlisted > 0 && (
        <li className="tl-tooltip-muted">
          … {unlisted} more {unlisted === 1 ? 'frame' : 'frames'}
        </li>
      )}
    </ol>
  );
}

function BlockTooltip(props: {
  view: SnapshotView;
  device: DeviceView;
  facts: BlockFacts;
  hover: SegmentsHover;
}): JSX.Element {
  const { view, device, facts, hover } = props;
  const ref = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const element = ref.current;
    const stage = element?.parentElement;
    if (!element || !stage) return;
    const width = element.offsetWidth;
    const height = element.offsetHeight;
    let left = hover.x + TOOLTIP_OFFSET;
    if (left + width > stage.clientWidth) left = hover.x - TOOLTIP_OFFSET - width;
    left = Math.max(0, Math.min(left, stage.clientWidth - width));
    let top = hover.y + TOOLTIP_OFFSET;
    if (top + height > stage.clientHeight) top = hover.y - TOOLTIP_OFFSET - height;
    top = Math.max(0, Math.min(top, stage.clientHeight - height));
    element.style.left = `${left}px`;
    element.style.top = `${top}px`;
    element.style.visibility = 'visible';
  });

  const stackId =
    facts.allocationRow === null ? null : device.allocations.stackId[facts.allocationRow]!;
  return (
    <div
      ref={ref}
      className="tl-tooltip seg-tooltip"
      role="tooltip"
      data-testid="segments-tooltip"
      data-block={String(facts.block)}
      data-row={facts.allocationRow === null ? undefined : String(facts.allocationRow)}
    >
      <div className="tl-tooltip-title">
        <span>{formatBytes(facts.sizeBytes)}</span>
        <span className="tl-exact">{facts.kind} block</span>
      </div>
      <dl className="tl-facts">
        <BlockFigures facts={facts} />
        <dt>segment</dt>
        <dd>
          {facts.segment.address} · {formatBytes(facts.segment.sizeBytes)}
          {facts.segment.expandable ? ' · expandable' : ''}
        </dd>
      </dl>
      {stackId !== null && (
        <StackLines view={view} stackId={stackId} limit={TOOLTIP_FRAMES} testId="segments-frame" />
      )}
      <div className="tl-tooltip-muted">
        {facts.allocationRow === null ? 'Click to keep it in the details.' : 'Click for details.'}
      </div>
    </div>
  );
}

function BlockDetails(props: {
  view: SnapshotView;
  device: DeviceView;
  facts: BlockFacts | null;
  onClose: () => void;
}): JSX.Element {
  const { view, device, facts, onClose } = props;
  const allocation =
    facts?.allocationRow === null || facts === null
      ? null
      : allocationFacts(view, device, facts.allocationRow);
  return (
    <aside
      className="seg-details"
      data-testid="segment-block-details"
      aria-label="Selected block"
      data-block={facts === null ? undefined : String(facts.block)}
      data-row={facts?.allocationRow == null ? undefined : String(facts.allocationRow)}
      data-kind={facts?.kind}
    >
      {facts === null ? (
        <p className="seg-muted seg-details-empty">
          Click a block for its size, request, rounding waste and stack. Clicking an allocation’s
          block also selects it on the timeline.
        </p>
      ) : (
        <>
          <div className="seg-details-header">
            <h3>
              <span className={`seg-swatch seg-swatch-${swatchOf(facts)}`} aria-hidden="true" />
              {facts.kind === 'cached free'
                ? 'Cached free block'
                : `${capitalize(facts.kind)} block`}
            </h3>
            <button
              type="button"
              className="tl-button"
              onClick={onClose}
              aria-label="Clear the selection"
              title="Clear the selection"
            >
              ✕
            </button>
          </div>
          <dl className="tl-facts seg-details-facts">
            <BlockFigures facts={facts} />
            {allocation !== null && (
              <>
                <dt>allocated</dt>
                <dd>{allocation.allocText}</dd>
                <dt>freed</dt>
                <dd>{allocation.freeText}</dd>
                <dt>stream</dt>
                <dd>{allocation.stream}</dd>
              </>
            )}
            <dt>segment</dt>
            <dd>
              <span className="tl-mono">{facts.segment.address}</span> ·{' '}
              {bytesWithExact(facts.segment.sizeBytes)}
            </dd>
            <dt>at offset</dt>
            <dd>{bytesWithExact(facts.offsetBytes)}</dd>
            <dt>group</dt>
            <dd>
              {facts.segment.pool} · {facts.segment.stream} · {facts.segment.sizeClass}
              {facts.segment.expandable ? ' · expandable' : ''}
            </dd>
            <dt>in segment</dt>
            <dd>
              {formatExactBytes(facts.segment.blockCount)} blocks,{' '}
              {formatExactBytes(facts.segment.freeBlockCount)} free
            </dd>
          </dl>
          {allocation !== null && (
            <>
              <h4 className="seg-details-subheading">Stack</h4>
              <StackLines
                view={view}
                stackId={allocation.stackId}
                limit={DETAIL_FRAMES}
                testId="segment-detail-frame"
              />
              <p className="seg-muted">Selected on the timeline; its panel lists the full stack.</p>
            </>
          )}
        </>
      )}
    </aside>
  );
}

function swatchOf(facts: BlockFacts): string {
  if (facts.kind === 'allocated') return 'allocated';
  if (facts.kind === 'pending free') return 'pending';
  return 'free';
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
