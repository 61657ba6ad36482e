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
    case 'zip':
      return 'this is a zip archive (a torch.save checkpoint?), not a memory snapshot pickle';
    default:
      return 'not a memory snapshot: expected a pickle (first byte 0x80), gzip, or the HTML page of torch.cuda._memory_viz';
  }
}
