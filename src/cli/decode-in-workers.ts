// A snapshot file decoded on several worker threads (issue 25; docs/parallel-decode.md): the file
// is read into shared memory, cut into parts at trace entries, and each part but the first decodes
// on a worker of its own while this thread, the spine, decodes the first and takes the others in.
// Null where the file cannot be cut (gzip, JSON, protocol 2-3, few frames) or anything in a part
// was not as planned: the caller then decodes it on one thread, as always, so that what a file
// decodes to, or why it is refused, never depends on the number of workers.

import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { joinParts, type PartOutcome } from '@shared/snapshot/decode-in-parts';
import { unpackPart } from '@shared/snapshot/part-wire';
import type { SnapshotModel } from '@shared/snapshot/model';
import { planTraceSplit } from '@shared/snapshot/trace-split-plan';
import { threadCpuSeconds } from './thread-cpu';

/** A part's worker's answer: the part, and the CPU seconds its thread took (--timings). */
export interface PartReply extends PartOutcome {
  cpuSeconds: number;
}

/** A file decoded in parts: the model, and the CPU seconds of each thread, the spine's first. */
export interface DecodedInParts {
  model: SnapshotModel;
  threadCpuSeconds: number[];
}

/** What a part's worker is given. */
export interface PartJob {
  buffer: SharedArrayBuffer;
  starts: number[];
  part: number;
}

const PROTO = 0x80;
const READ_CHUNK_BYTES = 8 << 20;

/** Decodes the file's first `size` bytes on up to `jobs` threads; null: decode it on one. */
export async function decodeFileInParts(
  path: string,
  size: number,
  jobs: number,
): Promise<DecodedInParts | null> {
  const spineCpuBefore = threadCpuSeconds();
  const script = workerScript();
  if (script === null || jobs < 2) return null;
  // A pickle of protocol 4 or 5 (FRAME opcodes): gzip, HTML and JSON decode on one thread, and
  // are told from their first bytes before the file is read into memory (a 250 MB JSON file is
  // not held twice).
  const head = new Uint8Array(2);
  readInto(path, head);
  if (head[0] !== PROTO || head[1]! < 4) return null;
  const buffer = new SharedArrayBuffer(size);
  const bytes = new Uint8Array(buffer);
  readInto(path, bytes);
  const split = planTraceSplit(bytes, jobs);
  if (!('plan' in split) || split.plan.starts.length < 2) return null;
  const starts = split.plan.starts;
  const workers: Worker[] = [];
  const workerCpu: number[] = [];
  try {
    const parts = starts.slice(1).map((_, index) => {
      const worker = new Worker(script, { workerData: { buffer, starts, part: index + 1 } });
      workers.push(worker);
      return partOf(worker, (seconds) => (workerCpu[index] = seconds));
    });
    const model = await joinParts(bytes, starts, parts);
    if (model === null) return null;
    return { model, threadCpuSeconds: [threadCpuSeconds() - spineCpuBefore, ...workerCpu] };
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/** The worker's part; null when it failed in any way (the file then decodes on one thread). */
function partOf(worker: Worker, cpu: (seconds: number) => void): Promise<PartOutcome | null> {
  return new Promise((settle) => {
    worker.once('message', (reply: PartReply | null) => {
      if (reply === null) return settle(null);
      cpu(reply.cpuSeconds);
      settle({ memoBase: reply.memoBase, part: unpackPart(reply.part) });
    });
    worker.once('error', () => settle(null));
    worker.once('exit', () => settle(null));
  });
}

function readInto(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, 'r');
  try {
    for (let at = 0; at < bytes.length;) {
      const read = readSync(fd, bytes, at, Math.min(READ_CHUNK_BYTES, bytes.length - at), at);
      if (read === 0) throw new Error('the file became shorter while it was read');
      at += read;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The worker's script in out/cli: beside this code, or one folder up when the bundler put this
 * code in a shared chunk (out/cli/assets); absent when run from the sources (tests).
 */
function workerScript(): string | null {
  for (const relative of ['./decode-part-worker.js', '../decode-part-worker.js']) {
    const script = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(script)) return script;
  }
  return null;
}
