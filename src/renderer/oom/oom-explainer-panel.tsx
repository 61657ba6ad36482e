// Why the allocation failed: for each `oom` entry of the device the request, what CUDA and
// PyTorch held then, the largest hole where the request would go, the live allocations by stack,
// and a verdict in plain words. A trace without an OOM gets the same figures at the active peak.

import { FIGURE, figureLabel } from '@shared/format/glossary';
import { Fragment, useMemo, useState, type JSX } from 'react';
import { allocationsAliveAt } from '@shared/analysis/allocation-table';
import { deviceExplanationsOf } from '@shared/oom/oom-explainer';
import type { OomExplanation, OomHolder } from '@shared/oom/oom-explanation';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { NO_STACK_TEXT, segmentGroupName } from '@shared/format/words';
import { describeEvent } from '../allocations/allocation-facts';
import { OomHolesChart } from './oom-holes-chart';
import './oom-explainer.css';

export interface OomExplainerPanelProps {
  snapshot: AnalyzedSnapshot;
  /** Index into snapshot.devices. */
  deviceIndex: number;
  stateIndex: AllocatorStateIndex;
  /** "Show on timeline": move the moment to this event. */
  onGoToEvent: (event: number) => void;
  /** Clicking a holder also selects its largest allocation alive then, where the page allows. */
  onSelectRow?: (row: number) => void;
}

export function OomExplainerPanel(props: OomExplainerPanelProps): JSX.Element | null {
  const { snapshot, deviceIndex, stateIndex, onGoToEvent, onSelectRow } = props;
  const device = snapshot.devices[deviceIndex];
  const explanations = useMemo(
    () => (device === undefined ? null : deviceExplanationsOf(snapshot, deviceIndex, stateIndex)),
    [snapshot, deviceIndex, stateIndex, device],
  );
  const [chosen, setChosen] = useState(0);
  if (device === undefined || explanations === null) return null;

  const { ooms, peak } = explanations;
  const index = Math.min(chosen, Math.max(0, ooms.length - 1));
  const explanation = ooms[index] ?? peak;
  if (explanation === null) return null;
  const isWhatIf = ooms.length === 0;

  const selectHolder = (stackId: number): void => {
    onGoToEvent(explanation.event);
    if (onSelectRow === undefined) return;
    const row = largestRowOfStack(device, explanation.event, stackId);
    if (row !== null) onSelectRow(row);
  };

  return (
    <section
      className={`oom-panel${isWhatIf ? ' oom-panel-what-if' : ''}`}
      data-testid="oom-explainer"
      data-verdict={explanation.verdict}
      data-event={explanation.event}
      data-oom-count={ooms.length}
      aria-label={isWhatIf ? 'What if: memory at the active peak' : 'Why the allocation failed'}
    >
      <header className="oom-header">
        <h3 className="oom-title">
          {isWhatIf ? (
            <>What if: no OOM in this trace; at the active peak…</>
          ) : (
            <>
              Out of memory
              {ooms.length > 1 ? ` (${index + 1} of ${ooms.length})` : ''}
            </>
          )}
          <span className="oom-when"> {describeEvent(device, explanation.event)}</span>
        </h3>
        <div className="oom-actions">
          {ooms.length > 1 && (
            <select
              data-testid="oom-select"
              aria-label="Which out-of-memory event"
              value={String(index)}
              onChange={(event) => setChosen(Number(event.target.value))}
            >
              {ooms.map((oom, i) => (
                <option key={i} value={String(i)}>
                  OOM {i + 1}: {oom.requestedBytes === null ? '?' : formatBytes(oom.requestedBytes)}{' '}
                  at event {formatExactBytes(oom.event)}
                </option>
              ))}
            </select>
          )}
          <button
            type="button"
            className="button button-compact"
            data-testid="oom-show-on-timeline"
            onClick={() => onGoToEvent(explanation.event)}
          >
            Show on timeline
          </button>
        </div>
      </header>

      <p className="oom-verdict" data-testid="oom-verdict" data-verdict={explanation.verdict}>
        {explanation.verdictText}
      </p>

      <OomFigures explanation={explanation} />

      <OomHolesChart
        snapshot={snapshot}
        device={device}
        explanation={explanation}
        stateIndex={stateIndex}
      />

      <OomHolders holders={explanation.holders} isWhatIf={isWhatIf} onSelect={selectHolder} />
    </section>
  );
}

/** The largest allocation of `stackId` alive after `event`, or null. */
export function largestRowOfStack(
  device: AnalyzedDevice,
  event: number,
  stackId: number,
): number | null {
  const table = device.allocations;
  for (const row of allocationsAliveAt(table, event)) {
    if (table.stackId[row] === stackId) return row;
  }
  return null;
}

function OomFigures(props: { explanation: OomExplanation }): JSX.Element {
  const { explanation: e } = props;
  const where = segmentGroupName(e.pool, e.stream, e.segmentType);
  const rounded =
    e.requestedBytes !== null &&
    e.roundedRequestBytes !== null &&
    e.roundedRequestBytes !== e.requestedBytes
      ? `rounded to ${formatBytes(e.roundedRequestBytes)} (${formatExactBytes(e.roundedRequestBytes)} B)`
      : null;
  return (
    <dl className="oom-figures" data-testid="oom-figures">
      {e.requestedBytes !== null && (
        <BytesFigure
          label="Requested"
          testId="oom-requested"
          bytes={e.requestedBytes}
          note={rounded}
        />
      )}
      {e.roundedRequestBytes !== null && (
        <BytesFigure label="Rounded request" testId="oom-rounded" bytes={e.roundedRequestBytes} />
      )}
      <BytesFigure
        label="Free on the device (CUDA)"
        testId="oom-device-free"
        bytes={e.deviceFreeBytes}
        note={e.deviceFreeBytes === null ? 'not recorded' : null}
      />
      <BytesFigure label="Reserved by PyTorch" testId="oom-reserved" bytes={e.reservedBytes} />
      <BytesFigure label={figureLabel(FIGURE.active)} testId="oom-active" bytes={e.activeBytes} />
      <BytesFigure
        label="Of which cached free"
        testId="oom-cached-free"
        bytes={e.cachedFreeBytes}
        note="reserved but holding no tensor"
      />
      <BytesFigure
        label="Largest free block"
        testId="oom-largest-free"
        bytes={e.largestFreeBytes}
        note="anywhere in the reserve"
      />
      <BytesFigure
        label="Free where the request goes"
        testId="oom-pool-cached-free"
        bytes={e.poolCachedFreeBytes}
        note={where}
      />
      <BytesFigure
        label="Largest free block there"
        testId="oom-pool-largest-free"
        bytes={e.poolLargestFreeBytes}
        note={where}
      />
      <div className="oom-figure">
        <dt>Expandable segments</dt>
        <dd data-testid="oom-expandable" data-value={String(e.expandableSegments)}>
          {e.expandableSegments ? 'on' : 'off'}
        </dd>
      </div>
    </dl>
  );
}

function BytesFigure(props: {
  label: string;
  testId: string;
  bytes: number | null;
  note?: string | null;
}): JSX.Element {
  const { label, testId, bytes, note } = props;
  return (
    <div className="oom-figure">
      <dt>{label}</dt>
      <dd
        data-testid={testId}
        data-bytes={bytes === null ? undefined : String(bytes)}
        title={bytes === null ? undefined : `${formatExactBytes(bytes)} bytes`}
      >
        <span className="oom-figure-value">{bytes === null ? '—' : formatBytes(bytes)}</span>
        {bytes !== null && <span className="oom-exact">{formatExactBytes(bytes)} B</span>}
        {note && <span className="oom-note">{note}</span>}
      </dd>
    </div>
  );
}

/** Holders listed; the rest are summed in one line. */
const HOLDERS_SHOWN = 12;

function OomHolders(props: {
  holders: readonly OomHolder[];
  isWhatIf: boolean;
  /** Show this stack's largest allocation alive then. */
  onSelect: (stackId: number) => void;
}): JSX.Element {
  const { holders, isWhatIf, onSelect } = props;
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const toggle = (stackId: number): void =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(stackId)) next.add(stackId);
      return next;
    });
  const shown = holders.slice(0, HOLDERS_SHOWN);
  const rest = holders.slice(HOLDERS_SHOWN);
  const restBytes = rest.reduce((sum, holder) => sum + holder.bytes, 0);
  const restCount = rest.reduce((sum, holder) => sum + holder.count, 0);
  return (
    <div className="oom-holders">
      <h4 className="oom-subtitle">
        Live allocations {isWhatIf ? 'at the peak' : 'when it failed'}, by top user frame
      </h4>
      {holders.length === 0 ? (
        <p className="oom-empty">No allocations were alive.</p>
      ) : (
        <table data-testid="oom-holders">
          <thead>
            <tr>
              <th scope="col">Top user frame</th>
              <th scope="col" className="numeric">
                Bytes
              </th>
              <th scope="col" className="numeric">
                Allocations
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((holder) => {
              const open = expanded.has(holder.stackId);
              const several = holder.stacks.length > 1;
              return (
                <Fragment key={holder.stackId}>
                  <tr
                    data-testid="oom-holder"
                    data-stack={holder.stackId}
                    data-bytes={String(holder.bytes)}
                    data-stacks={holder.stacks.length}
                    tabIndex={0}
                    title="Show on the timeline"
                    onClick={() => onSelect(holder.stackId)}
                    onKeyDown={(event) => {
                      if (event.key === 'Enter' || event.key === ' ') {
                        event.preventDefault();
                        onSelect(holder.stackId);
                      }
                    }}
                  >
                    <td className="frame" title={holder.topFrame ?? undefined}>
                      {several && (
                        <button
                          type="button"
                          className="oom-holder-toggle"
                          data-testid="oom-holder-toggle"
                          aria-expanded={open}
                          title={open ? 'Hide the stacks' : 'Show the stacks through this line'}
                          onClick={(event) => {
                            event.stopPropagation();
                            toggle(holder.stackId);
                          }}
                        >
                          {open ? '▾' : '▸'} {holder.stacks.length} stacks
                        </button>
                      )}
                      {holder.topFrame ?? NO_STACK_TEXT}
                    </td>
                    <td className="numeric" title={`${formatExactBytes(holder.bytes)} B`}>
                      {formatBytes(holder.bytes)}
                    </td>
                    <td className="numeric">{formatExactBytes(holder.count)}</td>
                  </tr>
                  {open &&
                    holder.stacks.map((stack) => (
                      <tr
                        key={stack.stackId}
                        className="oom-holder-stack"
                        data-testid="oom-holder-stack"
                        data-stack={stack.stackId}
                        data-bytes={String(stack.bytes)}
                        title="Show on the timeline"
                        onClick={() => onSelect(stack.stackId)}
                      >
                        <td className="frame">
                          {stack.via === null ? `stack #${stack.stackId}` : `via ${stack.via}`}
                        </td>
                        <td className="numeric" title={`${formatExactBytes(stack.bytes)} B`}>
                          {formatBytes(stack.bytes)}
                        </td>
                        <td className="numeric">{formatExactBytes(stack.count)}</td>
                      </tr>
                    ))}
                </Fragment>
              );
            })}
            {rest.length > 0 && (
              <tr className="oom-holders-rest">
                <td>
                  {formatExactBytes(rest.length)} more {rest.length === 1 ? 'line' : 'lines'}
                </td>
                <td className="numeric" title={`${formatExactBytes(restBytes)} B`}>
                  {formatBytes(restBytes)}
                </td>
                <td className="numeric">{formatExactBytes(restCount)}</td>
              </tr>
            )}
          </tbody>
        </table>
      )}
    </div>
  );
}
