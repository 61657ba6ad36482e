// The allocator's segments at the selected moment: one bar per segment, grouped by pool, stream
// and size class, its blocks coloured by state. Hover a block for its figures and stack; click it
// for the details beside the picture (an allocation's block also selects it on the timeline).

import { useMemo, useRef, useState, type JSX } from 'react';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import { figuresByGroup, figuresOfState, type GroupFigures } from '@shared/state/memory-figures';
import { formatExactBytes } from '@shared/format/units';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { blockFacts } from './block-facts';
import { byGroupKey, groupSegments } from './segment-groups';
import './segments.css';
import { BlockDetails } from './block-details';
import { BlockTooltip } from './block-tooltip';
import { SegmentsGroupHeader } from './segments-group-header';
import { pickOfBlock, selectedBlockOf } from './segments-selection';
import { SegmentsToolbar } from './segments-toolbar';
import { useStateAt } from '../moment/use-allocator-state';
import { useTab, useTabStore } from '../state/tab-store-context';
import { useSegmentsChart } from './use-segments-chart';
import { deviceLabel } from '@shared/format/words';

export interface SegmentsViewProps {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  /** Null while the index is being built. */
  stateIndex: AllocatorStateIndex | null;
  moment: number;
  smallHoleThresholdBytes: number;
  /** Row of device.allocations. */
  selectedRow: number | null;
  onSelectRow: (row: number | null) => void;
}

export function SegmentsView(props: SegmentsViewProps): JSX.Element {
  const {
    snapshot,
    device,
    stateIndex,
    moment,
    smallHoleThresholdBytes,
    selectedRow,
    onSelectRow,
  } = props;
  const state = useStateAt(stateIndex, moment);
  const rootRef = useRef<HTMLElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  /** A free block the user picked, by address (it may be another block at another moment). */
  const [pickedAddress, setPickedAddress] = useState<number | null>(null);
  const scale = useTab((state) => state.segmentsScale);
  const setScale = useTabStore().getState().setSegmentsScale;

  const groups = useMemo(() => (state === null ? [] : groupSegments(state.segments)), [state]);
  const totals = useMemo(
    () => (state === null ? null : figuresOfState(state, smallHoleThresholdBytes)),
    [state, smallHoleThresholdBytes],
  );
  const groupFigures = useMemo(
    () =>
      state === null
        ? new Map<string, GroupFigures>()
        : byGroupKey(figuresByGroup(state, smallHoleThresholdBytes)),
    [state, smallHoleThresholdBytes],
  );
  const selectedBlock = useMemo(
    () => (state === null ? null : selectedBlockOf(state, selectedRow, pickedAddress)),
    [state, selectedRow, pickedAddress],
  );

  const pick = (block: number | null): void => {
    const { row, address } = pickOfBlock(state, block);
    setPickedAddress(address);
    onSelectRow(row);
  };
  const { hover, layoutInfo } = useSegmentsChart(
    { root: rootRef, scroll: scrollRef, canvas: canvasRef, overlay: overlayRef },
    {
      state,
      groups,
      scale,
      selectedBlock,
      selectedRow,
      onPick: pick,
    },
  );

  const selectedFacts =
    state === null || selectedBlock === null ? null : blockFacts(snapshot, state, selectedBlock);
  const hoverFacts =
    state === null || hover === null ? null : blockFacts(snapshot, state, hover.block);
  const loading = state === null;

  return (
    <section
      ref={rootRef}
      className="seg"
      data-testid="segments-view"
      aria-label={`Segments of ${deviceLabel(device.device)}`}
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
      <SegmentsToolbar
        device={device}
        state={state}
        totals={totals}
        scale={scale}
        onScale={setScale}
      />
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
                    <SegmentsGroupHeader
                      key={group.key}
                      snapshot={snapshot}
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
            <BlockTooltip snapshot={snapshot} device={device} facts={hoverFacts} hover={hover} />
          )}
        </div>
        <BlockDetails
          snapshot={snapshot}
          device={device}
          facts={selectedFacts}
          onClose={() => pick(null)}
        />
      </div>
    </section>
  );
}
