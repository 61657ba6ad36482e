import { useCallback, useEffect, useState } from 'react';
import type { SnapshotClient, SnapshotFile } from './api/snapshot-client';
import { WelcomeView } from './views/welcome-view';

export interface AppProps {
  readonly client: SnapshotClient;
}

export function App({ client }: AppProps) {
  const [chosenFile, setChosenFile] = useState<SnapshotFile | null>(null);
  const [errorMessage, setErrorMessage] = useState<string | null>(null);

  const showFile = useCallback((file: SnapshotFile) => {
    setChosenFile(file);
    setErrorMessage(null);
  }, []);

  useEffect(() => {
    const unsubscribe = client.onSnapshotOpened(showFile);
    // The signal end-to-end tests wait on: the first render is committed and listeners are set.
    document.body.dataset['state'] = 'ready';
    return unsubscribe;
  }, [client, showFile]);

  const openSnapshot = useCallback(() => {
    client.openSnapshot().then(
      (file) => {
        if (file) showFile(file);
      },
      (error: unknown) => {
        setErrorMessage(
          `Could not open the file: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
  }, [client, showFile]);

  const openShortcut =
    client.host === 'electron' ? (navigator.userAgent.includes('Mac') ? '⌘O' : 'Ctrl+O') : null;

  return (
    <WelcomeView
      chosenFile={chosenFile}
      errorMessage={errorMessage}
      openShortcut={openShortcut}
      onOpenSnapshot={openSnapshot}
    />
  );
}
