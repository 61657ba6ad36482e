import createDecodeWorker from './decode-worker?nodeWorker';
import type { DecodeWorkerInput, DecodeWorkerMessage } from './decode-worker-protocol';
import type { DecodeWorkerEvents, DecodeWorkerHandle } from './decode-service';

/** Runs src/main/decode-worker.ts in a worker thread for one file. */
export function startDecodeWorker(path: string, events: DecodeWorkerEvents): DecodeWorkerHandle {
  const workerData: DecodeWorkerInput = { path };
  const worker = createDecodeWorker({ workerData });
  let settled = false;
  worker.on('message', (message: DecodeWorkerMessage) => {
    if (message.type !== 'progress') settled = true;
    events.message(message);
  });
  worker.on('error', (error) => {
    if (settled) return;
    settled = true;
    events.crashed(error);
  });
  worker.on('exit', (code) => {
    if (settled) return;
    settled = true;
    events.crashed(new Error(`exit code ${code}`));
  });
  return {
    terminate() {
      settled = true;
      void worker.terminate();
    },
  };
}
