// Everything known about one allocation, the answer first: its stack's label (the user's line,
// analysis/user-frame.ts), then the stack opened on that frame with framework frames folded,
// then what the newest snapshots record about it (AllocationDetails) and its figures. The stack
// and the details share the panel's height; the divider between them moves (remembered).

import { useLayoutEffect, useMemo, useRef, useState, type JSX } from 'react';
import { stackLabelOfStack } from '@shared/analysis/user-frame';
import { allocationDetails, hasDetails } from '@shared/analyzed/allocation-details';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import { NO_STACK_TEXT } from '@shared/format/words';
import {
  allocationFacts,
  bytesWithExact,
  frameText,
  stackAsText,
  stackFrames,
} from './allocation-facts';
import { AllocationLifetimeRows } from './allocation-lifetime-rows';
import { DetailsList, ForwardFrames } from './allocation-details-view';
import { StackList } from './stack-list';
import { useTab, useTabStore } from '../state/tab-store-context';
import { useStackSplit } from './use-stack-split';
import { PaneSeparator } from '../ui/pane-separator';
import { bandColorCss } from '../timeline/band-color-css';
import '../timeline/timeline.css';
import './allocation-panel.css';

export interface AllocationPanelProps {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  /** Row of device.allocations, or null when nothing is selected. */
  row: number | null;
  onClose: () => void;
}

/** Rows of context kept above the labelled frame when the stack opens scrolled to it. */
const CONTEXT_ABOVE_PX = 28;

type CopyOutcome = 'copied' | 'failed';

export function AllocationPanel(props: AllocationPanelProps): JSX.Element {
  const { snapshot, device, row, onClose } = props;
  const showFramework = useTab((state) => state.stackShowFramework);
  const setShowFramework = useTabStore().getState().setStackShowFramework;
  // What was copied last, with the row it was for: selecting another allocation clears it.
  const [copied, setCopied] = useState<{ row: number; key: string; outcome: CopyOutcome } | null>(
    null,
  );
  const rootRef = useRef<HTMLDivElement>(null);
  const stackRef = useRef<HTMLElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const split = useStackSplit(rootRef, stackRef);

  const valid = row !== null && row >= 0 && row < device.allocations.count;
  const facts = useMemo(
    () => (valid ? allocationFacts(snapshot, device, row) : null),
    [valid, snapshot, device, row],
  );
  const frames = useMemo(
    () => (facts === null ? [] : stackFrames(snapshot, facts.stackId)),
    [facts, snapshot],
  );
  const label = facts === null ? null : stackLabelOfStack(snapshot, facts.stackId);
  const labelIndex = label?.index ?? -1;
  const details = useMemo(
    () => (valid ? allocationDetails(snapshot, device, row) : null),
    [valid, snapshot, device, row],
  );

  // Open on the labelled frame: scrolled so it shows near the top, one row of context above
  // where the stack has the room. Placed again while the panel settles its size (it docks beside
  // the lower view and may be resized), until the user scrolls the stack.
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (scroller === null || labelIndex < 0) return;
    const place = (): void => {
      const target = scroller.querySelector<HTMLElement>(`[data-frame-index="${labelIndex}"]`);
      if (target === null) return;
      const top = target.offsetTop;
      const visible =
        top >= scroller.scrollTop &&
        top + target.offsetHeight <= scroller.scrollTop + scroller.clientHeight;
      const context =
        scroller.clientHeight >= target.offsetHeight + CONTEXT_ABOVE_PX ? CONTEXT_ABOVE_PX : 0;
      if (!visible) scroller.scrollTop = Math.max(0, top - context);
    };
    place();
    const observer = new ResizeObserver(place);
    observer.observe(scroller);
    const stop = (): void => observer.disconnect();
    scroller.addEventListener('wheel', stop, { passive: true, once: true });
    scroller.addEventListener('pointerdown', stop, { once: true });
    scroller.addEventListener('keydown', stop, { once: true });
    return () => {
      observer.disconnect();
      scroller.removeEventListener('wheel', stop);
      scroller.removeEventListener('pointerdown', stop);
      scroller.removeEventListener('keydown', stop);
    };
  }, [row, labelIndex, showFramework]);

  if (facts === null || row === null) {
    return (
      <div className="ap" data-testid="allocation-panel">
        <div className="ap-header">
          <h2>Allocation</h2>
          <button type="button" className="tl-button" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </div>
        <p className="ap-empty">
          Select an allocation in the timeline or the table to see its stack.
        </p>
      </div>
    );
  }

  const copy = (key: string, text: string): void => {
    const done = (outcome: CopyOutcome): void => setCopied({ row, key, outcome });
    if (!navigator.clipboard) {
      done('failed');
      return;
    }
    navigator.clipboard.writeText(text).then(
      () => done('copied'),
      () => done('failed'),
    );
  };
  const copiedNow = copied?.row === row ? copied : null;
  const frameworkCount = frames.filter((frame) => frame.isFramework).length;
  const labelFrame = labelIndex < 0 ? null : frames[labelIndex]!;
  const stackLabelText = (stackId: number): string =>
    stackLabelOfStack(snapshot, stackId)?.text ?? NO_STACK_TEXT;

  return (
    <div className="ap" data-testid="allocation-panel" data-row={row} ref={rootRef}>
      <div className="ap-header">
        <h2>
          <span
            className="tl-swatch"
            style={{ background: bandColorCss(facts.stackId) }}
            aria-hidden="true"
          />
          {formatBytes(facts.sizeBytes)} allocation{' '}
          <span className="tl-exact">{formatExactBytes(facts.sizeBytes)} B requested</span>
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
      <p
        className={`ap-label ap-label-${label?.kind ?? 'none'}`}
        data-testid="stack-label"
        data-kind={label?.kind ?? 'none'}
        title={labelFrame === null ? undefined : frameText(labelFrame)}
      >
        {label?.text ?? NO_STACK_TEXT}
      </p>

      <section
        className="ap-stack"
        ref={stackRef}
        style={split.stackStyle}
        aria-label="Stack"
        id="allocation-stack"
      >
        <div className="ap-toolbar">
          <h3>
            Stack <span className="tl-exact">{frames.length} frames, innermost first</span>
          </h3>
          <label title="Frames of PyTorch, installed packages and the interpreter (remembered)">
            <input
              type="checkbox"
              data-testid="show-framework"
              checked={showFramework}
              onChange={(event) => setShowFramework(event.target.checked)}
              disabled={frameworkCount === 0}
            />
            show framework frames{frameworkCount > 0 ? ` (${frameworkCount})` : ''}
          </label>
          <button
            type="button"
            className="tl-button"
            data-testid="copy-stack"
            title="Copy every frame, one a line: path:line name"
            onClick={() => copy('stack', stackAsText(frames))}
            disabled={frames.length === 0}
          >
            {copiedNow?.key === 'stack'
              ? copiedNow.outcome === 'copied'
                ? 'Copied'
                : 'Copy failed'
              : 'Copy stack'}
          </button>
        </div>
        <div className="ap-scroll" ref={scrollRef} data-testid="stack-scroll">
          {frames.length === 0 ? (
            <p className="ap-empty">
              No stack was recorded for this allocation (made before recording started, or recorded
              without stacks).
            </p>
          ) : (
            <StackList
              key={`${row}`}
              frames={frames}
              labelIndex={labelIndex}
              showFramework={showFramework}
              copiedKey={copiedNow?.outcome === 'copied' ? copiedNow.key : null}
              onCopy={copy}
            />
          )}
          {details !== null && details.forwardFrames.length > 0 && (
            <ForwardFrames details={details} />
          )}
        </div>
      </section>

      <PaneSeparator
        orientation="horizontal"
        label="Divider between the stack and the allocation's details"
        controls="allocation-stack"
        testId="separator-stack"
        value={split.stackHeight}
        min={split.min}
        max={split.max}
        onChange={split.setStackHeight}
        onReset={split.reset}
      />

      <section className="ap-details" aria-label="Details" data-testid="allocation-details">
        {details !== null && hasDetails(details) && (
          <DetailsList details={details} stackLabelOf={stackLabelText} />
        )}
        <dl className="tl-facts">
          <dt>requested</dt>
          <dd>{bytesWithExact(facts.sizeBytes)}</dd>
          <dt>rounded</dt>
          <dd>
            {facts.blockSizeBytes === null ? (
              <span className="tl-exact">not recorded (block freed before the snapshot)</span>
            ) : (
              bytesWithExact(facts.blockSizeBytes)
            )}
          </dd>
          <dt>address</dt>
          <dd className="tl-mono ap-selectable" data-testid="allocation-address">
            {facts.address}
          </dd>
          <AllocationLifetimeRows facts={facts} />
          <dt>origin</dt>
          <dd>{facts.origin}</dd>
        </dl>
      </section>
    </div>
  );
}
