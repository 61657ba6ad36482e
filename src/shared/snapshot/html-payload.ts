// The pickle inside the HTML page that `torch.cuda._memory_viz trace_plot` writes: the page's
// script holds `[{"name": "snapshot.pickle", "base64": "<payload>"}]` near its top. The page is
// streamed: the key is looked for in the first MiB only, and the payload is decoded from base64
// chunk by chunk as it arrives, so a page of any size takes memory for one chunk, not the page.

import { Base64StreamDecoder } from './base64';
import { SnapshotFormatError } from './snapshot-error';

/** The key is this close to the start in every page _memory_viz writes (a few hundred bytes). */
const KEY_SEARCH_BYTES = 1 << 20;
const BASE64_KEY = new TextEncoder().encode('"base64"');
const QUOTE = 0x22;

export async function* pickleFromHtml(
  source: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  try {
    const start = await findPayloadStart(iterator);
    const decoder = new Base64StreamDecoder();
    let first = true;
    let offset = start.offset;
    let chunk: Uint8Array | null = start.rest;
    for (;;) {
      if (chunk !== null) {
        const quote = chunk.indexOf(QUOTE);
        const text = quote < 0 ? chunk : chunk.subarray(0, quote);
        // The bytes before a bad character go to the reader first: when the pickle ends there,
        // what follows does not matter, however the page was cut into chunks.
        const decoded = decoder.decodeUntilInvalid(text);
        if (decoded.length > 0) {
          if (first && decoded[0] !== 0x80) {
            throw new SnapshotFormatError('the snapshot embedded in the HTML page is not a pickle');
          }
          first = false;
          yield decoded;
        }
        if (decoder.badIndex >= 0) {
          throw new SnapshotFormatError(
            `the snapshot embedded in the HTML page is not valid base64 (character 0x${text[decoder.badIndex]!.toString(16).padStart(2, '0')})`,
            offset + decoder.badIndex,
          );
        }
        offset += text.length;
        if (quote >= 0) break;
      }
      const next = await iterator.next();
      if (next.done === true) {
        throw new SnapshotFormatError(
          'the HTML page ends inside the embedded snapshot (truncated page?)',
        );
      }
      chunk = next.value;
    }
    if (first) throw new SnapshotFormatError('the snapshot embedded in the HTML page is empty');
  } finally {
    await iterator.return?.();
  }
}

interface PayloadStart {
  /** The page's bytes from the payload's first character on, as far as they were read. */
  rest: Uint8Array;
  /** Where `rest` starts in the page. */
  offset: number;
}

/** Reads the page until `"base64": "` is found within its first MiB. */
async function findPayloadStart(iterator: AsyncIterator<Uint8Array>): Promise<PayloadStart> {
  let head = new Uint8Array(0);
  for (;;) {
    const found = payloadStartIn(head);
    if (found >= 0) return { rest: head.subarray(found), offset: found };
    if (head.length >= KEY_SEARCH_BYTES) break;
    const next = await iterator.next();
    if (next.done === true) break;
    const joined = new Uint8Array(head.length + next.value.length);
    joined.set(head);
    joined.set(next.value, head.length);
    head = joined;
  }
  throw new SnapshotFormatError(
    'an HTML page without an embedded snapshot (expected the page written by torch.cuda._memory_viz trace_plot)',
  );
}

/** Index of the payload's first character after `"base64": "` in `page`, or -1. */
function payloadStartIn(page: Uint8Array): number {
  const keyAt = indexOfBytes(page, BASE64_KEY);
  if (keyAt < 0) return -1;
  let i = skipSpace(page, keyAt + BASE64_KEY.length);
  if (i >= page.length || page[i] !== 0x3a /* : */) return -1;
  i = skipSpace(page, i + 1);
  if (i >= page.length || page[i] !== QUOTE) return -1;
  return i + 1;
}

function skipSpace(page: Uint8Array, from: number): number {
  let i = from;
  while (
    i < page.length &&
    (page[i] === 0x20 || page[i] === 0x0a || page[i] === 0x0d || page[i] === 0x09)
  )
    i++;
  return i;
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  const first = needle[0]!;
  for (let i = haystack.indexOf(first); i >= 0; i = haystack.indexOf(first, i + 1)) {
    if (i + needle.length > haystack.length) return -1;
    let match = true;
    for (let j = 1; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) {
        match = false;
        break;
      }
    }
    if (match) return i;
  }
  return -1;
}
