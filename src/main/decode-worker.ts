// A worker_threads entry (built as its own chunk via `?nodeWorker`): decodes one snapshot file
// off the main thread, so the menus and windows stay responsive, and posts the view back with
// its typed arrays transferred rather than copied.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { decodeSnapshot } from '@shared/snapshot/decode-snapshot';
import { buildSnapshotView, transferablesOf } from '@shared/view/snapshot-view';
import { classifyDecodeError } from '@shared/snapshot/describe-decode-error';
import type { DecodeWorkerInput, DecodeWorkerMessage } from './decode-worker-protocol';
import { throttleProgress } from './progress-throttle';
import { assertRegularFile } from '@shared/snapshot/regular-file';

type ProgressMessage = Extract<DecodeWorkerMessage, { type: 'progress' }>;

const READ_CHUNK_BYTES = 1 << 20;
const PROGRESS_INTERVAL_MS = 50;

const port = parentPort;
if (port === null) throw new Error('decode-worker must run as a worker thread');

function post(message: DecodeWorkerMessage, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(message, transfer);
}

async function decodeFile({ path }: DecodeWorkerInput): Promise<void> {
  const info = await stat(path);
  // Before opening it: opening a FIFO would block this worker until something writes to it.
  assertRegularFile(info);
  const progress = throttleProgress<ProgressMessage>(
    (message) => post(message),
    PROGRESS_INTERVAL_MS,
  );
  const stream = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
  const model = await decodeSnapshot(stream as AsyncIterable<Uint8Array>, {
    totalBytes: info.size,
    onProgress: ({ phase, bytesRead, totalBytes }) =>
      progress({ type: 'progress', stage: phase, bytesRead, totalBytes }),
  });
  progress({ type: 'progress', stage: 'analyzing', bytesRead: info.size, totalBytes: info.size });
  const view = buildSnapshotView(model, { fileName: basename(path), fileBytes: info.size });
  post({ type: 'done', view }, transferablesOf(view));
}

decodeFile(workerData as DecodeWorkerInput).catch((error: unknown) => {
  const failure = classifyDecodeError(error);
  post({
    type: 'failed',
    message: failure.message,
    ...(failure.kind === 'bug' ? { bugReport: failure.report } : {}),
  });
});
