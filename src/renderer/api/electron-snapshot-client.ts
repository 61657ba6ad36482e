import type { AllocscopeBridge } from '../../preload/index.d';
import { createPageDecoder, type PageDecoder } from './page-decoder';
import { createListenerSet, type DecodeEvent, type SnapshotClient } from './snapshot-client';

/**
 * The Electron host. Files opened by path (Open dialog, Open Recent, a drop from disk, the command
 * line, the demo) are handed over by main as allocscope-file: URLs; the page's decode worker
 * fetches each and decodes it exactly as the web build decodes a File, and the page tells main how
 * it ended (a decoded file joins Open Recent). A dropped File without a path on disk is decoded
 * as a File, as in the web build.
 */
export function createElectronSnapshotClient(
  bridge: AllocscopeBridge,
  createDecoder: (emit: (event: DecodeEvent) => void) => PageDecoder = (emit) =>
    createPageDecoder(emit),
): SnapshotClient {
  const listeners = createListenerSet<DecodeEvent>();
  const decoder = createDecoder((event) => listeners.emit(event));
  // Files come one at a time, seconds apart: a worker that has already loaded its script saves
  // that time on every open (as in the web build).
  decoder.keepSpareWorker();
  // One bridge subscription for the page's lifetime, shared by every listener.
  let bridgeSubscribed = false;

  return {
    host: 'electron',
    showOpenDialog: () => bridge.showOpenDialog(),
    showOpenFolderDialog: () => bridge.showOpenFolderDialog(),
    openFile(file, options = {}) {
      // A folder's files (read by the page from a dropped folder) decode here as Files: main
      // would hand them over one by one, not as ranks.
      if (options.rankGroup != null) decoder.decode({ kind: 'file', file }, { rankGroup: 'job' });
      // With its memory timeline: both Files decode in the page's worker, together.
      else if (options.memoryTimeline != null)
        decoder.decode({ kind: 'file', file, memoryTimeline: options.memoryTimeline });
      else if (!bridge.openDroppedFile(file)) decoder.decode({ kind: 'file', file });
    },
    openDemo: () => bridge.openDemoSnapshot(),
    cancel: (jobId) => void decoder.cancel(jobId),
    subscribe(listener) {
      const remove = listeners.add(listener);
      if (!bridgeSubscribed) {
        bridge.onSnapshotHandover(({ url, fileName, sizeBytes, rankGroup }) =>
          decoder.decode(
            { kind: 'url', url, fileName, sizeBytes },
            { onSettled: (outcome) => bridge.settleSnapshot(url, outcome), rankGroup },
          ),
        );
        bridgeSubscribed = true;
      }
      bridge.signalRendererReady();
      return remove;
    },
    recentFiles: {
      list: () => bridge.getRecentFiles(),
      open: (path) => bridge.openRecentFile(path),
    },
    onMenuCommand: (listener) => bridge.onMenuCommand(listener),
  };
}
