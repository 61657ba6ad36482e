// One stack in the panel: frames innermost first, the labelled frame marked, framework frames
// folded (stack-rows.ts). Each frame: its short text, its file:line as selectable text, a copy
// button; the full frame in the tooltip, and a C++ frame's whole signature on click.

import { useState, type JSX, type MouseEvent } from 'react';
import { isPythonFrame } from '@shared/analysis/user-frame';
import { shownText } from '@shared/format/shown-text';
import {
  frameLocation,
  frameText,
  fxNodeText,
  shortFrameText,
  type StackFrame,
} from './allocation-facts';
import { foldText, stackRows, type StackRow } from './stack-rows';

export interface StackListProps {
  frames: readonly StackFrame[];
  labelIndex: number;
  showFramework: boolean;
  /** Key of the item last copied ('frame-3'), to show it was. */
  copiedKey: string | null;
  onCopy: (key: string, text: string) => void;
}

export function StackList(props: StackListProps): JSX.Element {
  const { frames, labelIndex, showFramework, copiedKey, onCopy } = props;
  // Folds opened and frames shown in full; the parent remounts the list for another stack.
  const [openFolds, setOpenFolds] = useState<ReadonlySet<number>>(new Set());
  const [fullFrames, setFullFrames] = useState<ReadonlySet<number>>(new Set());
  const rows = stackRows(frames, labelIndex, showFramework, openFolds);
  const toggle = (set: ReadonlySet<number>, index: number): Set<number> => {
    const next = new Set(set);
    if (!next.delete(index)) next.add(index);
    return next;
  };

  return (
    <ol className="ap-frames" data-testid="stack-list" aria-label="Stack, innermost frame first">
      {rows.map((row) =>
        row.kind === 'fold' ? (
          <li key={`fold-${row.start}`} className="ap-fold">
            <button
              type="button"
              data-testid="stack-fold"
              aria-expanded={false}
              title={`Frames ${row.start}–${row.end - 1}: PyTorch, installed packages, the interpreter`}
              onClick={() => setOpenFolds(toggle(openFolds, row.start))}
            >
              <span aria-hidden="true">▸ </span>
              {foldText(row)}
            </button>
          </li>
        ) : (
          <FrameRow
            key={row.index}
            row={row}
            full={fullFrames.has(row.index)}
            copied={copiedKey === `frame-${row.index}`}
            onToggleFull={() => setFullFrames(toggle(fullFrames, row.index))}
            onCopy={onCopy}
          />
        ),
      )}
    </ol>
  );
}

/** Characters of a frame in its hover title (the row shows it, bounded, too). */
const FRAME_TITLE_CHARS = 1_000;

function FrameRow(props: {
  row: Extract<StackRow, { kind: 'frame' }>;
  full: boolean;
  copied: boolean;
  onToggleFull: () => void;
  onCopy: (key: string, text: string) => void;
}): JSX.Element {
  const { row, full, copied, onToggleFull, onCopy } = props;
  const { frame, index, role } = row;
  const short = shortFrameText(frame);
  // A C++ signature shortened for the row ("MulBackward0::apply"): click shows it whole.
  const elided = !isPythonFrame(frame.filename) && short !== frame.name;
  const hasFile = frame.filename !== '' && frame.filename !== '??';
  const fxNode = fxNodeText(frame.fx);
  const onClick = (event: MouseEvent): void => {
    // Selecting text (a file:line to copy) is not a click on the row.
    if (!elided || (globalThis.getSelection?.()?.toString() ?? '') !== '') return;
    if ((event.target as HTMLElement).closest('button') !== null) return;
    onToggleFull();
  };
  return (
    <li
      className={`ap-frame ap-frame-${role}${elided ? ' ap-frame-elided' : ''}`}
      data-testid="stack-frame"
      data-frame-index={index}
      data-role={role}
      title={shownText(frameText(frame), FRAME_TITLE_CHARS)}
      aria-current={role === 'label' ? 'true' : undefined}
      onClick={onClick}
    >
      <span className="ap-frame-index" aria-hidden="true">
        {index}
      </span>
      <span className="ap-frame-body">
        <span className="ap-frame-text" data-testid="stack-frame-text">
          {shownText(full ? frame.name : short)}
        </span>
        {hasFile && (
          <span className="ap-frame-location" data-testid="stack-frame-location">
            {shownText(frameLocation(frame))}
          </span>
        )}
        {fxNode !== null && (
          <span className="ap-frame-fx" data-testid="stack-frame-fx">
            FX node: {shownText(fxNode)}
          </span>
        )}
        {frame.fx?.originalTrace != null && (
          <span className="ap-frame-fx-trace" title="fx_original_trace: the model source line">
            {shownText(frame.fx.originalTrace)}
          </span>
        )}
      </span>
      <button
        type="button"
        className="ap-copy"
        data-testid="copy-frame"
        aria-label={`Copy frame ${index}`}
        title="Copy this frame (file:line name)"
        onClick={() => onCopy(`frame-${index}`, frameText(frame))}
      >
        {copied ? '✓' : <CopyIcon />}
      </button>
    </li>
  );
}

function CopyIcon(): JSX.Element {
  return (
    <svg width="11" height="11" viewBox="0 0 11 11" aria-hidden="true" fill="none">
      <rect x="3.5" y="3.5" width="6" height="6.5" rx="1" stroke="currentColor" />
      <path d="M1.5 7.5V1.5h5.5" stroke="currentColor" />
    </svg>
  );
}
