// A worker thread of a parallel decode (issue 25; docs/parallel-decode.md): decodes one part of a
// snapshot held in shared memory and posts it, its columns transferred. Its workerData names the
// part; the bytes are the main thread's, not a copy.

import { parentPort, workerData } from 'node:worker_threads';
import { decodePartAt } from '@shared/snapshot/decode-in-parts';
import { packPart } from '@shared/snapshot/part-wire';
import type { PartJob, PartReply } from './decode-in-workers';
import { threadCpuSeconds } from './thread-cpu';

const job = workerData as PartJob;
const outcome = decodePartAt(new Uint8Array(job.buffer), job.starts, job.part);
if (outcome === null) {
  parentPort?.postMessage(null);
} else {
  const { part, transfer } = packPart(outcome.part);
  const reply: PartReply = { memoBase: outcome.memoBase, part, cpuSeconds: threadCpuSeconds() };
  parentPort?.postMessage(reply, transfer);
}
