import { readEmbeddedSnapshot } from './embedded-snapshot';
import { createPageDecoder, type PageDecoder } from './page-decoder';
import { createListenerSet, type DecodeEvent, type SnapshotClient } from './snapshot-client';

export const DEMO_SNAPSHOT_FILE_NAME = 'demo-snapshot.pickle';

/**
 * The browser host: the page's file input and drops hand over File objects, decoded here in a
 * Web Worker; nothing is uploaded anywhere. The demo snapshot is served beside index.html, and
 * the worker fetches it as Electron's worker fetches a file main hands over.
 */
export function createWebSnapshotClient(
  location: Location,
  page: Document | null = null,
): SnapshotClient {
  const listeners = createListenerSet<DecodeEvent>();
  const decoder = createPageDecoder((event) => listeners.emit(event));
  // Files come one at a time, seconds apart: a worker that has already loaded its script saves
  // that time on every open.
  decoder.keepSpareWorker();
  let nextRefused = 1;
  // The snapshot an `allocscope html` page carries opens once the page listens (as a file picked).
  let embeddedPending = page !== null;

  return {
    host: 'web',
    showOpenDialog: null,
    showOpenFolderDialog: null,
    openFile: (file, options = {}) =>
      decoder.decode({ kind: 'file', file }, { rankGroup: options.rankGroup ?? null }),
    openDemo() {
      if (location.protocol === 'file:') {
        // Browsers let a page from disk read only the files the user hands it.
        const jobId = `refused-${nextRefused++}`;
        queueMicrotask(() =>
          listeners.emit({
            type: 'failed',
            jobId,
            fileName: DEMO_SNAPSHOT_FILE_NAME,
            message:
              'a page opened from disk (file://) cannot read the demo file next to it. Serve the ' +
              'folder over HTTP (for example `npx vite preview --outDir out/web`), or choose ' +
              `${DEMO_SNAPSHOT_FILE_NAME} with Open snapshot…`,
          }),
        );
        return;
      }
      const url = new URL(`./${DEMO_SNAPSHOT_FILE_NAME}`, location.href).href;
      decoder.decode({ kind: 'url', url, fileName: DEMO_SNAPSHOT_FILE_NAME });
    },
    cancel: (jobId) => void decoder.cancel(jobId),
    subscribe: (listener) => {
      const unsubscribe = listeners.add(listener);
      if (embeddedPending && page !== null) {
        embeddedPending = false;
        void openEmbeddedSnapshot(page, decoder, (event) => listeners.emit(event));
      }
      return unsubscribe;
    },
    recentFiles: null,
    onMenuCommand: () => () => {},
  };
}

/** Opens the page's own snapshot, if it carries one, on the finding it was written with. */
async function openEmbeddedSnapshot(
  page: Document,
  decoder: PageDecoder,
  emit: (event: DecodeEvent) => void,
): Promise<void> {
  const embedded = await readEmbeddedSnapshot(page);
  if (embedded === null) return;
  if (embedded.kind === 'broken') {
    emit({
      type: 'failed',
      jobId: 'embedded',
      fileName: embedded.fileName,
      message: embedded.message,
    });
    return;
  }
  const { file, header } = embedded;
  decoder.decode(
    { kind: 'file', file, originalBytes: header.fileBytes },
    { opening: header.opening },
  );
}
