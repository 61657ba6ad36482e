// A gzip file's ISIZE, read from its end without reading the rest: the last four bytes of its
// trailer, the unpacked size modulo 4 GiB. The decoder weighs it (src/shared/snapshot/
// unpacked-budget.ts) and checks it at the end; `ranks` sizes its worker threads by it.

import { readSync } from 'node:fs';

/** The smallest gzip file: a 10-byte header, an empty deflate block, the 8-byte trailer. */
const MIN_GZIP_BYTES = 18;

/** The ISIZE of the open file `fd` of `size` bytes, or null when it does not start as gzip does. */
export function gzipIsizeOf(fd: number, size: number): number | null {
  if (size < MIN_GZIP_BYTES) return null;
  const head = Buffer.alloc(2);
  if (readSync(fd, head, 0, 2, 0) !== 2 || head[0] !== 0x1f || head[1] !== 0x8b) return null;
  const trailer = Buffer.alloc(4);
  if (readSync(fd, trailer, 0, 4, size - 4) !== 4) return null;
  return trailer.readUInt32LE(0);
}
