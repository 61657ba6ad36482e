// The worker threads of `allocscope ranks`: each takes the next file from a shared queue until it
// is empty, one file at a time. Each worker has one 'message', one 'error' and one 'exit' listener
// for its whole life, answering the file it was sent: listeners added per file piled up (500
// files: a MaxListenersExceededWarning on stderr for every eleventh). A worker that fails (an
// uncaught error, an exit) answers its file as a bug and takes no more.

import { Worker } from 'node:worker_threads';
import type { RankReply } from './read-rank-figures';
import type { ReadSnapshotOptions } from './read-snapshot-file';

export async function readInWorkers(
  script: string,
  paths: readonly string[],
  workers: number,
  options: ReadSnapshotOptions = {},
): Promise<RankReply[]> {
  const queue = [...paths];
  const replies: RankReply[] = [];
  await Promise.all(
    Array.from({ length: Math.min(workers, paths.length) }, async () => {
      const worker = new RankWorker(script, options);
      try {
        for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
          const reply = await worker.read(path);
          replies.push(reply);
          if ('bug' in reply) break;
        }
      } finally {
        await worker.terminate();
      }
    }),
  );
  return replies;
}

class RankWorker {
  private readonly worker: Worker;
  private pending: { path: string; answer: (reply: RankReply) => void } | null = null;
  private failure: string | null = null;

  constructor(script: string, options: ReadSnapshotOptions) {
    // workerData: how each file is read (--max-memory).
    this.worker = new Worker(script, { workerData: options });
    this.worker.on('message', (reply: RankReply) => this.settle(reply));
    this.worker.on('error', (error) => this.fail(String(error)));
    this.worker.on('exit', (code) => this.fail(`the worker thread exited (code ${code})`));
  }

  read(path: string): Promise<RankReply> {
    if (this.failure !== null) return Promise.resolve({ path, bug: this.failure });
    return new Promise((answer) => {
      this.pending = { path, answer };
      this.worker.postMessage(path);
    });
  }

  terminate(): Promise<number> {
    this.failure ??= 'terminated';
    return this.worker.terminate();
  }

  private settle(reply: RankReply): void {
    const pending = this.pending;
    this.pending = null;
    pending?.answer(reply);
  }

  private fail(message: string): void {
    this.failure ??= message;
    if (this.pending !== null) this.settle({ path: this.pending.path, bug: this.failure });
  }
}
