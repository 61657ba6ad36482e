import type { AllocscopeBridge, BridgeDecodeEvent } from '../../preload/index.d';
import { createPageDecoder } from './page-decoder';
import { createListenerSet, type DecodeEvent, type SnapshotClient } from './snapshot-client';

const MAIN_JOB_PREFIX = 'main-';

/** Main's numbered jobs and the page's own share one id space, told apart by a prefix. */
function fromBridge(event: BridgeDecodeEvent): DecodeEvent {
  const jobId = `${MAIN_JOB_PREFIX}${event.jobId}`;
  switch (event.type) {
    case 'started':
      return { type: 'started', jobId, fileName: event.fileName, totalBytes: event.totalBytes };
    case 'progress':
      return {
        type: 'progress',
        jobId,
        stage: event.stage,
        bytesRead: event.bytesRead,
        totalBytes: event.totalBytes,
      };
    case 'done':
      return { type: 'done', jobId, view: event.view };
    case 'failed':
      return {
        type: 'failed',
        jobId,
        fileName: event.fileName,
        message: event.message,
        ...(event.bugReport === undefined ? {} : { bugReport: event.bugReport }),
      };
  }
}

export function createElectronSnapshotClient(bridge: AllocscopeBridge): SnapshotClient {
  const listeners = createListenerSet<DecodeEvent>();
  // Dropped files without a path on disk are decoded in the page, like the web build does.
  const pageDecoder = createPageDecoder((event) => listeners.emit(event));
  // One bridge subscription for the page's lifetime, shared by every listener.
  let bridgeSubscribed = false;

  return {
    host: 'electron',
    showOpenDialog: () => bridge.showOpenDialog(),
    openFile(file) {
      if (!bridge.openDroppedFile(file)) pageDecoder.decode({ kind: 'file', file });
    },
    openDemo: () => bridge.openDemoSnapshot(),
    cancel(jobId) {
      if (pageDecoder.cancel(jobId)) return;
      if (!jobId.startsWith(MAIN_JOB_PREFIX)) return;
      const mainJobId = Number(jobId.slice(MAIN_JOB_PREFIX.length));
      if (Number.isSafeInteger(mainJobId)) bridge.cancelDecode(mainJobId);
    },
    subscribe(listener) {
      const remove = listeners.add(listener);
      if (!bridgeSubscribed) {
        bridge.onDecodeEvent((event) => listeners.emit(fromBridge(event)));
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
