import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chunksOf, decodeBytes } from '../support/analyzed';
import { CurvePreview, type CurvePreviewData } from '../../src/shared/analysis/curve-preview';
import { decodeSnapshot } from '../../src/shared/snapshot/decode-snapshot';
import type { TraceRowsSoFar } from '../../src/shared/snapshot/trace-table-builder';
import { fileLikeSource, streamedSource, type StreamedSource } from '../support/byte-sources';
import { realSnapshotPaths } from '../support/real-snapshots';
import {
  decodeInPageParts,
  runPagePart,
  type PartReader,
} from '../../src/renderer/workers/decode-in-page-parts';
import type {
  DecodeWorkerReply,
  PagePartJob,
} from '../../src/renderer/workers/decode-worker-protocol';

// The page's decode in parts, its workers played on this thread: the spine posts 'start-parts'
// as the page's decode worker does, and each job runs as a part's worker runs it, the two
// talking only through the MessagePorts the spine made. What it decodes must equal the serial
// decoder's model; anything lost must end in null (the worker then decodes on one thread), never
// in a wait that does not end.

const FILES = ['LINYUNLinYun', 'kkaitlyn111', 'Maphsge4'].map((prefix) =>
  realSnapshotPaths().find((path) => basename(path).startsWith(prefix))!,
);

/**
 * Each Blob read as a thread that does not hold it reads it: a copy per read; with `chunkBytes`,
 * its sequential reads streamed in chunks of that size, as a File's are (ByteSource.chunks).
 */
function readerFor(
  bytes: Uint8Array,
  chunkBytes?: number,
): { blob: Blob; readerOf: PartReader; streamed: () => number } {
  const blob = new Blob([new Uint8Array(bytes)]);
  const sources: StreamedSource[] = [];
  const readerOf: PartReader = (file) => {
    if (file !== blob) return null;
    if (chunkBytes === undefined) return fileLikeSource(bytes);
    const source = streamedSource(bytes, chunkBytes);
    sources.push(source);
    return source;
  };
  return {
    blob,
    readerOf,
    streamed: () => sources.reduce((sum, source) => sum + source.streamed.bytes, 0),
  };
}

/** The page's part: each job run as its own worker would, once the spine asks. */
function playPage(
  partReader: PartReader,
  started: PagePartJob[][] = [],
): (reply: DecodeWorkerReply) => void {
  return (reply) => {
    if (reply.type !== 'start-parts') throw new Error(`unexpected ${reply.type}`);
    started.push([...reply.jobs]);
    for (const job of reply.jobs) setTimeout(() => void runPagePart(job, partReader), 0);
  };
}

/** The curves drawn as the serial decoder reads the file, after its last byte. */
async function serialCurves(bytes: Uint8Array): Promise<CurvePreviewData> {
  let rows: TraceRowsSoFar | null = null;
  await decodeSnapshot(chunksOf(bytes, 1 << 16), { onTraceRows: (soFar) => (rows = soFar) });
  const curves = new CurvePreview();
  curves.follow(rows!);
  return curves.data();
}

describe("the page's decode in parts", () => {
  it.each(FILES.map((path) => [basename(path).split('_')[0]!, path]))(
    'gives the serial model at 2 and 5 threads, read at offsets or streamed (%s)',
    async (_name, path) => {
      const bytes = new Uint8Array(readFileSync(path));
      const serial = await decodeBytes(bytes);
      // 5 threads: sequential reads streamed in chunks of 4,099 bytes, which cut opcodes.
      for (const [threads, chunkBytes] of [
        [2, undefined],
        [5, 4099],
      ] as const) {
        const { blob, readerOf, streamed } = readerFor(bytes, chunkBytes);
        const started: PagePartJob[][] = [];
        let progress = 0;
        let spineRows: TraceRowsSoFar | null = null;
        const curves = new CurvePreview();
        const decode = decodeInPageParts(
          blob,
          threads,
          playPage(readerOf, started),
          {
            onProgress: (bytesDecoded) => {
              progress = bytesDecoded;
              if (spineRows !== null) curves.follow(spineRows);
            },
            onTraceRows: (rows) => (spineRows = rows),
          },
          readerOf,
        );
        expect(decode, `${threads} threads`).not.toBeNull();
        const model = await decode!.model;
        expect(model, `${threads} threads fell back`).toEqual(serial);
        // The curves drawn as it decodes, followed on the spine's rows (the parts' rows come with
        // each take-in), end as those of the serial decode.
        curves.follow(spineRows!);
        expect(curves.data()).toEqual(await serialCurves(bytes));
        // One worker per later part, asked for once; the spine reported passing the last part.
        expect(started).toHaveLength(1);
        expect(started[0]!.map((job) => job.part)).toEqual(
          Array.from({ length: started[0]!.length }, (_, index) => index + 1),
        );
        expect(started[0]!.length).toBeGreaterThanOrEqual(1);
        expect(started[0]!.length).toBeLessThan(threads);
        expect(progress).toBeGreaterThan(started[0]!.at(-1)!.starts.at(-1)!);
        // Streamed: the spine's part, each part's count of the one before, each part's own.
        if (chunkBytes !== undefined) expect(streamed()).toBeGreaterThan(bytes.length * 0.9);
      }
    },
  );

  it('ends in null when a part cannot read the file (no wait that does not end)', async () => {
    const bytes = new Uint8Array(readFileSync(FILES[0]!));
    const { blob, readerOf } = readerFor(bytes);
    // The spine reads; the parts' workers find no FileReaderSync.
    const decode = decodeInPageParts(
      blob,
      3,
      playPage(() => null),
      {},
      readerOf,
    );
    expect(await decode!.model).toBeNull();
  });

  it("ends in null when the page says a part's worker was lost", async () => {
    const bytes = new Uint8Array(readFileSync(FILES[0]!));
    const { blob, readerOf } = readerFor(bytes);
    // The page started no worker (as when one failed to load): it says so.
    const lost = (): void => queueMicrotask(() => decode?.lose());
    const decode = decodeInPageParts(blob, 3, lost, {}, readerOf);
    expect(await decode!.model).toBeNull();
  });

  it('leaves what cannot be cut to the serial decoder', () => {
    const bytes = new Uint8Array(readFileSync(FILES[0]!));
    const never = (): void => {
      throw new Error('no part may start');
    };
    const gzip = readerFor(new Uint8Array(gzipSync(bytes)));
    expect(decodeInPageParts(gzip.blob, 3, never, {}, gzip.readerOf)).toBeNull();
    const plain = readerFor(bytes);
    expect(decodeInPageParts(plain.blob, 1, never, {}, plain.readerOf)).toBeNull();
    // Outside a worker (no FileReaderSync): one thread.
    expect(decodeInPageParts(plain.blob, 3, never, {})).toBeNull();
  });
});
