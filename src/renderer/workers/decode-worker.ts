// The page's decoder, in both builds: a Web Worker (bundled inline, so it also starts from a page
// opened from disk) that streams one file through the shared decoder and posts the snapshot back
// with its typed arrays transferred. The file comes as a File (web build, a File dropped in
// Electron without a path) or as a URL to fetch (Electron's hand-over, the web build's demo);
// ./snapshot-source.ts makes either a stream, and from there on the path is one. The page never
// parses; cancelling terminates the worker, which aborts its fetch.

import { frameLabelTablesOf } from '@shared/analysis/label-tables';
import { buildAnalyzedSnapshotData, transferablesOf } from '@shared/analyzed/analyzed-snapshot';
import { decodeSnapshot } from '@shared/snapshot/decode-snapshot';
import { classifyDecodeError } from '@shared/snapshot/describe-decode-error';
import type { DecodeWorkerReply, DecodeWorkerRequest } from './decode-worker-protocol';
import { pageMemoryLimit } from './page-memory-limit';
import { openSnapshotSource, ReportedBug } from './snapshot-source';
import { withMemoryTimeline } from './with-memory-timeline';

// Each progress message re-renders the page, on the cores the decoder needs: ten a second is
// enough for a progress bar.
const PROGRESS_INTERVAL_MS = 100;

/** The slice of DedicatedWorkerGlobalScope used here (the renderer's lib is DOM, not WebWorker). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<DecodeWorkerRequest>) => void) | null;
  postMessage(message: DecodeWorkerReply, transfer?: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;

function post(message: DecodeWorkerReply, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

async function decode(request: DecodeWorkerRequest): Promise<void> {
  const { fileName, totalBytes, chunks, gzipIsize } = await openSnapshotSource(request);
  let bytesRead = 0;
  let lastPostedAt = -Infinity;
  let lastStage = '';
  const decoded = await decodeSnapshot(chunks, {
    ...(totalBytes === null ? {} : { totalBytes }),
    memoryLimit: pageMemoryLimit(),
    gzipIsize,
    onProgress(progress) {
      bytesRead = progress.bytesRead;
      const now = performance.now();
      if (progress.phase === lastStage && now - lastPostedAt < PROGRESS_INTERVAL_MS) return;
      lastPostedAt = now;
      lastStage = progress.phase;
      post({ type: 'progress', stage: progress.phase, bytesRead, totalBytes });
    },
  });
  const model =
    request.kind === 'file' && request.memoryTimeline !== undefined
      ? await withMemoryTimeline(decoded, request.memoryTimeline, pageMemoryLimit())
      : decoded;
  const fileBytes =
    (request.kind === 'file' ? request.originalBytes : undefined) ?? totalBytes ?? bytesRead;
  post({ type: 'progress', stage: 'analyzing', bytesRead: fileBytes, totalBytes: fileBytes });
  const snapshot = buildAnalyzedSnapshotData(model, { fileName, fileBytes });
  // Every stack labelled here, not on the page's thread: frame names may be megabytes long.
  snapshot.labels = frameLabelTablesOf(snapshot);
  post({ type: 'done', snapshot }, transferablesOf(snapshot));
}

scope.onmessage = (event) => {
  decode(event.data).catch((error: unknown) => {
    if (error instanceof ReportedBug) {
      post({ type: 'failed', message: error.message, bugReport: error.bugReport });
      return;
    }
    const failure = classifyDecodeError(error);
    post({
      type: 'failed',
      message: failure.message,
      ...(failure.kind === 'bug' ? { bugReport: failure.report } : {}),
    });
  });
};
