// Inputs read as a thread that does not hold them reads them (ByteSource without `whole`): each
// read a fresh copy, and every read counted, so tests can see what was read.

import type { ByteSource } from '../../src/shared/pickle/byte-source';

export interface CountedSource extends ByteSource {
  /** Bytes read so far, and the largest single read. */
  readonly counts: { bytes: number; largest: number };
}

export function fileLikeSource(bytes: Uint8Array): CountedSource {
  const counts = { bytes: 0, largest: 0 };
  return {
    size: bytes.length,
    counts,
    read(offset, length) {
      const copy = bytes.slice(offset, Math.min(bytes.length, offset + length));
      counts.bytes += copy.length;
      counts.largest = Math.max(counts.largest, copy.length);
      return copy;
    },
  };
}

export interface StreamedSource extends CountedSource {
  /** Bytes streamed so far (ByteSource.chunks), and how many streams were left before their end. */
  readonly streamed: { bytes: number; cancelled: number };
}

/**
 * fileLikeSource whose sequential reads may also stream (ByteSource.chunks, as the page's do), in
 * chunks of `chunkBytes` that cut opcodes anywhere, each one awaited as a stream's read is.
 */
export function streamedSource(bytes: Uint8Array, chunkBytes: number): StreamedSource {
  const streamed = { bytes: 0, cancelled: 0 };
  return {
    ...fileLikeSource(bytes),
    streamed,
    async *chunks(from, to) {
      const end = Math.min(bytes.length, to);
      let at = from;
      try {
        while (at < end) {
          await Promise.resolve();
          const chunk = bytes.slice(at, Math.min(end, at + chunkBytes));
          at += chunk.length;
          streamed.bytes += chunk.length;
          yield chunk;
        }
      } finally {
        if (at < end) streamed.cancelled++;
      }
    },
  };
}
