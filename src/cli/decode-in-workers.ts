// A snapshot file decoded on several worker threads (issue 25; docs/parallel-decode.md): the file
// is cut into parts at trace entries, and each part but the first decodes on a worker of its own
// while this thread, the spine, decodes the first and takes the others in. Every thread reads the
// file itself, at offsets (file-byte-source.ts): none holds it whole.
// Null where the file cannot be cut (gzip, JSON, protocol 2-3, few frames) or anything in a part
// was not as planned: the caller then decodes it on one thread, as always, so that what a file
// decodes to, or why it is refused, never depends on the number of workers.

import { closeSync, existsSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import type { ByteSource } from '@shared/pickle/byte-source';
import type { DecodeProgress } from '@shared/snapshot/decode-snapshot';
import { joinParts, type PartOutcome } from '@shared/snapshot/decode-in-parts';
import { partPorts, planPartStarts } from '@shared/snapshot/part-job';
import { unpackPart } from '@shared/snapshot/part-wire';
import type { SnapshotModel } from '@shared/snapshot/model';
import { fileByteSource } from './file-byte-source';
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
  /** The main thread's descriptor of the file, open until the workers have ended. */
  fd: number;
  size: number;
  starts: number[];
  part: number;
  /** Where it sends its scan (of the part before its own): to each later worker. */
  toLater: MessagePort[];
  /** Where the scans of the earlier parts but the last come from: each earlier worker. */
  fromEarlier: MessagePort[];
}

/** Decodes the file's first `size` bytes on up to `jobs` threads; null: decode it on one. */
export async function decodeFileInParts(
  path: string,
  size: number,
  jobs: number,
  onProgress?: (progress: DecodeProgress) => void,
): Promise<DecodedInParts | null> {
  const spineCpuBefore = threadCpuSeconds();
  const script = workerScript();
  if (script === null || jobs < 2) return null;
  const fd = openSync(path, 'r');
  try {
    const source = fileByteSource(fd, size);
    return await decodeWithWorkers(source, fd, jobs, script, spineCpuBefore, onProgress);
  } finally {
    closeSync(fd);
  }
}

async function decodeWithWorkers(
  source: ByteSource,
  fd: number,
  jobs: number,
  script: string,
  spineCpuBefore: number,
  onProgress?: (progress: DecodeProgress) => void,
): Promise<DecodedInParts | null> {
  const starts = planPartStarts(source, jobs);
  if (starts === null) return null;
  const size = source.size;
  const workers: Worker[] = [];
  const workerCpu: number[] = [];
  try {
    const parts = partPorts(starts.length, () => new MessageChannel()).map((ports, index) => {
      const job: PartJob = { fd, size, starts, part: index + 1, ...ports };
      const worker = new Worker(script, {
        workerData: job,
        transferList: [...ports.toLater, ...ports.fromEarlier],
      });
      workers.push(worker);
      return partOf(worker, (seconds) => (workerCpu[index] = seconds));
    });
    const model = await joinParts(source, starts, parts, {
      onProgress: (bytesRead) => onProgress?.({ phase: 'reading', bytesRead, totalBytes: size }),
    });
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
