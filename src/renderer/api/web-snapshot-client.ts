import { readEmbeddedSnapshot } from './embedded-snapshot';
import { createPageDecoder, type PageDecoder } from './page-decoder';
import { takePrestartedDecoder } from './prestarted-decoder';
import { fetchServedManifest, servedManifestUrl, servedOpens } from './served-snapshots';
import { createListenerSet, type DecodeEvent, type SnapshotClient } from './snapshot-client';

export const DEMO_SNAPSHOT_FILE_NAME = 'demo-snapshot.pickle';

/** The most threads ?jobs= may ask for (the CLI's --jobs allows 64; a page's workers cost more). */
export const MAX_PAGE_DECODE_THREADS = 16;

/**
 * `?jobs=N` in the page's address: the threads a picked or served file decodes on, as the CLI's
 * --jobs (from 2: in parts, where the file can be cut; docs/parallel-decode.md). Null where
 * absent or not a whole number from 1 to MAX_PAGE_DECODE_THREADS: one thread.
 */
export function requestedDecodeThreads(location: Pick<Location, 'search'>): number | null {
  const value = new URLSearchParams(location.search).get('jobs');
  if (value === null || !/^\d{1,2}$/.test(value)) return null;
  const threads = Number(value);
  return threads >= 1 && threads <= MAX_PAGE_DECODE_THREADS ? threads : null;
}

/**
 * The browser host: the page's file input and drops hand over File objects, decoded here in a
 * Web Worker; nothing is uploaded anywhere. The demo snapshot is served beside index.html, and
 * the worker fetches it as Electron's worker fetches a file main hands over. A page that
 * `allocscope serve` serves opens the files it serves as it starts (./served-snapshots.ts).
 */
export function createWebSnapshotClient(
  location: Location,
  page: Document | null = globalThis.document ?? null,
): SnapshotClient {
  const listeners = createListenerSet<DecodeEvent>();
  // What the page brings starts at once, while React mounts (the manifest's fetch and the decode
  // worker's start overlap the first render instead of following it); what it reports before the
  // page listens waits for the first listener.
  let early: DecodeEvent[] | null = [];
  let flushing = false;
  const emit = (event: DecodeEvent): void => {
    if (early === null) listeners.emit(event);
    else early.push(event);
  };
  // The served page's worker was started before this bundle ran (./prestarted-decoder.ts): it
  // becomes the first spare. Nowhere else is there one.
  const decoder = createPageDecoder(emit, undefined, {
    prestarted: takePrestartedDecoder(),
    decodeThreads: requestedDecodeThreads(location),
  });
  // Files come one at a time, seconds apart: a worker that has already loaded its script saves
  // that time on every open.
  decoder.keepSpareWorker();
  let nextRefused = 1;
  const refuse = (fileName: string, message: string) => {
    const jobId = `refused-${nextRefused++}`;
    queueMicrotask(() => emit({ type: 'failed', jobId, fileName, message }));
  };
  // What the page itself brings, opened once per page load: the files `allocscope serve` serves,
  // or the snapshot an `allocscope html` page carries (as a file picked).
  let pageFilesHandedOver: Promise<void> | undefined;
  if (page !== null) {
    const servedUrl = servedManifestUrl(page, location);
    if (servedUrl !== null)
      pageFilesHandedOver = fetchServedManifest(servedUrl).then(
        (manifest) => {
          for (const { source, options } of servedOpens(manifest, location.href))
            decoder.decode(source, options);
        },
        (error: unknown) => refuse('allocscope serve', (error as Error).message),
      );
    void openEmbeddedSnapshot(page, decoder, refuse);
  }

  return {
    pageFilesHandedOver,
    host: 'web',
    showOpenDialog: null,
    showOpenFolderDialog: null,
    openFile: (file, options = {}) =>
      decoder.decode(
        options.memoryTimeline == null
          ? { kind: 'file', file }
          : { kind: 'file', file, memoryTimeline: options.memoryTimeline },
        { rankGroup: options.rankGroup ?? null },
      ),
    openDemo() {
      if (location.protocol === 'file:') {
        // Browsers let a page from disk read only the files the user hands it.
        refuse(
          DEMO_SNAPSHOT_FILE_NAME,
          'a page opened from disk (file://) cannot read the demo file next to it. Serve the ' +
            'folder over HTTP (for example `npx vite preview --outDir out/web`), or choose ' +
            `${DEMO_SNAPSHOT_FILE_NAME} with Open snapshot…`,
        );
        return;
      }
      const url = new URL(`./${DEMO_SNAPSHOT_FILE_NAME}`, location.href).href;
      decoder.decode({ kind: 'url', url, fileName: DEMO_SNAPSHOT_FILE_NAME });
    },
    cancel: (jobId) => void decoder.cancel(jobId),
    subscribe(listener) {
      const remove = listeners.add(listener);
      // Handed over after the current task, to whoever listens then (a component that mounts,
      // unmounts and mounts again in one commit gets them once, in order).
      if (early !== null && !flushing) {
        flushing = true;
        queueMicrotask(() => {
          const waiting = early ?? [];
          early = null;
          for (const event of waiting) listeners.emit(event);
        });
      }
      return remove;
    },
    recentFiles: null,
    onMenuCommand: () => () => {},
  };
}

/** Opens the page's own snapshot, if it carries one, on the finding it was written with. */
async function openEmbeddedSnapshot(
  page: Document,
  decoder: PageDecoder,
  refuse: (fileName: string, message: string) => void,
): Promise<void> {
  const embedded = await readEmbeddedSnapshot(page);
  if (embedded === null) return;
  if (embedded.kind === 'broken') {
    refuse(embedded.fileName, embedded.message);
    return;
  }
  const { file, header } = embedded;
  decoder.decode(
    { kind: 'file', file, originalBytes: header.fileBytes },
    { opening: header.opening },
  );
}
