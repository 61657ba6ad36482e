// A served file read at offsets, synchronously, in a Web Worker: the ByteSource of a decode in
// parts of a file `allocscope serve` serves (it answers byte ranges), as ./blob-byte-source.ts is
// for a picked File. Each read is a synchronous range request (allowed in a worker, never on the
// page's thread), in the windows the page's reads share (COSTLY_READ_WINDOWS). An answer that is not the range asked for
// (another status, another Content-Range, a file of another size) throws: the decode in parts
// gives up and the file is decoded on one thread as a stream, which says what is wrong.

import { COSTLY_READ_WINDOWS, windowedSource, type ByteSource } from '@shared/pickle/byte-source';
import { exactChunks } from './stream-chunks';

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
  /** Streams long sequential reads (null: they are range requests of 8 MiB windows too). */
  fetchStream: typeof fetch | null = typeof fetch === 'undefined' ? null : fetch,
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
      ...(fetchStream === null ? {} : { chunks: streamRange(url, size, fetchStream) }),
    },
    COSTLY_READ_WINDOWS,
  );
}

/** Long sequential reads of a served file as range requests streamed beside the decode. */
function streamRange(
  url: string,
  size: number,
  fetchStream: typeof fetch,
): (from: number, to: number) => AsyncGenerator<Uint8Array> {
  return async function* (from, to) {
    const end = Math.min(size, to);
    if (end <= from) return;
    const response = await fetchStream(url, { headers: { Range: `bytes=${from}-${end - 1}` } });
    const range = response.headers.get('Content-Range');
    if (response.status !== 206 || range !== `bytes ${from}-${end - 1}/${size}` || !response.body) {
      await response.body?.cancel();
      throw new Error(`the server answered ${response.status} (${range ?? 'no range'})`);
    }
    yield* exactChunks(response.body, end - from);
  };
}
