import { describe, expect, it } from 'vitest';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import type { DecodeEvent } from '../api/snapshot-client';
import {
  appReducer,
  bodyState,
  effectiveXMode,
  initialAppState,
  MAX_FAILURES_SHOWN,
  selectedTab,
  type AppAction,
  type AppState,
  type SnapshotTab,
} from './app-state';

function fakeDevice(device: number, withTimes = true, oomCount = 0, peakBytes = 0): AnalyzedDevice {
  const ooms = Array.from({ length: oomCount }, (_, i) => ({
    eventIndex: i,
    requestedBytes: 1 << 30,
    deviceFreeBytes: 0,
    streamId: 0,
  }));
  return {
    device,
    timeUs: withTimes ? new Float64Array([1, 2]) : null,
    ooms,
    figures: { active: { peakBytes } },
  } as AnalyzedDevice;
}

function fakeView(fileName: string, devices: AnalyzedDevice[] = [fakeDevice(0)]): AnalyzedSnapshot {
  return { fileName, devices, warnings: [] } as unknown as AnalyzedSnapshot;
}

const started = (jobId: string, fileName = `${jobId}.pickle`): AppAction => ({
  type: 'decode',
  event: { type: 'started', jobId, fileName, totalBytes: 1000, waiting: false, rankGroup: null },
});
const done = (jobId: string, snapshot = fakeView(`${jobId}.pickle`)): AppAction => ({
  type: 'decode',
  event: { type: 'done', jobId, snapshot },
});
const failed = (jobId: string, message = 'not a memory snapshot'): AppAction => ({
  type: 'decode',
  event: { type: 'failed', jobId, fileName: `${jobId}.pickle`, message },
});

function run(...actions: AppAction[]): AppState {
  return actions.reduce(appReducer, initialAppState);
}

function snapshotTab(state: AppState, id: string): SnapshotTab {
  const tab = state.tabs.find((candidate) => candidate.id === id);
  if (tab?.kind !== 'snapshot') throw new Error(`${id} is not a decoded tab`);
  return tab;
}

describe('appReducer: opening', () => {
  it('shows a decode as a selected loading tab, then as the snapshot', () => {
    let state = run(started('a'));
    expect(state.tabs).toMatchObject([{ id: 'a', kind: 'loading', fileName: 'a.pickle' }]);
    expect(state.selectedTabId).toBe('a');
    expect(bodyState(state)).toBe('loading');

    const progress: DecodeEvent = {
      type: 'progress',
      jobId: 'a',
      stage: 'building',
      bytesRead: 600,
      totalBytes: 1000,
    };
    state = appReducer(state, { type: 'decode', event: progress });
    expect(state.tabs[0]).toMatchObject({ stage: 'building', bytesRead: 600, totalBytes: 1000 });

    state = appReducer(state, done('a'));
    expect(snapshotTab(state, 'a').store.getState()).toMatchObject({
      deviceIndex: 0,
      xMode: 'time',
      selectedRow: null,
      moment: null,
      lowerView: null,
      warningsDismissed: false,
      compareWith: null,
    });
    expect(bodyState(state)).toBe('ready');
  });

  it('keeps the last curves of a loading tab until a report brings newer ones', () => {
    const curves = (rows: number) => ({
      lists: [
        {
          rows,
          bucketRows: 1,
          freeing: 'free_completed' as const,
          allocatedLow: new Float64Array(rows),
          allocatedHigh: new Float64Array(rows),
          reservedLow: new Float64Array(rows),
          reservedHigh: new Float64Array(rows),
        },
      ],
      listCount: 1,
    });
    const report = (stage: 'reading' | 'analyzing', preview?: ReturnType<typeof curves>) => ({
      type: 'decode' as const,
      event: {
        type: 'progress' as const,
        jobId: 'a',
        stage,
        bytesRead: 10,
        totalBytes: 100,
        ...(preview === undefined ? {} : { preview }),
      },
    });
    let state = run(started('a'), report('reading'));
    expect(state.tabs[0]).not.toHaveProperty('preview');
    state = appReducer(state, report('reading', curves(3)));
    // Drawn as far as the share read when they were sent (10 of 100 bytes).
    expect(state.tabs[0]).toMatchObject({ preview: { readFraction: 0.1 } });
    state = appReducer(state, report('analyzing'));
    expect(state.tabs[0]).toMatchObject({
      stage: 'analyzing',
      preview: { curves: { listCount: 1 }, readFraction: 0.1 },
    });
    const rowsOf = (tab: (typeof state.tabs)[number] | undefined) =>
      tab?.kind === 'loading' ? tab.preview?.curves.lists[0]?.rows : undefined;
    expect(rowsOf(state.tabs[0])).toBe(3);
    // Past reading, the curves span the whole width.
    state = appReducer(state, report('analyzing', curves(5)));
    expect(rowsOf(state.tabs[0])).toBe(5);
    expect(state.tabs[0]).toMatchObject({ preview: { readFraction: 1 } });
  });

  it('adds each new file as a tab and selects it', () => {
    const state = run(started('a'), done('a'), started('b'), done('b'));
    expect(state.tabs.map((tab) => tab.id)).toEqual(['a', 'b']);
    expect(selectedTab(state)?.id).toBe('b');
  });

  it('starts on the event axis when the first device has no times', () => {
    const snapshot = fakeView('x.pickle', [fakeDevice(3, false), fakeDevice(4)]);
    const tab = snapshotTab(run(started('a'), done('a', snapshot)), 'a');
    expect(tab.store.getState().deviceIndex).toBe(0);
    expect(tab.store.getState().xMode).toBe('event');
  });

  it('opens on the first device that ran out of memory', () => {
    const snapshot = fakeView('x.pickle', [
      fakeDevice(0),
      fakeDevice(1, true, 1),
      fakeDevice(2, true, 2),
    ]);
    expect(
      snapshotTab(run(started('a'), done('a', snapshot)), 'a').store.getState().deviceIndex,
    ).toBe(1);
    const calm = fakeView('y.pickle', [fakeDevice(0), fakeDevice(1)]);
    expect(snapshotTab(run(started('b'), done('b', calm)), 'b').store.getState().deviceIndex).toBe(
      0,
    );
  });

  it('without an OOM, opens on the device with the largest active peak, not an idle one', () => {
    // As in a real two-GPU file whose cuda:0 holds nothing and cuda:1 10.5 GiB.
    const snapshot = fakeView('x.pickle', [
      fakeDevice(0, true, 0, 0),
      fakeDevice(1, true, 0, 10.5 * 2 ** 30),
      fakeDevice(2, true, 0, 2 ** 30),
    ]);
    expect(
      snapshotTab(run(started('a'), done('a', snapshot)), 'a').store.getState().deviceIndex,
    ).toBe(1);
  });

  it('ignores progress and results of decodes no longer shown', () => {
    const state = run(started('a'), { type: 'cancel-decode', tabId: 'a' });
    expect(state.tabs).toEqual([]);
    expect(run(started('a'), { type: 'cancel-decode', tabId: 'a' }, done('a')).tabs).toEqual([]);
    expect(appReducer(state, failed('a')).failures).toHaveLength(1);
  });
});

describe('appReducer: failures', () => {
  it('keeps the other snapshots and shows the one opened before', () => {
    const state = run(started('a'), done('a'), started('b'), failed('b'));
    expect(state.tabs.map((tab) => tab.id)).toEqual(['a']);
    expect(state.selectedTabId).toBe('a');
    expect(state.failures).toEqual([
      { id: 'b', fileName: 'b.pickle', message: 'not a memory snapshot', bug: null },
    ]);
    expect(bodyState(state)).toBe('error');
  });

  it("keeps a bug's report, with the size of the file it was decoding", () => {
    const bug = (jobId: string): AppAction => ({
      type: 'decode',
      event: {
        type: 'failed',
        jobId,
        fileName: `${jobId}.pickle`,
        message: 'internal error: boom',
        bugReport: 'allocscope internal error\nTypeError: boom\n    at decode (worker.js:1:2)',
      },
    });
    const state = run(started('a'), done('a'), started('b'), bug('b'), bug('main-3'));
    expect(state.tabs.map((tab) => tab.id)).toEqual(['a']);
    expect(state.selectedTabId).toBe('a');
    expect(state.failures).toEqual([
      {
        id: 'b',
        fileName: 'b.pickle',
        message: 'internal error: boom',
        bug: {
          report: 'allocscope internal error\nTypeError: boom\n    at decode (worker.js:1:2)',
          fileBytes: 1000,
        },
      },
      {
        id: 'main-3',
        fileName: 'main-3.pickle',
        message: 'internal error: boom',
        // Never started: no size known.
        bug: expect.objectContaining({ fileBytes: null }) as unknown,
      },
    ]);
    expect(bodyState(state)).toBe('error');
  });

  it('is ready again once the failure is dismissed or another file opens', () => {
    const failedState = run(started('a'), failed('a'));
    expect(bodyState(failedState)).toBe('error');
    expect(bodyState(appReducer(failedState, { type: 'dismiss-failure', failureId: 'a' }))).toBe(
      'ready',
    );
    const reopened = run(started('a'), failed('a'), started('b'), done('b'));
    expect(reopened.failures).toHaveLength(1); // still listed until dismissed
    expect(bodyState(reopened)).toBe('ready');
  });

  it('reports a failure that never started (a recent file that is gone)', () => {
    const state = run(failed('main-7'));
    expect(state.tabs).toEqual([]);
    expect(state.failures).toHaveLength(1);
    expect(bodyState(state)).toBe('error');
  });

  it('keeps only the latest few', () => {
    const ids = Array.from({ length: MAX_FAILURES_SHOWN + 2 }, (_, i) => `f${i}`);
    const state = run(...ids.map((id) => failed(id)));
    expect(state.failures.map((failure) => failure.id)).toEqual(ids.slice(-MAX_FAILURES_SHOWN));
  });

  it('a late failure of a decoded tab changes nothing', () => {
    const state = run(started('a'), done('a'));
    expect(appReducer(state, failed('a'))).toBe(state);
  });
});

describe('appReducer: tabs', () => {
  const three = run(started('a'), done('a'), started('b'), done('b'), started('c'), done('c'));

  it('closing the shown tab shows the one it was opened from', () => {
    const state = appReducer(appReducer(three, { type: 'select-tab', tabId: 'b' }), {
      type: 'close-tab',
      tabId: 'b',
    });
    expect(state.tabs.map((tab) => tab.id)).toEqual(['a', 'c']);
    expect(state.selectedTabId).toBe('a');
  });

  it('closing another tab keeps the shown one', () => {
    const state = appReducer(three, { type: 'close-tab', tabId: 'a' });
    expect(state.selectedTabId).toBe('c');
  });

  it('falls back to the neighbour, then to nothing', () => {
    let state = appReducer(three, { type: 'close-tab', tabId: 'a' });
    state = appReducer(state, { type: 'select-tab', tabId: 'b' });
    state = appReducer(state, { type: 'close-tab', tabId: 'b' }); // opened from a: gone
    expect(state.selectedTabId).toBe('c');
    state = appReducer(state, { type: 'close-tab', tabId: 'c' });
    expect(state.tabs).toEqual([]);
    expect(state.selectedTabId).toBeNull();
    expect(bodyState(state)).toBe('ready');
  });

  it('cycles forwards and backwards, wrapping around', () => {
    const next = (state: AppState, step: 1 | -1) => appReducer(state, { type: 'cycle-tab', step });
    expect(next(three, 1).selectedTabId).toBe('a');
    expect(next(three, -1).selectedTabId).toBe('b');
    expect(next(next(three, 1), 1).selectedTabId).toBe('b');
    const one = run(started('a'), done('a'));
    expect(next(one, 1)).toBe(one);
  });

  it('ignores unknown tabs', () => {
    expect(appReducer(three, { type: 'select-tab', tabId: 'zz' })).toBe(three);
    expect(appReducer(three, { type: 'close-tab', tabId: 'zz' })).toBe(three);
  });

  it('shows the ranks page over two open snapshots or more, until a tab is chosen', () => {
    const ranks = appReducer(three, { type: 'show-ranks' });
    expect(ranks.ranksShown).toBe(true);
    expect(appReducer(ranks, { type: 'select-tab', tabId: 'a' }).ranksShown).toBe(false);
    expect(appReducer(ranks, { type: 'cycle-tab', step: 1 }).ranksShown).toBe(false);
    const one = run(started('a'), done('a'));
    expect(appReducer(one, { type: 'show-ranks' })).toBe(one);
  });

  it("opens a folder's files on the ranks page; a file opened alone shows its own progress", () => {
    const rank = (jobId: string, rankGroup = 'job'): AppAction => ({
      type: 'decode',
      event: {
        type: 'started',
        jobId,
        fileName: `${jobId}.pickle`,
        totalBytes: 10,
        waiting: true,
        rankGroup,
      },
    });
    const folder = run(rank('r0'), rank('r1'), rank('r2'));
    expect(folder.ranksShown).toBe(true);
    expect(folder.tabs.map((tab) => tab.kind === 'loading' && tab.stage)).toEqual([
      'waiting',
      'waiting',
      'waiting',
    ]);
    const decoded = run(rank('r0'), rank('r1'), done('r0'), done('r1'));
    expect(decoded.ranksShown).toBe(true);
    expect(decoded.ranksGroup).toBe('job');
    expect(decoded.tabs.map((tab) => tab.rankGroup)).toEqual(['job', 'job']);
    const alone = appReducer(decoded, started('x'));
    expect(alone.ranksShown).toBe(false);
    expect(alone.selectedTabId).toBe('x');
    expect(alone.tabs.at(-1)!.rankGroup).toBeNull();
    // A second folder: its own page; "Ranks (N)" then shows every open snapshot.
    const second = run(rank('r0'), rank('r1'), done('r0'), done('r1'), rank('s0', 'other'));
    expect(second.ranksGroup).toBe('other');
    const all = appReducer(second, { type: 'show-ranks' });
    expect(all).toMatchObject({ ranksShown: true, ranksGroup: null });
  });

  it('shows the ranks page of every open snapshot only once two are decoded', () => {
    const loading = run(started('a'), done('a'), started('b'));
    expect(appReducer(loading, { type: 'show-ranks' })).toBe(loading);
  });
});

describe('appReducer: each snapshot its own store', () => {
  it('makes a store when a snapshot opens, and drops it with the tab', () => {
    const opened = run(started('a'), done('a'), started('b'), done('b'));
    const a = snapshotTab(opened, 'a').store;
    expect(snapshotTab(opened, 'b').store).not.toBe(a);
    // Other actions keep the tab, its store and what is in it.
    a.getState().setMoment(12);
    const switched = appReducer(appReducer(opened, { type: 'select-tab', tabId: 'b' }), {
      type: 'select-tab',
      tabId: 'a',
    });
    expect(snapshotTab(switched, 'a').store).toBe(a);
    expect(snapshotTab(switched, 'a').store.getState().moment).toBe(12);
    const closed = appReducer(switched, { type: 'close-tab', tabId: 'a' });
    expect(closed.tabs.some((tab) => tab.kind === 'snapshot' && tab.store === a)).toBe(false);
  });

  it('time only where the device records times', () => {
    expect(effectiveXMode({ xMode: 'time' }, fakeDevice(0, false))).toBe('event');
    expect(effectiveXMode({ xMode: 'time' }, fakeDevice(0, true))).toBe('time');
    expect(effectiveXMode({ xMode: 'event' }, fakeDevice(0, true))).toBe('event');
  });
});
