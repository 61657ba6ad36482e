// What kind of file the user gave us, from its first bytes (extensions lie: a .pickle may be
// gzip, a .html may have been renamed).

export type InputFormat =
  'pickle' | 'gzip' | 'html' | 'empty' | 'json' | 'zip' | 'utf16' | 'unknown';

export function sniffInputFormat(head: Uint8Array): InputFormat {
  if (head.length === 0) return 'empty';
  const first = head[0]!;
  if (first === 0x80) return 'pickle';
  if (first === 0x1f && head[1] === 0x8b) return 'gzip';
  if (first === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'zip';
  if (isUtf16(head)) return 'utf16';
  const text = firstVisibleChar(head);
  if (text === '<') return 'html';
  if (text === '{' || text === '[') return 'json';
  return 'unknown';
}

/**
 * JSON or HTML in UTF-16 (what Windows tools write when asked for "Unicode"): a byte order mark,
 * or '{', '[', '<' or white space and the next character each beside a NUL (7B 00 0A 00). Two
 * characters, not one: a protocol 1 pickle may start with an opcode and a zero byte.
 */
function isUtf16(head: Uint8Array): boolean {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    return true;
  }
  const opens = (byte: number | undefined): boolean =>
    byte === 0x7b ||
    byte === 0x5b ||
    byte === 0x3c ||
    byte === 0x20 ||
    byte === 0x0a ||
    byte === 0x0d ||
    byte === 0x09;
  const ascii = (byte: number | undefined): boolean =>
    byte !== undefined && byte >= 0x09 && byte < 0x7f;
  const littleEndian = opens(head[0]) && head[1] === 0 && ascii(head[2]) && head[3] === 0;
  const bigEndian = head[0] === 0 && opens(head[1]) && head[2] === 0 && ascii(head[3]);
  return littleEndian || bigEndian;
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
    case 'zip':
      return 'this is a zip archive (a torch.save checkpoint?), not a memory snapshot pickle';
    case 'utf16':
      return 'this is text in UTF-16: the JSON form of a snapshot (and the HTML page of torch.cuda._memory_viz) must be UTF-8; convert it (iconv -f UTF-16 -t UTF-8) or open the .pickle';
    default:
      return "not a memory snapshot: expected a pickle (first byte 0x80), gzip, the JSON form ('{' or '[' first), or the HTML page of torch.cuda._memory_viz";
  }
}
