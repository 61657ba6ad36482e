// The page's state: the open tabs (snapshots being decoded and decoded ones), which one is
// shown, the open failures. A plain reducer: every change is an action, so it is unit-tested.
// What the user picked on a snapshot's page (device, moment, views, search...) lives in the
// tab's own store (tab-store.ts), made here when the snapshot opens and dropped with its tab.

import { deviceTimesUsable } from '@shared/analyzed/device-times';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import type { CurvePreviewData } from '@shared/analysis/curve-preview';
import type { DecodeEvent, DecodeStage } from '../api/snapshot-client';
import { applyOpeningChoice } from './opening-choice';
import { createTabStore, type TabStore, type TabViewState, type XMode } from './tab-store';

interface TabBase {
  /** The decode job's id; stays the tab's id once decoded. */
  readonly id: string;
  readonly fileName: string;
  /** The tab that was shown when this one opened: shown again if this one fails or is cancelled. */
  readonly openedFrom: string | null;
  /** The folder of ranks the file came in (an id), or null. */
  readonly rankGroup: string | null;
  /** Where `allocscope serve` serves the file from ("gpu-box:/runs/a.pickle"), if it does. */
  readonly servedFrom?: string;
}

/** What a file being opened is doing: waiting for a free decoder, then the decode's stages. */
export type LoadingStage = 'waiting' | DecodeStage;

export interface LoadingTab extends TabBase {
  readonly kind: 'loading';
  readonly stage: LoadingStage;
  readonly bytesRead: number;
  readonly totalBytes: number | null;
  /** The curves of the entries decoded so far, as the decoder last reported them. */
  readonly preview?: DecodePreview;
}

export interface DecodePreview {
  readonly curves: CurvePreviewData;
  /** The share of the file read when they were sent (1 once it is all read; null: size unknown). */
  readonly readFraction: number | null;
}

export interface SnapshotTab extends TabBase {
  readonly kind: 'snapshot';
  readonly snapshot: AnalyzedSnapshot;
  /** The threads that decoded it, where more than one did (a large file decoded in parts). */
  readonly decodeThreads?: number;
  /** The page's choices: made when the tab opens, dropped when it closes. */
  readonly store: TabStore;
}

export type Tab = LoadingTab | SnapshotTab;

export interface OpenFailure {
  readonly id: string;
  readonly fileName: string;
  /** One line: what is wrong with the file, or which bug allocscope hit. */
  readonly message: string;
  /** Set when the failure is a bug in allocscope, not the file's fault. */
  readonly bug: OpenFailureBug | null;
}

/** What a bug report needs beyond the message. */
export interface OpenFailureBug {
  /** The error and its stack, as the decoder reported it. */
  readonly report: string;
  /** The file's size in bytes, when the decode knew it. */
  readonly fileBytes: number | null;
}

export interface AppState {
  readonly tabs: readonly Tab[];
  readonly selectedTabId: string | null;
  readonly failures: readonly OpenFailure[];
  /** The most recent open ended in a failure (body[data-state=error] while it is shown). */
  readonly lastOpenFailed: boolean;
  /** The page of all open snapshots as the ranks of one job is shown (instead of a tab). */
  readonly ranksShown: boolean;
  /** The folder of ranks that page shows (its files only); null: every open snapshot. */
  readonly ranksGroup: string | null;
}

export type AppAction =
  | { readonly type: 'decode'; readonly event: DecodeEvent }
  /** The user cancelled a decode (the job is already stopped). */
  | { readonly type: 'cancel-decode'; readonly tabId: string }
  | { readonly type: 'close-tab'; readonly tabId: string }
  | { readonly type: 'select-tab'; readonly tabId: string }
  | { readonly type: 'cycle-tab'; readonly step: 1 | -1 }
  | { readonly type: 'dismiss-failure'; readonly failureId: string }
  | { readonly type: 'show-ranks' };

/**
 * How many failures stay listed (older ones drop off): more than the notices show at once, so
 * the "N more notices" line counts the ones folded away.
 */
export const MAX_FAILURES_SHOWN = 50;

export const initialAppState: AppState = {
  tabs: [],
  selectedTabId: null,
  failures: [],
  lastOpenFailed: false,
  ranksShown: false,
  ranksGroup: null,
};

export function appReducer(state: AppState, action: AppAction): AppState {
  switch (action.type) {
    case 'decode':
      return reduceDecodeEvent(state, action.event);
    case 'cancel-decode': {
      const tab = findTab(state, action.tabId);
      return tab?.kind === 'loading' ? removeTab(state, tab.id) : state;
    }
    case 'close-tab':
      return findTab(state, action.tabId) ? removeTab(state, action.tabId) : state;
    case 'select-tab':
      return findTab(state, action.tabId)
        ? { ...state, selectedTabId: action.tabId, ranksShown: false }
        : state;
    case 'show-ranks':
      // Every open snapshot (the tab bar's "Ranks (N)"), not one folder's.
      return state.tabs.filter((tab) => tab.kind === 'snapshot').length < 2 ||
        (state.ranksShown && state.ranksGroup === null)
        ? state
        : { ...state, ranksShown: true, ranksGroup: null };
    case 'cycle-tab': {
      if (state.tabs.length < 2) return state;
      const at = state.tabs.findIndex((tab) => tab.id === state.selectedTabId);
      const next = (at + action.step + state.tabs.length) % state.tabs.length;
      return { ...state, selectedTabId: state.tabs[next]!.id, ranksShown: false };
    }
    case 'dismiss-failure': {
      const failures = state.failures.filter((failure) => failure.id !== action.failureId);
      return failures.length === state.failures.length
        ? state
        : { ...state, failures, lastOpenFailed: state.lastOpenFailed && failures.length > 0 };
    }
  }
}

function reduceDecodeEvent(state: AppState, event: DecodeEvent): AppState {
  switch (event.type) {
    case 'started': {
      if (findTab(state, event.jobId)) return state;
      const tab: LoadingTab = {
        kind: 'loading',
        id: event.jobId,
        fileName: event.fileName,
        openedFrom: state.selectedTabId,
        stage: event.waiting ? 'waiting' : 'reading',
        bytesRead: 0,
        totalBytes: event.totalBytes,
        rankGroup: event.rankGroup,
        ...(event.servedFrom === undefined ? {} : { servedFrom: event.servedFrom }),
      };
      // A file opened alone shows its own progress; a folder's ranks open on the Ranks page of
      // that folder (shown once two of them are decoded).
      return {
        ...state,
        tabs: [...state.tabs, tab],
        selectedTabId: tab.id,
        ranksShown: event.rankGroup !== null,
        ranksGroup: event.rankGroup,
      };
    }
    case 'progress': {
      const tab = findTab(state, event.jobId);
      if (tab?.kind !== 'loading') return state;
      const updated: LoadingTab = {
        ...tab,
        stage: event.stage,
        bytesRead: event.bytesRead,
        totalBytes: event.totalBytes ?? tab.totalBytes,
        // A report without curves (between two that bring them) keeps the last ones drawn.
        ...(event.preview === undefined
          ? {}
          : { preview: { curves: event.preview, readFraction: readFractionOf(event) } }),
      };
      return replaceTab(state, updated);
    }
    case 'done': {
      // A decode the user cancelled may still deliver: its tab is gone, and so is the interest.
      const tab = findTab(state, event.jobId);
      if (tab?.kind !== 'loading') return state;
      const decoded: SnapshotTab = {
        kind: 'snapshot',
        id: tab.id,
        fileName: tab.fileName,
        openedFrom: tab.openedFrom,
        rankGroup: tab.rankGroup,
        ...(tab.servedFrom === undefined ? {} : { servedFrom: tab.servedFrom }),
        snapshot: event.snapshot,
        ...((event.decodeThreads ?? 1) > 1 ? { decodeThreads: event.decodeThreads } : {}),
        store: createTabStore(event.snapshot),
      };
      if (event.opening !== undefined)
        applyOpeningChoice(decoded.store, event.snapshot, event.opening);
      return { ...replaceTab(state, decoded), lastOpenFailed: false };
    }
    case 'failed': {
      const tab = findTab(state, event.jobId);
      if (tab && tab.kind !== 'loading') return state;
      const withoutTab = tab ? removeTab(state, tab.id) : state;
      const failure: OpenFailure = {
        id: event.jobId,
        fileName: event.fileName,
        message: event.message,
        bug:
          event.bugReport === undefined
            ? null
            : // The loading tab knew the size (none for a download, or a decode that never started).
              { report: event.bugReport, fileBytes: tab?.totalBytes ?? null },
      };
      const failures = [
        ...withoutTab.failures.filter((existing) => existing.id !== failure.id),
        failure,
      ].slice(-MAX_FAILURES_SHOWN);
      return { ...withoutTab, failures, lastOpenFailed: true };
    }
  }
}

/** Share of the file read, or null when the size is unknown (the bar, the tab, the curves). */
export function progressFraction(progress: {
  bytesRead: number;
  totalBytes: number | null;
}): number | null {
  if (progress.totalBytes === null || progress.totalBytes <= 0) return null;
  return Math.min(1, progress.bytesRead / progress.totalBytes);
}

/** The share of the file the curves of a progress report span: all of it once read. */
function readFractionOf(event: {
  stage: DecodeStage;
  bytesRead: number;
  totalBytes: number | null;
}): number | null {
  return event.stage === 'reading' ? progressFraction(event) : 1;
}

function findTab(state: AppState, tabId: string): Tab | undefined {
  return state.tabs.find((tab) => tab.id === tabId);
}

function replaceTab(state: AppState, replacement: Tab): AppState {
  return {
    ...state,
    tabs: state.tabs.map((tab) => (tab.id === replacement.id ? replacement : tab)),
  };
}

/** Removes a tab; when it was shown, shows the tab it was opened from, else its neighbour. */
function removeTab(state: AppState, tabId: string): AppState {
  const at = state.tabs.findIndex((tab) => tab.id === tabId);
  if (at < 0) return state;
  const removed = state.tabs[at]!;
  const tabs = state.tabs.filter((tab) => tab.id !== tabId);
  let selectedTabId = state.selectedTabId;
  if (selectedTabId === tabId) {
    const origin = removed.openedFrom;
    selectedTabId =
      origin !== null && tabs.some((tab) => tab.id === origin)
        ? origin
        : (tabs[Math.min(at, tabs.length - 1)]?.id ?? null);
  }
  return { ...state, tabs, selectedTabId };
}

// Selectors.

export function selectedTab(state: AppState): Tab | null {
  return state.tabs.find((tab) => tab.id === state.selectedTabId) ?? null;
}

/** Time only where the device's times are usable. */
export function effectiveXMode(state: Pick<TabViewState, 'xMode'>, device: AnalyzedDevice): XMode {
  return state.xMode === 'time' && deviceTimesUsable(device) ? 'time' : 'event';
}

export type BodyState = 'loading' | 'ready' | 'error';

/** What `document.body.dataset.state` says: tests and tools wait on it. */
export function bodyState(state: AppState): BodyState {
  if (state.tabs.some((tab) => tab.kind === 'loading')) return 'loading';
  if (state.lastOpenFailed && state.failures.length > 0) return 'error';
  return 'ready';
}
export type { XMode } from './tab-store';
