// A picked file decoded on several Web Workers (issue 25; docs/parallel-decode.md), the page's
// counterpart of the CLI's worker threads (src/cli/decode-in-workers.ts), on the same shared code
// (src/shared/snapshot/part-job.ts, decode-in-parts.ts). This worker is the spine: it plans the
// parts, asks the page to start one worker per later part ('start-parts': a worker cannot start
// another from the page's inline script, whose blob: URL is gone once it runs), decodes the first
// part and takes the others in as they arrive on their ports. Each thread reads the file at
// offsets: a picked File (./blob-byte-source.ts), or a file `allocscope serve` serves, by range
// requests (./range-byte-source.ts). Null where the file cannot be cut or anything was not as
// planned (a part's worker lost, a read failed): the caller decodes it on one thread, so what a
// file decodes to, or why it is refused, never depends on the number of workers.

import type { ByteSource } from '@shared/pickle/byte-source';
import {
  joinParts,
  type PartOutcome,
  type PartScan,
  type SpineReports,
} from '@shared/snapshot/decode-in-parts';
import type { SnapshotModel } from '@shared/snapshot/model';
import { partPorts, planPartStarts, runPartJob } from '@shared/snapshot/part-job';
import { packPart, unpackPart } from '@shared/snapshot/part-wire';
import { blobByteSource } from './blob-byte-source';
import type { DecodeWorkerReply, PagePartJob, PartBytes } from './decode-worker-protocol';
import { rangeByteSource } from './range-byte-source';

/** What a part's worker sends the spine: its part (columns transferred), or null. */
type PartMessage = PartOutcome | null;

/** A decode in parts under way: its model (null: decode on one thread), and how to give it up. */
export interface PagePartsDecode {
  readonly model: Promise<SnapshotModel | null>;
  /** A part's worker was lost: every part not yet in is null, and the model with them. */
  lose(): void;
}

/**
 * How a thread reads the file at offsets: a File with FileReaderSync, a served file by range
 * requests (tests give the bytes). Null: it cannot here (not in a worker).
 */
export type PartReader = (bytes: PartBytes) => ByteSource | null;

export const readPartBytes: PartReader = (bytes) =>
  bytes instanceof Blob ? blobByteSource(bytes) : rangeByteSource(bytes.url, bytes.sizeBytes);

/** Null where the file decodes on one thread (fewer than 2 threads, not cut, no reader here). */
export function decodeInPageParts(
  bytes: PartBytes,
  threads: number,
  post: (reply: DecodeWorkerReply, transfer: Transferable[]) => void,
  reports: SpineReports,
  readerOf: PartReader = readPartBytes,
): PagePartsDecode | null {
  if (threads < 2) return null;
  const source = readerOf(bytes);
  if (source === null) return null;
  let starts: number[] | null;
  try {
    starts = planPartStarts(source, threads, 'search');
  } catch {
    return null; // unreadable: the serial decode says why, in its words
  }
  if (starts === null) return null;
  const ports = partPorts(starts.length, () => new MessageChannel());
  const toSpine = ports.map(() => new MessageChannel());
  const pending: (() => void)[] = [];
  const parts = toSpine.map(
    (channel) =>
      new Promise<PartOutcome | null>((settle) => {
        pending.push(() => settle(null));
        channel.port1.onmessage = (event: MessageEvent<PartMessage>) => {
          channel.port1.close();
          const reply = event.data;
          settle(
            reply === null ? null : { memoBase: reply.memoBase, part: unpackPart(reply.part) },
          );
        };
      }),
  );
  const jobs: PagePartJob[] = ports.map((own, index) => ({
    bytes,
    starts,
    part: index + 1,
    toLater: own.toLater,
    fromEarlier: own.fromEarlier,
    toSpine: toSpine[index]!.port2,
  }));
  post({ type: 'start-parts', jobs }, jobs.flatMap(portsOf));
  return {
    model: joinParts(source, starts, parts, reports),
    lose: () => pending.forEach((settle) => settle()),
  };
}

function portsOf(job: PagePartJob): Transferable[] {
  return [...job.toLater, ...job.fromEarlier, job.toSpine];
}

/** A part's worker: scans, sends the scan on, decodes its part and sends it to the spine. */
export async function runPagePart(
  job: PagePartJob,
  readerOf: PartReader = readPartBytes,
): Promise<void> {
  let source: ByteSource | null;
  try {
    source = readerOf(job.bytes);
  } catch {
    source = null;
  }
  // Every later part waits for this one's scan: it is sent, null or not.
  if (source === null) job.toLater.forEach((port) => port.postMessage(null));
  const outcome =
    source === null
      ? null
      : await runPartJob(
          source,
          job.starts,
          job.part,
          (scan) => job.toLater.forEach((port) => port.postMessage(scan)),
          job.fromEarlier.map(received),
        );
  if (outcome === null) {
    job.fromEarlier.forEach((port) => port.close());
    job.toSpine.postMessage(null);
    return;
  }
  const { part, transfer } = packPart(outcome.part);
  const reply: PartMessage = { memoBase: outcome.memoBase, part };
  job.toSpine.postMessage(reply, transfer);
}

/** The one scan an earlier part's worker sends on `port` (null: it could not scan its part). */
function received(port: MessagePort): Promise<PartScan | null> {
  return new Promise((settle) => {
    port.onmessage = (event: MessageEvent<PartScan | null>) => {
      port.close();
      settle(event.data);
    };
  });
}
