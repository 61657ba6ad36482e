import { describe, expect, it } from 'vitest';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { appReducer, initialAppState, type AppAction, type SnapshotTab } from './app-state';
import { createTabStore } from './tab-store';
import type { PreferenceStorage } from './preferences';

function fakeDevice(device: number, withTimes = true): AnalyzedDevice {
  return {
    device,
    timeUs: withTimes ? new Float64Array([1, 2]) : null,
    ooms: [],
    figures: { active: { peakBytes: 0 } },
  } as unknown as AnalyzedDevice;
}

function fakeSnapshot(devices: AnalyzedDevice[]): AnalyzedSnapshot {
  return { fileName: 'x.pickle', devices, warnings: [] } as unknown as AnalyzedSnapshot;
}

/** A Storage that keeps its items in a Map (what localStorage holds, without a page). */
function mapStorage(items = new Map<string, string>()): PreferenceStorage & {
  items: Map<string, string>;
} {
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

const cuda0 = fakeDevice(0);
const cuda1 = fakeDevice(1, false);
const snapshot = fakeSnapshot([cuda0, cuda1]);

describe('the tab store', () => {
  it('keeps what was chosen on a page for as long as the tab lives', () => {
    const open = (jobId: string): AppAction[] => [
      {
        type: 'decode',
        event: {
          type: 'started',
          jobId,
          fileName: `${jobId}.pickle`,
          totalBytes: 1,
          waiting: false,
          rankGroup: null,
        },
      },
      { type: 'decode', event: { type: 'done', jobId, snapshot } },
    ];
    let state = [...open('a'), ...open('b')].reduce(appReducer, initialAppState);
    const tabA = state.tabs[0] as SnapshotTab;
    const a = tabA.store.getState();
    a.setHolderQuery('attn');
    a.setFlameZoomPath(['3:forward', '7:attention']);
    a.setLowerView('holders');
    a.setMoment(12);
    a.setTimelineWindow({ mode: 'event', x0: 5, x1: 40, startEvent: 5, endEvent: 40, full: false });
    a.setSegmentsScale('fit');
    a.setColorBy('category');
    // To b and back: the page of a is made again from the same store.
    state = appReducer(state, { type: 'select-tab', tabId: 'b' });
    expect((state.tabs[1] as SnapshotTab).store.getState().holderQuery).toBe('');
    state = appReducer(state, { type: 'select-tab', tabId: 'a' });
    expect((state.tabs[0] as SnapshotTab).store.getState()).toMatchObject({
      holderQuery: 'attn',
      flameZoomPath: ['3:forward', '7:attention'],
      lowerView: 'holders',
      moment: 12,
      timelineWindow: { startEvent: 5, endEvent: 40 },
      segmentsScale: 'fit',
      colorBy: 'category',
    });
    // Closed, it is gone: a file opened again starts afresh.
    state = appReducer(state, { type: 'close-tab', tabId: 'a' });
    state = open('a').reduce(appReducer, state);
    const reopened = state.tabs.find((tab) => tab.id === 'a') as SnapshotTab;
    expect(reopened.store).not.toBe(tabA.store);
    expect(reopened.store.getState()).toMatchObject({ holderQuery: '', moment: null });
  });

  it('a device change clears what belongs to the old device, and keeps the rest', () => {
    const store = createTabStore(snapshot, mapStorage());
    const s = store.getState();
    s.selectRow(5);
    s.setMoment(12);
    s.setLowerView('segments');
    s.setHolderQuery('attn');
    s.setFlameZoomPath(['3:forward']);
    s.setTimelineWindow({ mode: 'time', x0: 1, x1: 2, startEvent: 1, endEvent: 2, full: false });
    s.showDevice(cuda1);
    expect(store.getState()).toMatchObject({
      deviceIndex: 1,
      selectedRow: null,
      moment: null,
      timelineWindow: null,
      flameZoomPath: [],
      lowerView: 'segments',
      holderQuery: 'attn',
      // cuda:1 records no times: the choice stays, effectiveXMode falls back to events.
      xMode: 'time',
    });
  });

  it('refuses a device of another snapshot, and sets nothing for an unchanged value', () => {
    const store = createTabStore(snapshot, mapStorage());
    let changes = 0;
    store.subscribe(() => changes++);
    store.getState().showDevice(fakeDevice(0));
    store.getState().showDevice(cuda0);
    store.getState().selectRow(null);
    store.getState().setLowerView('largest');
    store.getState().setLowerView('largest');
    expect(changes).toBe(1);
    expect(store.getState().deviceIndex).toBe(0);
  });

  it('Compare with a candidate shows the Compare view; Ctrl+F shows Who holds it', () => {
    const store = createTabStore(snapshot, mapStorage());
    store.getState().chooseComparison('c:0');
    expect(store.getState()).toMatchObject({ lowerView: 'compare', compareWith: 'c:0' });
    store.getState().requestFind();
    store.getState().requestFind();
    expect(store.getState()).toMatchObject({ lowerView: 'holders', findRequest: 2 });
  });

  it('writes the preferences that outlive the session, and a new tab starts from them', () => {
    const storage = mapStorage();
    const first = createTabStore(snapshot, storage);
    expect(first.getState()).toMatchObject({ fullPage: false, colorBy: 'stack', paneLayouts: {} });
    first.getState().setFullPage(true);
    first.getState().setColorBy('allocation');
    const key = 'react-resizable-panels:allocscope.panes.column';
    first.getState().setPaneLayout(key, '{"chart-pane":60,"lower-pane":40}');
    expect(storage.items.get('allocscope.panes.lowerFullPage')).toBe('true');
    expect(storage.items.get('allocscope.timeline.colorBy')).toBe('allocation');
    const second = createTabStore(snapshot, storage);
    expect(second.getState()).toMatchObject({
      fullPage: true,
      colorBy: 'allocation',
      paneLayouts: { [key]: '{"chart-pane":60,"lower-pane":40}' },
    });
    // Forgetting a layout (double-click on a divider) removes it from storage too.
    second.getState().setPaneLayout(key, '');
    expect(storage.items.has(key)).toBe(false);
    expect(second.getState().paneLayouts).toEqual({});
    // A value storage holds that is no colouring falls back to by stack.
    storage.items.set('allocscope.timeline.colorBy', 'rainbow');
    expect(createTabStore(snapshot, storage).getState().colorBy).toBe('stack');
  });

  it('storage that throws leaves the defaults and the choices work for the page', () => {
    const refusing: PreferenceStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const store = createTabStore(snapshot, refusing);
    expect(store.getState().fullPage).toBe(false);
    store.getState().setFullPage(true);
    expect(store.getState().fullPage).toBe(true);
  });

  it('derives once per change of its inputs, per tab', () => {
    const a = createTabStore(snapshot, mapStorage());
    const b = createTabStore(snapshot, mapStorage());
    let runs = 0;
    const compute = (): number[] => {
      runs++;
      return [runs];
    };
    const first = a.derived('x', [1, 'q'], compute);
    expect(a.derived('x', [1, 'q'], compute)).toBe(first);
    expect(runs).toBe(1);
    expect(a.derived('x', [2, 'q'], compute)).not.toBe(first);
    expect(b.derived('x', [1, 'q'], compute)).not.toBe(first);
    expect(runs).toBe(3);
  });
});
