// What kind of file the user gave us, from its first bytes (extensions lie: a .pickle may be
// gzip, a .html may have been renamed).

export type InputFormat = 'pickle' | 'gzip' | 'html' | 'empty' | 'json' | 'zip' | 'unknown';

export function sniffInputFormat(head: Uint8Array): InputFormat {
  if (head.length === 0) return 'empty';
  const first = head[0]!;
  if (first === 0x80) return 'pickle';
  if (first === 0x1f && head[1] === 0x8b) return 'gzip';
  if (first === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'zip';
  const text = firstVisibleChar(head);
  if (text === '<') return 'html';
  if (text === '{' || text === '[') return 'json';
  return 'unknown';
}

function firstVisibleChar(head: Uint8Array): string {
  let i = 0;
  // UTF-8 byte order mark.
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  for (; i < head.length && i < 4096; i++) {
    const byte = head[i]!;
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) {
      return String.fromCharCode(byte);
    }
  }
  return '';
}

export function describeUnreadableFormat(format: InputFormat): string {
  switch (format) {
    case 'empty':
      return 'the file is empty';
    case 'json':
      return 'this is JSON, not a pickle: open the .pickle that torch.cuda.memory._dump_snapshot() wrote';
    case 'zip':
      return 'this is a zip archive (a torch.save checkpoint?), not a memory snapshot pickle';
    default:
      return 'not a memory snapshot: expected a pickle (first byte 0x80), gzip, or the HTML page of torch.cuda._memory_viz';
  }
}

const BASE64_KEY = new TextEncoder().encode('"base64"');

/** Finds the base64 payload that `_memory_viz trace_plot` embeds: `"base64": "<payload>"`. */
export function findEmbeddedBase64(page: Uint8Array): { start: number; end: number } | null {
  const keyAt = indexOfBytes(page, BASE64_KEY, 0);
  if (keyAt < 0) return null;
  let i = keyAt + BASE64_KEY.length;
  while (
    i < page.length &&
    (page[i] === 0x20 || page[i] === 0x0a || page[i] === 0x0d || page[i] === 0x09)
  )
    i++;
  if (page[i] !== 0x3a /* : */) return null;
  i++;
  while (
    i < page.length &&
    (page[i] === 0x20 || page[i] === 0x0a || page[i] === 0x0d || page[i] === 0x09)
  )
    i++;
  if (page[i] !== 0x22 /* " */) return null;
  const start = i + 1;
  const end = page.indexOf(0x22, start);
  return end < 0 ? null : { start, end };
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
