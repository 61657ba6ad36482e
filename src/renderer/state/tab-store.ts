// One store per open snapshot (tab): every choice the user made on its page — the device, the
// selected moment and allocation, the timeline's window, the lower view, the colouring, the
// search and the flame graph's node, the segments' scale, the panes, the comparison — so that
// switching to another tab and back finds the page as it was, and the exports read what is on
// screen. The store is made when the snapshot's tab opens (app-state.ts) and dropped with it.
//
// zustand (vanilla `createStore`): small, maintained, selectors that re-render only the views whose
// slice changed (a zoom frame re-renders nothing that does not show the window), and a store per
// tab made by a plain factory, handed to the page through one context (tab-store-context.ts),
// without a provider per piece of state or a reducer action per setter.

import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { deviceTimesUsable } from '@shared/analyzed/device-times';
import { defaultDeviceIndex } from '@shared/analyzed/moments';
import { COLOR_BYS, type ColorBy } from '@shared/holders/band-coloring';
import type { GroupBy } from '@shared/holders/group-by';
import { DEFAULT_SEGMENTS_SCALE, type SegmentsScale } from '@shared/chart/segments-scene';
import {
  pageStorage,
  PREFERENCE_KEYS,
  readPreference,
  writePreference,
  type PreferenceStorage,
} from './preferences';

export type XMode = 'time' | 'event';

/** A lower view's id (the registry's: ../registry/lower-views.ts). */
export type LowerViewId = string;

/** The timeline's visible window, as the chart reports it. */
export interface TimelineWindowState {
  readonly mode: XMode;
  /** Visible range in x units (events, or microseconds since the first event). */
  readonly x0: number;
  readonly x1: number;
  /** The same range in event coordinates. */
  readonly startEvent: number;
  readonly endEvent: number;
  readonly full: boolean;
}

/** Allocations picked by another view (a leak suspect's), with what they are. */
export interface PickedRows {
  /** What they are, in words: "kept by nanogpt/train.py:88 train_step (Steps)". */
  readonly label: string;
  readonly rows: readonly number[];
}

/**
 * The picture of a view whose choices live in the view itself (Steps: its grouping; Compare: the
 * other snapshot, the alignment, the moments): the view hands over how to draw it, as shown.
 */
export type ViewPicture = (
  size: { width: number; height: number },
  theme: 'light' | 'dark',
) => string;

export interface TabViewState {
  /** Index into snapshot.devices of the device shown; null when the file has no device. */
  readonly deviceIndex: number | null;
  /** What the user asked for; the device may not allow it (see effectiveXMode). */
  readonly xMode: XMode;
  /** Row of the device's allocation table. */
  readonly selectedRow: number | null;
  /** An event index the user pointed at; null: the page's default (first OOM, else active peak). */
  readonly moment: number | null;
  /** The view the user picked under the timeline; null: the default (OOM when the device has one). */
  readonly lowerView: LowerViewId | null;
  readonly warningsDismissed: boolean;
  /** The device the Compare view compares with ("tabId:device"); null: the first offered. */
  readonly compareWith: string | null;
  /** The timeline's window (null until the chart reported one: the whole trace). */
  readonly timelineWindow: TimelineWindowState | null;
  /** How the timeline colours its bands (remembered across sessions). */
  readonly colorBy: ColorBy;
  /** The search (Who holds it, Allocations, the timeline's pink line). */
  readonly holderQuery: string;
  readonly holderRegex: boolean;
  /** The flame graph's zoomed node: steps "frameId:name" from the root; [] for none. */
  readonly flameZoomPath: readonly string[];
  readonly showFramework: boolean;
  readonly picked: PickedRows | null;
  readonly holdersGroupBy: GroupBy;
  readonly holdersOverTime: boolean;
  readonly segmentsScale: SegmentsScale;
  /** The lower view on the whole page (remembered across sessions). */
  readonly fullPage: boolean;
  /** The panes' layouts under the library's keys (remembered across sessions), as it writes them. */
  readonly paneLayouts: Readonly<Record<string, string>>;
  /** The stack panel shows the framework's frames too (remembered across sessions). */
  readonly stackShowFramework: boolean;
  /** The stack's share of the stack panel's height; null: the default (remembered likewise). */
  readonly stackShare: number | null;
  /** Bumped by Ctrl/Cmd+F: Who holds it focuses its search box. */
  readonly findRequest: number;
  /** The Steps or Compare view's picture as shown (null: the view shown draws none itself). */
  readonly viewPicture: ViewPicture | null;
}

export interface TabActions {
  /** Another device: rows, events and the window are per device, so those choices go. */
  showDevice(device: AnalyzedDevice): void;
  setXMode(xMode: XMode): void;
  selectRow(row: number | null): void;
  setMoment(moment: number | null): void;
  setLowerView(view: LowerViewId): void;
  dismissWarnings(): void;
  /** Shows the Compare view, comparing with this candidate ("tabId:device"). */
  chooseComparison(candidateId: string): void;
  setTimelineWindow(window: TimelineWindowState | null): void;
  setColorBy(colorBy: ColorBy): void;
  setHolderQuery(query: string): void;
  setHolderRegex(regex: boolean): void;
  setFlameZoomPath(path: readonly string[]): void;
  setShowFramework(show: boolean): void;
  setPicked(picked: PickedRows | null): void;
  setHoldersGroupBy(by: GroupBy): void;
  setHoldersOverTime(overTime: boolean): void;
  /** Puts the search, the flame graph's node and the picked allocations away. */
  clearFilter(): void;
  setSegmentsScale(scale: SegmentsScale): void;
  setFullPage(fullPage: boolean): void;
  /** Keeps a pane layout (the library's key and text); '' forgets it (the defaults apply). */
  setPaneLayout(key: string, layout: string): void;
  setStackShowFramework(show: boolean): void;
  setStackShare(share: number | null): void;
  /** Ctrl/Cmd+F: shows Who holds it with its search box focused. */
  requestFind(): void;
  setViewPicture(picture: ViewPicture | null): void;
}

export type TabState = TabViewState & TabActions;

export interface TabStore extends StoreApi<TabState> {
  /**
   * Data derived from this tab's choices (a search's matches, its curve): computed once for every
   * view that reads it, again only when one of `inputs` changed (compared with Object.is), and
   * dropped with the tab.
   */
  derived<T>(name: string, inputs: readonly unknown[], compute: () => T): T;
}

/**
 * The panes' layouts that are remembered (snapshot-panes.tsx), under react-resizable-panels' own
 * keys (its id, then the ids of the panels shown), read when a store is made.
 */
export const REMEMBERED_PANE_LAYOUTS: readonly string[] = [
  'react-resizable-panels:allocscope.panes.column',
  'react-resizable-panels:allocscope.panes.lower-row:lower-view-pane',
  'react-resizable-panels:allocscope.panes.lower-row:lower-view-pane:allocation-panel-pane',
];

/**
 * A snapshot's page opens on the default device (analyzed/moments.ts): its first device with an
 * OOM (the question users open it with), else the one with the largest active peak, with the
 * remembered preferences.
 */
export function initialTabState(
  snapshot: AnalyzedSnapshot,
  storage: PreferenceStorage | null,
): TabViewState {
  const deviceIndex = snapshot.devices.length === 0 ? null : defaultDeviceIndex(snapshot.devices);
  const first = deviceIndex === null ? null : snapshot.devices[deviceIndex]!;
  const colorBy = readPreference(storage, PREFERENCE_KEYS.colorBy);
  // A memory timeline records categories and nothing else: its page opens on them (the timeline
  // coloured by category, Who holds it by category with the categories over time).
  const timeline = snapshot.source === 'memory-timeline';
  const paneLayouts: Record<string, string> = {};
  for (const key of REMEMBERED_PANE_LAYOUTS) {
    const layout = readPreference(storage, key);
    if (layout !== null && layout !== '') paneLayouts[key] = layout;
  }
  return {
    deviceIndex,
    xMode: first !== null && deviceTimesUsable(first) ? 'time' : 'event',
    selectedRow: null,
    moment: null,
    lowerView: timeline ? 'holders' : null,
    warningsDismissed: false,
    compareWith: null,
    timelineWindow: null,
    colorBy: timeline ? 'category' : (COLOR_BYS.find((option) => option === colorBy) ?? 'stack'),
    holderQuery: '',
    holderRegex: false,
    flameZoomPath: [],
    showFramework: false,
    picked: null,
    holdersGroupBy: timeline ? 'category' : 'frame',
    holdersOverTime: timeline,
    segmentsScale: DEFAULT_SEGMENTS_SCALE,
    fullPage: readPreference(storage, PREFERENCE_KEYS.fullPage) === 'true',
    paneLayouts,
    stackShowFramework: readPreference(storage, PREFERENCE_KEYS.stackShowFramework) === 'true',
    stackShare: shareOf(readPreference(storage, PREFERENCE_KEYS.stackShare)),
    findRequest: 0,
    viewPicture: null,
  };
}

/** A remembered share (0 to 1, exclusive), or null. */
function shareOf(text: string | null): number | null {
  const value = Number(text ?? NaN);
  return Number.isFinite(value) && value > 0 && value < 1 ? value : null;
}

/** The store of one tab; `storage` keeps the preferences (the page's localStorage by default). */
export function createTabStore(
  snapshot: AnalyzedSnapshot,
  storage: PreferenceStorage | null = pageStorage(),
): TabStore {
  const store = createStore<TabState>()((set, get) => {
    /** Sets a field only when it changes (no render for the same value). */
    const put = <K extends keyof TabViewState>(key: K, value: TabViewState[K]): void => {
      if (!Object.is(get()[key], value)) set({ [key]: value } as Pick<TabViewState, K>);
    };
    return {
      ...initialTabState(snapshot, storage),
      showDevice: (device) => {
        const deviceIndex = snapshot.devices.indexOf(device);
        if (get().deviceIndex === deviceIndex || deviceIndex < 0) return;
        set({
          deviceIndex,
          selectedRow: null,
          moment: null,
          timelineWindow: null,
          flameZoomPath: [],
          picked: null,
        });
      },
      setXMode: (xMode) => put('xMode', xMode),
      selectRow: (row) => put('selectedRow', row),
      setMoment: (moment) => put('moment', moment),
      setLowerView: (view) => put('lowerView', view),
      dismissWarnings: () => put('warningsDismissed', true),
      chooseComparison: (candidateId) => set({ lowerView: 'compare', compareWith: candidateId }),
      setTimelineWindow: (window) => put('timelineWindow', window),
      setColorBy: (colorBy) => {
        put('colorBy', colorBy);
        writePreference(storage, PREFERENCE_KEYS.colorBy, colorBy);
      },
      setHolderQuery: (query) => put('holderQuery', query),
      setHolderRegex: (regex) => put('holderRegex', regex),
      setFlameZoomPath: (path) => put('flameZoomPath', path),
      setShowFramework: (show) => put('showFramework', show),
      setPicked: (picked) => put('picked', picked),
      setHoldersGroupBy: (by) => put('holdersGroupBy', by),
      setHoldersOverTime: (overTime) => put('holdersOverTime', overTime),
      clearFilter: () => set({ holderQuery: '', flameZoomPath: [], picked: null }),
      setSegmentsScale: (scale) => put('segmentsScale', scale),
      setFullPage: (fullPage) => {
        put('fullPage', fullPage);
        writePreference(storage, PREFERENCE_KEYS.fullPage, String(fullPage));
      },
      setPaneLayout: (key, layout) => {
        if ((get().paneLayouts[key] ?? '') === layout) return;
        const paneLayouts = { ...get().paneLayouts };
        if (layout === '') delete paneLayouts[key];
        else paneLayouts[key] = layout;
        set({ paneLayouts });
        writePreference(storage, key, layout);
      },
      setStackShowFramework: (show) => {
        put('stackShowFramework', show);
        writePreference(storage, PREFERENCE_KEYS.stackShowFramework, String(show));
      },
      setStackShare: (share) => {
        put('stackShare', share);
        writePreference(
          storage,
          PREFERENCE_KEYS.stackShare,
          share === null ? '' : share.toFixed(4),
        );
      },
      requestFind: () => set({ lowerView: 'holders', findRequest: get().findRequest + 1 }),
      setViewPicture: (picture) => put('viewPicture', picture),
    };
  });
  const memo = new Map<string, { inputs: readonly unknown[]; value: unknown }>();
  return {
    ...store,
    derived<T>(name: string, inputs: readonly unknown[], compute: () => T): T {
      const kept = memo.get(name);
      if (
        kept !== undefined &&
        kept.inputs.length === inputs.length &&
        kept.inputs.every((input, i) => Object.is(input, inputs[i]))
      )
        return kept.value as T;
      const value = compute();
      memo.set(name, { inputs, value });
      return value;
    },
  };
}
