// The pickle inside the HTML page that `torch.cuda._memory_viz trace_plot` writes: the page's
// script holds `const local_files = [{"name": "snapshot.pickle", "base64": "<payload>"}]` near its
// top (json.dumps of that list). The page is streamed: the marker is looked for in the first MiB
// only, and the payload is decoded from base64 chunk by chunk as it arrives, so a page of any size
// takes memory for one chunk, not the page.

import { Base64StreamDecoder } from './base64';
import { SnapshotFormatError } from './snapshot-error';

/** The marker is this close to the start in every page _memory_viz writes (a few hundred bytes). */
const KEY_SEARCH_BYTES = 1 << 20;
/**
 * A `"base64"` key that starts in the first MiB counts when its colon and the payload's quote
 * follow within this many bytes past the MiB: the window is fixed in bytes, so the verdict never
 * depends on how the page was cut into chunks.
 */
const MARKER_TAIL_BYTES = 256;
const WINDOW_BYTES = KEY_SEARCH_BYTES + MARKER_TAIL_BYTES;
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

/**
 * Reads the page until the payload's marker is found within its first MiB: the JSON that
 * `_format_viz` writes, `{"name": "snapshot.pickle", "base64": "`. The word base64 may come
 * earlier (a comment, the page's text, an example): only a `"base64"` key right after a `"name"`
 * key opens the payload. A page without that marker in its first MiB gets its first bare
 * `"base64": "` (a page another tool wrote), which must then decode to a pickle.
 */
async function findPayloadStart(iterator: AsyncIterator<Uint8Array>): Promise<PayloadStart> {
  // Grown by doubling: pages come in chunks of any size, down to a byte.
  let head = new Uint8Array(1 << 16);
  let length = 0;
  let searchFrom = 0;
  let bare = -1;
  let ended = false;
  for (;;) {
    const complete = ended || length >= WINDOW_BYTES;
    const found = findMarker(head, Math.min(length, WINDOW_BYTES), searchFrom, complete);
    if (found.marked >= 0) {
      return { rest: head.subarray(found.marked, length), offset: found.marked };
    }
    if (bare < 0) bare = found.bare;
    searchFrom = found.resumeAt;
    if (complete) break;
    const next = await iterator.next();
    if (next.done === true) {
      ended = true;
      continue;
    }
    if (length + next.value.length > head.length) {
      let capacity = head.length * 2;
      while (capacity < length + next.value.length) capacity *= 2;
      const grown = new Uint8Array(capacity);
      grown.set(head.subarray(0, length));
      head = grown;
    }
    head.set(next.value, length);
    length += next.value.length;
  }
  if (bare >= 0) return { rest: head.subarray(bare, length), offset: bare };
  throw new SnapshotFormatError(
    'an HTML page without an embedded snapshot (expected the page written by torch.cuda._memory_viz trace_plot)',
  );
}

interface Marker {
  /** The payload's first character after `{"name": "…", "base64": "`, or -1. */
  marked: number;
  /** The payload's first character after the first bare `"base64": "` seen, or -1. */
  bare: number;
  /** Where to look again once more of the page is read. */
  resumeAt: number;
}

/**
 * Looks for the payload's marker among the keys starting in page[from..end) before
 * KEY_SEARCH_BYTES. `complete`: page[0..end) is the whole window (or the whole page), so a marker
 * cut by `end` is none; else it is read on.
 */
function findMarker(page: Uint8Array, end: number, from: number, complete: boolean): Marker {
  let bare = -1;
  const view = page.subarray(0, end);
  for (let at = indexOfBytes(view, BASE64_KEY, from); at >= 0 && at < KEY_SEARCH_BYTES;) {
    let i = skipSpace(view, at + BASE64_KEY.length);
    if (i < end && view[i] === 0x3a /* : */) i = skipSpace(view, i + 1);
    else if (i < end) i = -1;
    if (i >= end) {
      if (!complete) return { marked: -1, bare, resumeAt: at }; // cut by the end: read on
      i = -1;
    }
    if (i >= 0 && view[i] === QUOTE) {
      if (bare < 0) bare = i + 1;
      if (followsNameKey(view, at)) return { marked: i + 1, bare, resumeAt: at };
    }
    at = indexOfBytes(view, BASE64_KEY, at + 1);
  }
  return { marked: -1, bare, resumeAt: Math.max(from, end - BASE64_KEY.length + 1) };
}

const NAME_KEY = new TextEncoder().encode('"name"');
/** A file name longer than this is not the one _format_viz writes. */
const MAX_NAME_BYTES = 4096;

/** Whether `"name": "<text>",` (and the dict's `{`) stands right before page[at]. */
function followsNameKey(page: Uint8Array, at: number): boolean {
  let i = skipSpaceBack(page, at - 1);
  if (i < 0 || page[i] !== 0x2c /* , */) return false;
  i = skipSpaceBack(page, i - 1);
  if (i < 0 || page[i] !== QUOTE) return false;
  const lowest = Math.max(0, i - MAX_NAME_BYTES);
  i--;
  while (i >= lowest && !(page[i] === QUOTE && page[i - 1] !== 0x5c /* \ */)) i--;
  if (i < lowest) return false;
  i = skipSpaceBack(page, i - 1);
  if (i < 0 || page[i] !== 0x3a /* : */) return false;
  i = skipSpaceBack(page, i - 1);
  const keyAt = i - NAME_KEY.length + 1;
  if (keyAt < 0) return false;
  for (let k = 0; k < NAME_KEY.length; k++) if (page[keyAt + k] !== NAME_KEY[k]) return false;
  i = skipSpaceBack(page, keyAt - 1);
  return i >= 0 && page[i] === 0x7b; /* { */
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(page: Uint8Array, from: number): number {
  let i = from;
  while (i < page.length && isSpace(page[i])) i++;
  return i;
}

function skipSpaceBack(page: Uint8Array, from: number): number {
  let i = from;
  while (i >= 0 && isSpace(page[i])) i--;
  return i;
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  for (let i = haystack.indexOf(first, from); i >= 0; i = haystack.indexOf(first, i + 1)) {
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
