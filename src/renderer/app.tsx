import {
  useCallback,
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useReducer,
  useRef,
  useState,
} from 'react';
import { flushSync } from 'react-dom';
import type { DecodeEvent, MenuCommand, RecentFile, SnapshotClient } from './api/snapshot-client';
import { appReducer, bodyState, initialAppState, selectedTab } from './shell/app-state';
import { shortcutOf } from './shell/keyboard-shortcuts';
import { FailureNotices } from './shell/notices';
import { ProgressView } from './shell/progress-view';
import { SnapshotPage } from './shell/snapshot-page';
import { DropIcon } from './ui/icons';
import { TabStrip } from './shell/tab-strip';
import { useFileDrop } from './shell/use-file-drop';
import { WelcomeView } from './shell/welcome-view';

export interface AppProps {
  readonly client: SnapshotClient;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const openShortcut = isMac ? '⌘O' : 'Ctrl+O';

export function App({ client }: AppProps) {
  const [state, dispatch] = useReducer(appReducer, initialAppState);
  const [recentFiles, setRecentFiles] = useState<readonly RecentFile[] | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const current = selectedTab(state);

  const refreshRecentFiles = useCallback(() => {
    client.recentFiles?.list().then(setRecentFiles, (error: unknown) => {
      console.warn('[allocscope] could not read the recent files:', error);
    });
  }, [client]);

  const onDecodeEvent = useEffectEvent((event: DecodeEvent) => {
    // A decode that starts must show at once (body[data-state=loading] included), so whoever
    // opened the file and then waits for "ready" never sees the state from before.
    if (event.type === 'started') flushSync(() => dispatch({ type: 'decode', event }));
    else dispatch({ type: 'decode', event });
    if (event.type === 'done') refreshRecentFiles();
  });

  // Listeners are layout effects, attached before body[data-state] first says "ready" (below):
  // whoever waits for it may open a file or press a key at once.
  useLayoutEffect(() => client.subscribe(onDecodeEvent), [client]);
  useEffect(() => refreshRecentFiles(), [refreshRecentFiles]);

  const openSnapshot = useCallback(() => {
    if (client.showOpenDialog) {
      client.showOpenDialog().catch((error: unknown) => {
        console.error('[allocscope] the Open dialog failed:', error);
      });
    } else {
      const input = fileInput.current;
      if (input) {
        input.value = ''; // so choosing the same file again still fires `change`
        input.click();
      }
    }
  }, [client]);

  const openFiles = useCallback(
    (files: Iterable<File>) => {
      for (const file of files) client.openFile(file);
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

  const runCommand = useEffectEvent((command: MenuCommand | 'open') => {
    switch (command) {
      case 'open':
        openSnapshot();
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
  });

  useLayoutEffect(() => client.onMenuCommand((command) => void runCommand(command)), [client]);

  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const command = shortcutOf(event);
      if (command === null) return;
      // In Electron, Open belongs to the menu (its accelerator shows the native dialog).
      if (command === 'open' && client.host === 'electron') return;
      if (runCommand(command)) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [client]);

  const dragging = useFileDrop(openFiles);

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

      {state.tabs.length > 0 && (
        <header className="app-header">
          <img className="app-logo" src="./favicon.svg" alt="allocscope" width={18} height={18} />
          <TabStrip
            tabs={state.tabs}
            selectedTabId={state.selectedTabId}
            onSelect={(tabId) => dispatch({ type: 'select-tab', tabId })}
            onClose={closeTab}
          />
          <button
            type="button"
            className="button button-compact"
            title={`Open another snapshot (${openShortcut})`}
            onClick={openSnapshot}
          >
            Open…
          </button>
        </header>
      )}

      <FailureNotices
        failures={state.failures}
        host={client.host}
        onDismiss={(failureId) => dispatch({ type: 'dismiss-failure', failureId })}
      />

      <div className="app-content">
        {current === null ? (
          <WelcomeView
            openShortcut={openShortcut}
            onOpenSnapshot={openSnapshot}
            onOpenDemo={() => client.openDemo()}
            recentFiles={recentFiles}
            onOpenRecent={(path) => client.recentFiles?.open(path)}
          />
        ) : current.kind === 'loading' ? (
          <ProgressView tab={current} onCancel={() => closeTab(current.id)} />
        ) : (
          <SnapshotPage key={current.id} tab={current} dispatch={dispatch} />
        )}
      </div>

      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <div className="drop-target">
            <DropIcon />
            Drop to open the snapshot
          </div>
        </div>
      )}
    </div>
  );
}
