// A worker thread of a parallel decode (issue 25; docs/parallel-decode.md). Worker k first scans
// the memo of part k - 1 and sends the scan to every later worker (they scan theirs side by side);
// once it has the scans of every part before its own, it decodes part k and posts it to the main
// thread, its columns transferred. Its workerData names the part and the main thread's descriptor
// of the file, which it reads at offsets (file-byte-source.ts): the part before its own to scan
// it, its own to decode it, and the objects of earlier parts its part names.

import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { PartScan } from '@shared/snapshot/decode-in-parts';
import { runPartJob } from '@shared/snapshot/part-job';
import { packPart } from '@shared/snapshot/part-wire';
import type { PartJob, PartReply } from './decode-in-workers';
import { fileByteSource } from './file-byte-source';
import { threadCpuSeconds } from './thread-cpu';

const job = workerData as PartJob;
const bytes = fileByteSource(job.fd, job.size);

void runPartJob(
  bytes,
  job.starts,
  job.part,
  (scan) => {
    for (const port of job.toLater) port.postMessage(scan);
  },
  job.fromEarlier.map(received),
).then((outcome) => {
  if (outcome === null) return parentPort?.postMessage(null);
  const { part, transfer } = packPart(outcome.part);
  const reply: PartReply = { memoBase: outcome.memoBase, part, cpuSeconds: threadCpuSeconds() };
  parentPort?.postMessage(reply, transfer);
});

/** The one scan an earlier worker sends on `port` (null: it could not scan its part). */
function received(port: MessagePort): Promise<PartScan | null> {
  return new Promise((settle) =>
    port.once('message', (scan: PartScan | null) => {
      port.close();
      settle(scan);
    }),
  );
}
