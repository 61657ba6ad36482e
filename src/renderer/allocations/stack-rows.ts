// The rows of the stack panel: every frame of the user's own code and the frame the stack's label
// names stay in view; runs of framework frames between them fold into one "N framework frames"
// row (opened one by one, or all at once with "show framework frames"). Pure, unit-tested.

import type { StackFrame } from './allocation-facts';

/** 'label': the frame the stack's label names; 'user': other user code; 'framework': the rest. */
export type FrameRole = 'label' | 'user' | 'framework';

export type StackRow =
  | { kind: 'frame'; index: number; frame: StackFrame; role: FrameRole }
  /** Frames [start, end) folded away. */
  | { kind: 'fold'; start: number; end: number };

/** A lone framework frame is shown as itself: a fold row would take the same line. */
const SMALLEST_FOLD = 2;

/**
 * Rows for `frames` (innermost first). `labelIndex` is the frame the label names (-1: none);
 * `openFolds` holds the `start` of each fold the user opened.
 */
export function stackRows(
  frames: readonly StackFrame[],
  labelIndex: number,
  showFramework: boolean,
  openFolds: ReadonlySet<number> = new Set(),
): StackRow[] {
  const roleOf = (index: number): FrameRole =>
    index === labelIndex ? 'label' : frames[index]!.isFramework ? 'framework' : 'user';
  const rows: StackRow[] = [];
  let index = 0;
  while (index < frames.length) {
    if (roleOf(index) !== 'framework') {
      rows.push({ kind: 'frame', index, frame: frames[index]!, role: roleOf(index) });
      index++;
      continue;
    }
    let end = index;
    while (end < frames.length && roleOf(end) === 'framework') end++;
    if (!showFramework && !openFolds.has(index) && end - index >= SMALLEST_FOLD) {
      rows.push({ kind: 'fold', start: index, end });
    } else {
      for (let i = index; i < end; i++)
        rows.push({ kind: 'frame', index: i, frame: frames[i]!, role: 'framework' });
    }
    index = end;
  }
  return rows;
}

/** "17 framework frames". */
export function foldText(row: { start: number; end: number }): string {
  const count = row.end - row.start;
  return `${count} framework ${count === 1 ? 'frame' : 'frames'}`;
}
