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
