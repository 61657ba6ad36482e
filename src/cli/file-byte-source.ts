// A file read at offsets, synchronously, as a parallel decode's threads read it (ByteSource,
// src/shared/pickle/byte-source.ts): each thread reads only what it decodes or scans, so no
// thread holds the file whole. The main thread opens the file once and its workers read through
// the same descriptor (descriptors belong to the process; positioned reads do not move a shared
// position), so it alone closes it, after the workers have ended. Only the first `size` bytes are
// read: a file that grows while it is decoded is read to the size seen when it was opened.

import { readSync } from 'node:fs';
import type { ByteSource } from '@shared/pickle/byte-source';

export function fileByteSource(fd: number, size: number): ByteSource {
  return {
    size,
    read(offset, length) {
      const bytes = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
      for (let at = 0; at < bytes.length;) {
        const read = readSync(fd, bytes, at, bytes.length - at, offset + at);
        if (read === 0) return bytes.subarray(0, at);
        at += read;
      }
      return bytes;
    },
  };
}
