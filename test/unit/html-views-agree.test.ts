// `allocscope html --view` and the page agree on the words: every view the CLI takes opens a
// lower view the page's registry has; and the choice the page is written with lands in the
// tab's store as it is made (through the reducer, as the page's decode events drive it), while
// a choice that does not fit the file (a hand-edited page) leaves the page's defaults.

import { describe, expect, it } from 'vitest';
import { HTML_VIEWS } from '../../src/cli/cli-options';
import { LOWER_VIEWS } from '../../src/renderer/registry/lower-views';
import { appReducer, initialAppState, type SnapshotTab } from '../../src/renderer/state/app-state';
import { OPENING_VIEWS } from '../../src/renderer/state/opening-choice';
import type { OpeningChoice } from '../../src/renderer/api/snapshot-client';
import { analyzeFile } from '../support/analyzed';
import { realSnapshotPath } from '../support/real-snapshots';

const MULTI_GPU = realSnapshotPath('Constructor-Sun');

async function openedWith(opening: OpeningChoice | undefined) {
  const snapshot = await analyzeFile(MULTI_GPU);
  let state = appReducer(initialAppState, {
    type: 'decode',
    event: {
      type: 'started',
      jobId: 'job',
      fileName: 'x',
      totalBytes: 1,
      waiting: false,
      rankGroup: null,
    },
  });
  state = appReducer(state, {
    type: 'decode',
    event: { type: 'done', jobId: 'job', snapshot, ...(opening ? { opening } : {}) },
  });
  const tab = state.tabs[0] as SnapshotTab;
  return { snapshot, choices: tab.store.getState() };
}

describe('html --view and the page', () => {
  it('every view word opens a lower view of the registry', () => {
    expect(Object.keys(OPENING_VIEWS).sort()).toEqual([...HTML_VIEWS].sort());
    const ids = LOWER_VIEWS.map((entry) => entry.id);
    for (const [word, view] of Object.entries(OPENING_VIEWS))
      if (view.lowerView !== null) expect(ids, word).toContain(view.lowerView);
  });

  it('the choice lands in the new tab store', async () => {
    const { snapshot, choices } = await openedWith({ device: 2, moment: 17, view: 'categories' });
    expect(snapshot.devices[choices.deviceIndex!]!.device).toBe(2);
    expect(choices.moment).toBe(17);
    expect(choices.lowerView).toBe('holders');
    expect(choices.holdersOverTime).toBe(true);
  });

  it('a choice that does not fit the file leaves the defaults', async () => {
    const plain = (await openedWith(undefined)).choices;
    const { choices } = await openedWith({ device: 9, moment: 10 ** 9, view: 'constructor' });
    expect(choices.deviceIndex).toBe(plain.deviceIndex);
    expect(choices.moment).toBeNull();
    expect(choices.lowerView).toBeNull();
  });
});
