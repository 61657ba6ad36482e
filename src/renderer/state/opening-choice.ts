// Where a page opens when its file came with a finding (`allocscope html --device --moment
// --view`): applied to the tab's store as it is made, as if the user had chosen it, so the page
// then behaves as any other. The CLI checked and resolved every choice against the file before it
// wrote the page; one that does not fit (a hand-edited page) is left at the page's default.

import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import type { OpeningChoice } from '../api/snapshot-client';
import type { LowerViewId, TabStore } from './tab-store';

/** What each of the CLI's view words shows on the page: the lower view and its choices. */
export const OPENING_VIEWS: Readonly<
  Record<string, { lowerView: LowerViewId | null; categoriesOverTime?: boolean }>
> = {
  // The timeline is always on the page: the lower view stays the default (OOM after an OOM).
  timeline: { lowerView: null },
  allocations: { lowerView: 'largest' },
  segments: { lowerView: 'segments' },
  fragmentation: { lowerView: 'fragmentation' },
  oom: { lowerView: 'oom' },
  flame: { lowerView: 'holders' },
  categories: { lowerView: 'holders', categoriesOverTime: true },
  steps: { lowerView: 'steps' },
};

export function applyOpeningChoice(
  store: TabStore,
  snapshot: AnalyzedSnapshot,
  choice: OpeningChoice,
): void {
  const state = store.getState();
  const device = snapshot.devices.find((candidate) => candidate.device === choice.device);
  if (device !== undefined) state.showDevice(device);
  const shown = device ?? snapshot.devices[store.getState().deviceIndex ?? -1];
  if (
    choice.moment !== null &&
    shown !== undefined &&
    choice.moment >= -1 &&
    choice.moment < shown.traceLength
  )
    state.setMoment(choice.moment);
  const view =
    choice.view !== null && Object.hasOwn(OPENING_VIEWS, choice.view)
      ? OPENING_VIEWS[choice.view]
      : undefined;
  if (view === undefined) return;
  if (view.lowerView !== null) state.setLowerView(view.lowerView);
  if (view.categoriesOverTime === true) state.setHoldersOverTime(true);
}
