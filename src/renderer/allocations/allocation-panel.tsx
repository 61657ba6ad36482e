// Everything known about one allocation: its figures and its full stack, with framework frames
// optionally hidden and the stack copyable as text.

import { useMemo, useState, type JSX } from 'react';
import { topUserFrameIndex } from '@shared/analysis/user-frame';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import {
  allocationFacts,
  bytesWithExact,
  frameLocation,
  stackAsText,
  stackFrames,
} from './allocation-facts';
import { bandColorCss } from '../timeline/band-color-css';
import '../timeline/timeline.css';
import { AllocationLifetimeRows } from './allocation-lifetime-rows';

export interface AllocationPanelProps {
  view: AnalyzedSnapshot;
  device: AnalyzedDevice;
  /** Row of device.allocations, or null when nothing is selected. */
  row: number | null;
  onClose: () => void;
}

type CopyOutcome = 'copied' | 'failed';

export function AllocationPanel(props: AllocationPanelProps): JSX.Element {
  const { view, device, row, onClose } = props;
  const [hideFramework, setHideFramework] = useState(false);
  // Remembered with the row it was for, so selecting another allocation clears it.
  const [copied, setCopied] = useState<{ row: number; outcome: CopyOutcome } | null>(null);

  const valid = row !== null && row >= 0 && row < device.allocations.count;
  const facts = useMemo(
    () => (valid ? allocationFacts(view, device, row) : null),
    [valid, view, device, row],
  );
  const frames = useMemo(
    () => (facts === null ? [] : stackFrames(view, facts.stackId)),
    [facts, view],
  );

  if (facts === null || row === null) {
    return (
      <div className="allocation-panel" data-testid="allocation-panel">
        <div className="allocation-panel-header">
          <h2>Allocation</h2>
          <button type="button" className="tl-button" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </div>
        <p className="allocation-panel-empty">
          Select an allocation in the timeline or the table to see its stack.
        </p>
      </div>
    );
  }

  const userIndex = topUserFrameIndex(frames);
  const shown = frames
    .map((frame, index) => ({ frame, index }))
    .filter(({ frame }) => !hideFramework || !frame.isFramework);
  const frameworkCount = frames.filter((frame) => frame.isFramework).length;

  const copy = (): void => {
    const text = stackAsText(shown.map(({ frame }) => frame));
    if (!navigator.clipboard) {
      setCopied({ row, outcome: 'failed' });
      return;
    }
    navigator.clipboard.writeText(text).then(
      () => setCopied({ row, outcome: 'copied' }),
      () => setCopied({ row, outcome: 'failed' }),
    );
  };
  const copyOutcome = copied?.row === row ? copied.outcome : null;

  return (
    <div className="allocation-panel" data-testid="allocation-panel" data-row={row}>
      <div className="allocation-panel-header">
        <h2>
          <span
            className="tl-swatch"
            style={{ background: bandColorCss(facts.stackId), marginRight: '8px' }}
            aria-hidden="true"
          />
          {formatBytes(facts.sizeBytes)} allocation
        </h2>
        <button
          type="button"
          className="tl-button"
          onClick={onClose}
          aria-label="Close"
          data-testid="close-allocation-panel"
        >
          ✕
        </button>
      </div>
      <dl className="tl-facts">
        <dt>requested</dt>
        <dd>
          {formatBytes(facts.sizeBytes)}{' '}
          <span className="tl-exact">({formatExactBytes(facts.sizeBytes)} B)</span>
        </dd>
        <dt>rounded</dt>
        <dd>
          {facts.blockSizeBytes === null ? (
            <span className="tl-exact">not recorded (block freed before the snapshot)</span>
          ) : (
            bytesWithExact(facts.blockSizeBytes)
          )}
        </dd>
        <dt>address</dt>
        <dd className="tl-mono">{facts.address}</dd>
        <AllocationLifetimeRows facts={facts} />
        <dt>origin</dt>
        <dd>{facts.origin}</dd>
      </dl>
      <div className="allocation-panel-actions">
        <label>
          <input
            type="checkbox"
            data-testid="hide-framework"
            checked={hideFramework}
            onChange={(event) => setHideFramework(event.target.checked)}
          />
          Hide framework frames{frameworkCount > 0 ? ` (${frameworkCount})` : ''}
        </label>
        <button
          type="button"
          className="tl-button"
          data-testid="copy-stack"
          onClick={copy}
          disabled={shown.length === 0}
        >
          {copyOutcome === 'copied'
            ? 'Copied'
            : copyOutcome === 'failed'
              ? 'Copy failed'
              : 'Copy stack'}
        </button>
      </div>
      {frames.length === 0 ? (
        <p className="allocation-panel-empty">No stack was recorded for this allocation.</p>
      ) : (
        <ol className="allocation-panel-stack" aria-label="Stack, innermost frame first">
          {shown.map(({ frame, index }) => (
            <li
              key={index}
              data-testid="stack-frame"
              className={
                index === userIndex
                  ? 'tl-user-frame'
                  : frame.isFramework
                    ? 'tl-framework-frame'
                    : undefined
              }
              title={index === userIndex ? 'Top user frame' : undefined}
            >
              <span className="frame-index">{index}</span>
              <span className="frame-name">{frame.name}</span>
              <span className="frame-location">{frameLocation(frame)}</span>
            </li>
          ))}
          {shown.length === 0 && (
            <li className="tl-framework-frame">
              <span />
              <span>All {frames.length} frames are framework frames.</span>
            </li>
          )}
        </ol>
      )}
    </div>
  );
}
