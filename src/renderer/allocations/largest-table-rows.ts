// The rows of the largest-allocations table, as plain data (no DOM, so unit-tested in Node): the
// figures of each allocation and its stack's label (analysis/user-frame.ts, the one rule).

import { stackLabelOfStack } from '@shared/analysis/user-frame';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { shownText } from '@shared/format/shown-text';
import { NO_STACK_TEXT } from '@shared/format/words';
import { allocationFacts, frameLocation, stackFrames } from './allocation-facts';

export interface LargestTableRow {
  row: number;
  sizeBytes: number;
  lifetimeText: string;
  /** For sorting: microseconds when known, else events (open-ended lifetimes are lower bounds). */
  lifetimeSort: number;
  allocEvent: number;
  allocText: string;
  /** The stack's label; NO_STACK_TEXT without a stack. */
  frameLabel: string;
  /** The labelled frame in full (name, then path:line), shown on hover. */
  frameTitle: string;
  stackId: number;
}

/** Characters of a frame's name and of its path in a row's hover title. */
const FRAME_TITLE_CHARS = 1_000;

export function largestTableRow(
  snapshot: Pick<AnalyzedSnapshot, 'streams' | 'frames' | 'stacks'>,
  device: AnalyzedDevice,
  row: number,
  useTimes: boolean,
): LargestTableRow {
  const facts = allocationFacts(snapshot, device, row);
  const label = stackLabelOfStack(snapshot, facts.stackId);
  const frame = label === null ? null : stackFrames(snapshot, facts.stackId)[label.index]!;
  return {
    row,
    sizeBytes: facts.sizeBytes,
    lifetimeText: facts.lifetimeText,
    lifetimeSort:
      useTimes && !Number.isNaN(facts.lifetimeUs) ? facts.lifetimeUs : facts.lifetimeEvents,
    allocEvent: facts.allocEvent ?? -1,
    allocText: facts.allocText,
    frameLabel: label === null ? NO_STACK_TEXT : label.text,
    // Bounded: a frame's name may be megabytes long (the stack panel has it whole).
    frameTitle:
      frame === null
        ? ''
        : `${shownText(frame.name, FRAME_TITLE_CHARS)}\n${shownText(frameLocation(frame), FRAME_TITLE_CHARS)}`,
    stackId: facts.stackId,
  };
}
