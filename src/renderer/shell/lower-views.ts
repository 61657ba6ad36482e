// The views under the timeline, all of the selected moment: their tabs, and which one shows when
// the user has not chosen (the OOM explainer on a device that ran out of memory). Pure, so it is
// unit-tested.

import type { LowerViewId as LowerView } from '../state/tab-store';
import type { ShortcutCommand } from '../state/keyboard-shortcuts';

export interface LowerViewTab {
  id: LowerView;
  label: string;
  title: string;
  /** What clicking the timeline does for this view: the hint in the timeline's tooltip. */
  clickHint: string;
  /** The keyboard command that shows it (keyboard-shortcuts.ts: the keys 1 to 7). */
  command: ShortcutCommand;
}

export const LOWER_VIEWS: readonly LowerViewTab[] = [
  {
    id: 'largest',
    command: 'view-largest',
    label: 'Allocations',
    title: 'The allocations alive at the selected moment, largest first',
    clickHint: 'Click to list the allocations alive here.',
  },
  {
    id: 'segments',
    command: 'view-segments',
    label: 'Segments',
    title: 'The allocator’s segments and blocks at the selected moment',
    clickHint: 'Click to show the segments at this moment.',
  },
  {
    id: 'fragmentation',
    command: 'view-fragmentation',
    label: 'Fragmentation',
    title: 'Cached-but-unused memory over time, and the figures at the moment and the peak',
    clickHint: 'Click to show the fragmentation figures at this moment.',
  },
  {
    id: 'oom',
    command: 'view-oom',
    label: 'OOM',
    title: 'Why the allocation failed (or, without an OOM, what the peak left free)',
    clickHint: 'Click to select this moment (the other views show it).',
  },
  {
    id: 'holders',
    command: 'view-holders',
    label: 'Who holds it',
    title:
      'The memory alive at the selected moment as a flame graph, and grouped by frame, file, category…',
    clickHint: 'Click to show who holds the memory at this moment.',
  },
  {
    id: 'steps',
    command: 'view-steps',
    label: 'Steps',
    title:
      'The training steps: each one’s peak and what it leaves behind, growth from step to step, leak suspects',
    clickHint: 'Click to select this moment (the step ruler along the bottom marks the steps).',
  },
  {
    id: 'compare',
    command: 'view-compare',
    label: 'Compare',
    title:
      'This device against another open snapshot or another device: both curves on one axis, B − A, what changed at the peaks',
    clickHint: 'Click to select this moment (the comparison is at the two peaks).',
  },
];

/** The view shown: the user's choice, else the OOM explainer where there was an OOM. */
export function shownLowerView(chosen: LowerView | null, hasOom: boolean): LowerView {
  return chosen ?? (hasOom ? 'oom' : 'largest');
}

/**
 * The moment the largest-allocations table lists: the selected one once the user chose one (or
 * it starts on an OOM); null keeps the table "at the active peak".
 */
export function tableMomentOf(
  chosenMoment: number | null,
  hasOom: boolean,
  moment: number,
): number | null {
  return chosenMoment !== null || hasOom ? moment : null;
}

/** The hint the timeline's tooltip gives for a click, for the view shown below it. */
export function timelineClickHint(view: LowerView): string {
  return LOWER_VIEWS.find((tab) => tab.id === view)?.clickHint ?? '';
}

/** The view a keyboard command shows, or null for other commands. */
export function lowerViewOfCommand(command: ShortcutCommand): LowerView | null {
  return LOWER_VIEWS.find((tab) => tab.command === command)?.id ?? null;
}
