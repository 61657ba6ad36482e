// The one list of the views under the timeline (each one's entry lives in its own folder:
// export/lower-view-entry.ts says what an entry holds). The page, the lower views' tabs, the
// export bar, the keyboard shortcuts and the help all read it: adding a view is its folder and
// one line here. Its order is the tabs' order.

import { ALLOCATIONS_VIEW } from '../allocations/allocations-view-entry';
import { COMPARE_VIEW } from '../compare/compare-view-entry';
import type { LowerViewEntry } from '../export/lower-view-entry';
import { FRAGMENTATION_VIEW } from '../fragmentation/fragmentation-view-entry';
import { HOLDERS_VIEW } from '../holders/holders-view-entry';
import { OOM_VIEW } from '../oom/oom-view-entry';
import { SEGMENTS_VIEW } from '../segments/segments-view-entry';
import {
  SHORTCUTS,
  viewOfCommand,
  withViewShortcuts,
  type Shortcut,
  type ShortcutCommand,
} from '../state/keyboard-shortcuts';
import { STEPS_VIEW } from '../steps/steps-view-entry';

export const LOWER_VIEWS: readonly LowerViewEntry[] = [
  ALLOCATIONS_VIEW,
  SEGMENTS_VIEW,
  FRAGMENTATION_VIEW,
  OOM_VIEW,
  HOLDERS_VIEW,
  STEPS_VIEW,
  COMPARE_VIEW,
];

/** Every keyboard shortcut of the page: the app's, and the lower views' keys. */
export const PAGE_SHORTCUTS: readonly Shortcut[] = withViewShortcuts(SHORTCUTS, LOWER_VIEWS);

/** The view shown when the user has not chosen one: the OOM explainer after an OOM. */
const DEFAULT_VIEW = ALLOCATIONS_VIEW;
const DEFAULT_VIEW_AFTER_OOM = OOM_VIEW;

/** The view shown: the user's choice (one the list has), else the default for the device. */
export function shownLowerView(chosen: string | null, hasOom: boolean): LowerViewEntry {
  return (
    LOWER_VIEWS.find((entry) => entry.id === chosen) ??
    (hasOom ? DEFAULT_VIEW_AFTER_OOM : DEFAULT_VIEW)
  );
}

/** The view a keyboard command shows, or null for other commands. */
export function lowerViewOfCommand(command: ShortcutCommand): LowerViewEntry | null {
  const id = viewOfCommand(command);
  return LOWER_VIEWS.find((entry) => entry.id === id) ?? null;
}
