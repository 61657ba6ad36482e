// A File read at offsets, synchronously, in a Web Worker: the page's ByteSource for a decode in
// parts (src/shared/pickle/byte-source.ts), as the CLI's threads read at offsets in a file. Each
// thread reads only what it scans and decodes (File.slice, FileReaderSync: a slice is a view of
// the file on disk, not a copy), so no worker holds the file whole. FileReaderSync exists only in
// workers: elsewhere there is none, and the file decodes on one thread as a stream.

import { COSTLY_READ_WINDOWS, windowedSource, type ByteSource } from '@shared/pickle/byte-source';

interface FileReaderSyncLike {
  readAsArrayBuffer(blob: Blob): ArrayBuffer;
}

/** The worker's FileReaderSync (the renderer's lib is DOM, which does not declare it). */
function fileReaderSync(): FileReaderSyncLike | null {
  const Reader = (globalThis as { FileReaderSync?: new () => FileReaderSyncLike }).FileReaderSync;
  return Reader === undefined ? null : new Reader();
}

/** Null outside a worker. A read of a file changed or gone meanwhile throws (NotReadableError). */
export function blobByteSource(blob: Blob): ByteSource | null {
  const reader = fileReaderSync();
  if (reader === null) return null;
  return windowedSource(
    {
      size: blob.size,
      read(offset, length) {
        const end = Math.min(blob.size, offset + length);
        if (end <= offset) return new Uint8Array(0);
        return new Uint8Array(reader.readAsArrayBuffer(blob.slice(offset, end)));
      },
    },
    COSTLY_READ_WINDOWS,
  );
}
