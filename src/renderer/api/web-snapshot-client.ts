import type { SnapshotClient, SnapshotFile } from './snapshot-client';

/**
 * The browser host: a hidden file input stands in for the Open dialog. The File objects stay
 * here so the page can read them later; nothing is uploaded anywhere.
 */
export function createWebSnapshotClient(doc: Document): SnapshotClient {
  const input = doc.createElement('input');
  input.type = 'file';
  input.hidden = true;
  input.tabIndex = -1;
  input.setAttribute('aria-hidden', 'true');
  input.dataset['testid'] = 'snapshot-file-input';
  doc.body.append(input);

  const chosenFiles = new Map<SnapshotFile, File>();
  let settlePending: ((file: SnapshotFile | null) => void) | null = null;

  function settle(file: File | undefined): void {
    const settleNow = settlePending;
    settlePending = null;
    if (!settleNow) return;
    if (!file) return settleNow(null);
    const snapshotFile: SnapshotFile = { fileName: file.name, sizeBytes: file.size };
    chosenFiles.set(snapshotFile, file);
    settleNow(snapshotFile);
  }

  input.addEventListener('change', () => settle(input.files?.[0]));
  input.addEventListener('cancel', () => settle(undefined));

  return {
    host: 'web',
    openSnapshot() {
      settle(undefined); // a second click abandons the first request
      input.value = ''; // so choosing the same file again still fires `change`
      return new Promise<SnapshotFile | null>((resolve) => {
        settlePending = resolve;
        input.click();
      });
    },
    onSnapshotOpened() {
      // Nothing reaches a web page unasked (yet: drag and drop will).
      return () => {};
    },
  };
}
