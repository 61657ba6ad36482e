// A File read at offsets, synchronously, in a Web Worker: the page's ByteSource for a decode in
// parts (src/shared/pickle/byte-source.ts), as the CLI's threads read at offsets in a file; its
// long sequential reads as streams (ByteSource.chunks). Each
// thread reads only what it scans and decodes (File.slice, FileReaderSync: a slice is a view of
// the file on disk, not a copy), so no worker holds the file whole. FileReaderSync exists only in
// workers: elsewhere there is none, and the file decodes on one thread as a stream.

import { COSTLY_READ_WINDOWS, windowedSource, type ByteSource } from '@shared/pickle/byte-source';
import { exactChunks } from './stream-chunks';

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
      // Sequential reads (the spine's part, a part's scan and decode) as a stream: the browser
      // reads it beside the decode, where each read above blocks the worker for milliseconds.
      chunks(from, to) {
        const end = Math.min(blob.size, to);
        return exactChunks(blob.slice(from, end).stream(), Math.max(0, end - from));
      },
    },
    COSTLY_READ_WINDOWS,
  );
}
