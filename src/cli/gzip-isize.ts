// A gzip file's ISIZE, read from its end without reading the rest: the unpacked size modulo 4 GiB.
// The decoder weighs it (src/shared/snapshot/unpacked-budget.ts) and checks it at the end;
// `ranks` sizes its worker threads by it.

import { readSync } from 'node:fs';
import { gzipIsizeFrom, MIN_GZIP_BYTES } from '@shared/snapshot/gzip-stream';

/** The ISIZE of the open file `fd` of `size` bytes, or null when it does not start as gzip does. */
export function gzipIsizeOf(fd: number, size: number): number | null {
  if (size < MIN_GZIP_BYTES) return null;
  const head = Buffer.alloc(2);
  const tail = Buffer.alloc(4);
  if (readSync(fd, head, 0, 2, 0) !== 2 || readSync(fd, tail, 0, 4, size - 4) !== 4) return null;
  return gzipIsizeFrom(head, tail);
}
