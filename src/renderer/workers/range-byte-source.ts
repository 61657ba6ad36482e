// A served file read at offsets, synchronously, in a Web Worker: the ByteSource of a decode in
// parts of a file `allocscope serve` serves (it answers byte ranges), as ./blob-byte-source.ts is
// for a picked File. Each read is a synchronous range request (allowed in a worker, never on the
// page's thread), in the windows the page's reads share (COSTLY_READ_WINDOWS). An answer that is not the range asked for
// (another status, another Content-Range, a file of another size) throws: the decode in parts
// gives up and the file is decoded on one thread as a stream, which says what is wrong.

import { COSTLY_READ_WINDOWS, windowedSource, type ByteSource } from '@shared/pickle/byte-source';

/** The slice of XMLHttpRequest used (a worker's, synchronous). */
export interface SyncRequest {
  open(method: 'GET', url: string, async: false): void;
  responseType: XMLHttpRequestResponseType;
  setRequestHeader(name: string, value: string): void;
  send(): void;
  readonly status: number;
  readonly response: unknown;
  getResponseHeader(name: string): string | null;
}

/** Null where there is no XMLHttpRequest (not a browser). */
export function rangeByteSource(
  url: string,
  size: number,
  newRequest: (() => SyncRequest) | null = typeof XMLHttpRequest === 'undefined'
    ? null
    : () => new XMLHttpRequest() as SyncRequest,
): ByteSource | null {
  if (newRequest === null) return null;
  const fetchRange = (offset: number, length: number): Uint8Array => {
    const last = offset + length - 1;
    const request = newRequest();
    request.open('GET', url, false);
    request.responseType = 'arraybuffer';
    request.setRequestHeader('Range', `bytes=${offset}-${last}`);
    request.send();
    const range = request.getResponseHeader('Content-Range');
    if (request.status !== 206 || range !== `bytes ${offset}-${last}/${size}`)
      throw new Error(`the server answered ${request.status} (${range ?? 'no range'})`);
    const bytes = new Uint8Array(request.response as ArrayBuffer);
    if (bytes.length !== length) throw new Error('the server sent another length');
    return bytes;
  };
  return windowedSource(
    {
      size,
      read(offset, length) {
        const end = Math.min(size, offset + length);
        return end <= offset ? new Uint8Array(0) : fetchRange(offset, end - offset);
      },
    },
    COSTLY_READ_WINDOWS,
  );
}
