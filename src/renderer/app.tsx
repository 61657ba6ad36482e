import {
  useCallback,
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';
import { flushSync } from 'react-dom';
import { pairMemoryTimelines } from './api/pair-memory-timelines';
import type { DecodeEvent, MenuCommand, RecentFile, SnapshotClient } from './api/snapshot-client';
import {
  appReducer,
  bodyState,
  initialAppState,
  selectedTab,
  type SnapshotTab,
} from './state/app-state';
import { KeyboardHelp } from './help/keyboard-help';
import { currentKeyPlatform, keysOf } from './state/keyboard-shortcuts';
import { FailureNotices } from './shell/notices';
import { ProgressView } from './shell/progress-view';
import { SnapshotPage } from './shell/snapshot-page';
import { RanksPage } from './ranks/ranks-page';
import {
  folderNameOf,
  noRanksMessage,
  ranksOfFolder,
  unreadableFolderMessage,
} from './shell/folder-files';
import { compareCandidateId } from './compare/compare-candidates';
import { defaultDeviceIndex } from '@shared/analyzed/moments';
import { DropIcon } from './ui/icons';
import { TabStrip } from './shell/tab-strip';
import { ServedFromMark } from './shell/served-from';
import { useFileDrop } from './shell/use-file-drop';
import { useShortcuts } from './state/use-shortcuts';
import { WelcomeView } from './shell/welcome-view';
import { ViewBoundary, ViewReportContext, type ViewReportFacts } from './ui/view-boundary';

export interface AppProps {
  readonly client: SnapshotClient;
}

const openShortcut = keysOf('open', currentKeyPlatform());
const openFolderShortcut = keysOf('open-folder', currentKeyPlatform());

/** The host's own dialog where it has one (Electron), else the page's hidden file input. */
function askForFiles(
  hostDialog: (() => Promise<void>) | null,
  input: HTMLInputElement | null,
  what: string,
): void {
  if (hostDialog) {
    hostDialog().catch((error: unknown) => console.error(`[allocscope] ${what} failed:`, error));
  } else if (input) {
    input.value = ''; // so choosing the same file again still fires `change`
    input.click();
  }
}

/** Whether a tab is on the Ranks page of `group` (null: every tab is). */
function inRanksGroup(tab: { rankGroup: string | null }, group: string | null): boolean {
  return group === null || tab.rankGroup === group;
}

export function App({ client }: AppProps) {
  const [state, dispatch] = useReducer(appReducer, initialAppState);
  const [recentFiles, setRecentFiles] = useState<readonly RecentFile[] | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const current = selectedTab(state);
  const openSnapshots = useMemo(
    () => state.tabs.filter((tab): tab is SnapshotTab => tab.kind === 'snapshot'),
    [state.tabs],
  );

  // The Ranks page: one folder's files, or every open snapshot ("Ranks (N)").
  const { ranksGroup } = state;
  const rankTabs = useMemo(
    () => openSnapshots.filter((tab) => inRanksGroup(tab, ranksGroup)),
    [openSnapshots, ranksGroup],
  );
  const ranksPageShown = current !== null && state.ranksShown && rankTabs.length >= 2;
  // What a report about a view that failed names: the tab's file.
  const reportFacts = useMemo(
    (): ViewReportFacts => ({
      host: client.host,
      fileName: current?.fileName ?? '(no file open)',
      fileBytes: current?.kind === 'snapshot' ? current.snapshot.fileBytes : null,
    }),
    [client.host, current],
  );
  const rankTabsOpening = state.tabs.filter(
    (tab) => tab.kind === 'loading' && inRanksGroup(tab, ranksGroup),
  ).length;

  const refreshRecentFiles = useCallback(() => {
    client.recentFiles?.list().then(setRecentFiles, (error: unknown) => {
      console.warn('[allocscope] could not read the recent files:', error);
    });
  }, [client]);

  // Files dropped on a tab: compared with that tab once decoded (by name until the decode
  // starts, then by its job).
  const compareByName = useRef(new Map<string, string>());
  const compareByJob = useRef(new Map<string, string>());
  const onDecodeEvent = useEffectEvent((event: DecodeEvent) => {
    // A decode that starts must show at once (body[data-state=loading] included), so whoever
    // opened the file and then waits for "ready" never sees the state from before.
    if (event.type === 'started') flushSync(() => dispatch({ type: 'decode', event }));
    else dispatch({ type: 'decode', event });
    if (event.type === 'started') {
      const target = compareByName.current.get(event.fileName);
      if (target !== undefined) {
        compareByName.current.delete(event.fileName);
        compareByJob.current.set(event.jobId, target);
      }
    }
    if (event.type === 'done') {
      refreshRecentFiles();
      const target = compareByJob.current.get(event.jobId);
      compareByJob.current.delete(event.jobId);
      const device = event.snapshot.devices[defaultDeviceIndex(event.snapshot.devices)];
      const targetTab = state.tabs.find((tab) => tab.id === target);
      if (targetTab?.kind === 'snapshot' && device !== undefined) {
        targetTab.store.getState().chooseComparison(compareCandidateId(event.jobId, device.device));
        dispatch({ type: 'select-tab', tabId: targetTab.id });
      }
    }
  });

  // Listeners are layout effects, attached before body[data-state] first says "ready" (below):
  // whoever waits for it may open a file or press a key at once.
  useLayoutEffect(() => client.subscribe(onDecodeEvent), [client]);
  useEffect(() => refreshRecentFiles(), [refreshRecentFiles]);

  const openSnapshot = useCallback(
    () => askForFiles(client.showOpenDialog, fileInput.current, 'the Open dialog'),
    [client],
  );
  const openFolder = useCallback(
    () => askForFiles(client.showOpenFolderDialog, folderInput.current, 'the folder dialog'),
    [client],
  );

  const openFiles = useCallback(
    (files: Iterable<File>, compareWithTabId: string | null = null) => {
      const open = (file: File, memoryTimeline?: File): void => {
        if (compareWithTabId !== null) compareByName.current.set(file.name, compareWithTabId);
        client.openFile(file, memoryTimeline === undefined ? {} : { memoryTimeline });
      };
      const all = [...files];
      // One file opens at once; several are first sniffed for a trace and its memory timeline.
      if (all.length < 2) all.forEach((file) => open(file));
      else
        void pairMemoryTimelines(all).then((pairs) => {
          for (const pair of pairs) open(pair.file, pair.memoryTimeline);
        });
    },
    [client],
  );

  /**
   * A folder's snapshot files, as the ranks of one job on a Ranks page of their own (one file
   * alone opens as itself). `unreadable`: the folder could not be listed.
   */
  const nextFolder = useRef(1);
  const openRankFiles = useCallback(
    (files: readonly File[], folderName: string | null, unreadable = false) => {
      const folder = nextFolder.current++;
      const ranks = ranksOfFolder(files);
      const rankGroup = ranks.length >= 2 ? `page-folder-${folder}` : null;
      for (const file of ranks) client.openFile(file, { rankGroup });
      if (ranks.length === 0) {
        const event: DecodeEvent = {
          type: 'failed',
          jobId: `folder-${folder}`,
          fileName: folderName ?? folderNameOf(files) ?? 'the folder',
          message: unreadable ? unreadableFolderMessage() : noRanksMessage(),
        };
        dispatch({ type: 'decode', event });
      }
    },
    [client],
  );

  const closeTab = useCallback(
    (tabId: string) => {
      const tab = state.tabs.find((candidate) => candidate.id === tabId);
      if (tab?.kind === 'loading') {
        client.cancel(tabId);
        dispatch({ type: 'cancel-decode', tabId });
      } else {
        dispatch({ type: 'close-tab', tabId });
      }
    },
    [client, state.tabs],
  );

  const runCommand = (command: MenuCommand | 'open' | 'open-folder' | 'help'): boolean => {
    switch (command) {
      case 'open':
        openSnapshot();
        return true;
      case 'open-folder':
        openFolder();
        return true;
      case 'help':
        setHelpOpen(true);
        return true;
      case 'close-tab':
        if (current === null) return false;
        closeTab(current.id);
        return true;
      case 'next-tab':
      case 'previous-tab':
        dispatch({ type: 'cycle-tab', step: command === 'next-tab' ? 1 : -1 });
        return state.tabs.length > 0;
    }
  };

  const onMenuCommand = useEffectEvent((command: MenuCommand) => void runCommand(command));
  useLayoutEffect(() => client.onMenuCommand((command) => onMenuCommand(command)), [client]);

  useShortcuts('app', (command) => {
    // In Electron, Open belongs to the menu (its accelerator shows the native dialog).
    if ((command === 'open' || command === 'open-folder') && client.host === 'electron')
      return false;
    switch (command) {
      case 'open':
      case 'open-folder':
      case 'help':
      case 'close-tab':
      case 'next-tab':
      case 'previous-tab':
        return runCommand(command);
      default:
        return false;
    }
  });

  const dragging = useFileDrop(openFiles, openRankFiles);

  // The signal end-to-end tests wait on; a layout effect, so it changes in the same commit as
  // what it describes, and after every listener above is in place.
  const status = bodyState(state);
  useLayoutEffect(() => {
    document.body.dataset['state'] = status;
  }, [status]);

  return (
    <div className="app">
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-hidden="true"
        data-testid="file-input"
        onChange={(event) => {
          const files = [...(event.currentTarget.files ?? [])];
          event.currentTarget.value = '';
          openFiles(files);
        }}
      />
      <input
        ref={(input) => {
          // Not a React attribute: a folder picker in Chromium, Firefox and Safari alike.
          if (input) input.webkitdirectory = true;
          folderInput.current = input;
        }}
        type="file"
        hidden
        tabIndex={-1}
        aria-hidden="true"
        data-testid="folder-input"
        onChange={(event) => {
          const files = [...(event.currentTarget.files ?? [])];
          event.currentTarget.value = '';
          openRankFiles(files, null);
        }}
      />

      {state.tabs.length > 0 && (
        <header className="app-header">
          <img className="app-logo" src="./favicon.svg" alt="allocscope" width={18} height={18} />
          <TabStrip
            tabs={state.tabs}
            // The Ranks page is shown over the tabs: no snapshot's tab is the selected one then.
            selectedTabId={ranksPageShown ? null : state.selectedTabId}
            onSelect={(tabId) => dispatch({ type: 'select-tab', tabId })}
            onClose={closeTab}
          />
          {current?.servedFrom !== undefined && <ServedFromMark servedFrom={current.servedFrom} />}
          {openSnapshots.length >= 2 && (
            <button
              type="button"
              className="button button-compact"
              data-testid="ranks-open"
              aria-pressed={ranksPageShown && ranksGroup === null}
              title={`The ${openSnapshots.length} open snapshots side by side as the ranks of one job`}
              onClick={() => dispatch({ type: 'show-ranks' })}
            >
              {/* Beside a folder's Ranks page, it offers every open snapshot, not that page. */}
              {`${ranksPageShown && ranksGroup !== null ? 'All as ranks' : 'Ranks'} (${openSnapshots.length})`}
            </button>
          )}
          <button
            type="button"
            className="button button-compact"
            title={`Open another snapshot (${openShortcut})`}
            onClick={openSnapshot}
          >
            Open…
          </button>
          <button
            type="button"
            className="button button-compact"
            data-testid="open-folder"
            title={`Open a folder of ranks: one snapshot per rank of a job (${openFolderShortcut})`}
            onClick={openFolder}
          >
            Folder…
          </button>
          <button
            type="button"
            className="button button-compact help-button"
            data-testid="keyboard-help-open"
            title={`Keyboard shortcuts and glossary (${keysOf('help')})`}
            aria-keyshortcuts="?"
            onClick={() => setHelpOpen(true)}
          >
            ?
          </button>
        </header>
      )}

      <div className="app-content">
        {/* A failure in one tab stays in it: the tab strip and the other tabs go on. */}
        <ViewReportContext.Provider value={reportFacts}>
          <ViewBoundary key={current?.id ?? 'welcome'} name="tab">
            {current === null ? (
              <WelcomeView
                openShortcut={openShortcut}
                onOpenSnapshot={openSnapshot}
                onOpenFolder={openFolder}
                onOpenDemo={() => client.openDemo()}
                recentFiles={recentFiles}
                onOpenRecent={(path) => client.recentFiles?.open(path)}
              />
            ) : ranksPageShown ? (
              <RanksPage tabs={rankTabs} opening={rankTabsOpening} dispatch={dispatch} />
            ) : current.kind === 'loading' ? (
              <ProgressView tab={current} onCancel={() => closeTab(current.id)} />
            ) : (
              <SnapshotPage key={current.id} tab={current} openSnapshots={openSnapshots} />
            )}
          </ViewBoundary>
        </ViewReportContext.Provider>
      </div>

      <FailureNotices
        failures={state.failures}
        host={client.host}
        onDismiss={(failureId) => dispatch({ type: 'dismiss-failure', failureId })}
      />

      {helpOpen && <KeyboardHelp onClose={() => setHelpOpen(false)} />}

      {/* Only while files are dragged over the window, and never in the way of a click. */}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true" data-testid="drop-overlay">
          <div className="drop-target">
            <DropIcon />
            Drop to open the snapshot (on a tab: compare with it)
          </div>
        </div>
      )}
    </div>
  );
}
