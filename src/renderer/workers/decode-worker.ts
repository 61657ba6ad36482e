// The page's decoder: a Web Worker (bundled inline, so it also starts from a page opened from
// disk) that streams one File through the shared decoder and posts the view back with its typed
// arrays transferred. The page never parses; cancelling terminates the worker.

import { decodeSnapshot } from '@shared/snapshot/decode-snapshot';
import { buildSnapshotView, transferablesOf } from '@shared/view/snapshot-view';
import type { DecodeWorkerReply, DecodeWorkerRequest } from './decode-worker-protocol';
import { classifyDecodeError } from '@shared/snapshot/describe-decode-error';

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

async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Stopped early (bad data, bytes after STOP): stop reading the file.
    await reader.cancel().catch(() => {});
  }
}

async function decode({ file }: DecodeWorkerRequest): Promise<void> {
  const totalBytes = file.size;
  let lastPostedAt = -Infinity;
  let lastStage = '';
  const model = await decodeSnapshot(chunksOf(file.stream()), {
    totalBytes,
    onProgress({ phase, bytesRead }) {
      const now = performance.now();
      if (phase === lastStage && now - lastPostedAt < PROGRESS_INTERVAL_MS) return;
      lastPostedAt = now;
      lastStage = phase;
      post({ type: 'progress', stage: phase, bytesRead, totalBytes });
    },
  });
  post({ type: 'progress', stage: 'analyzing', bytesRead: totalBytes, totalBytes });
  const view = buildSnapshotView(model, { fileName: file.name, fileBytes: totalBytes });
  post({ type: 'done', view }, transferablesOf(view));
}

scope.onmessage = (event) => {
  decode(event.data).catch((error: unknown) => {
    const failure = classifyDecodeError(error);
    post({
      type: 'failed',
      message: failure.message,
      ...(failure.kind === 'bug' ? { bugReport: failure.report } : {}),
    });
  });
};
