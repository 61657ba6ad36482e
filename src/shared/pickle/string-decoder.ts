// UTF-8 decoding tuned for pickles of snapshots: millions of short ASCII strings, most of them equal
// ('N/A' once per trace entry, key names, file names). Short ASCII strings go through a small
// hash table so equal byte runs yield the very same JS string: no allocation on a hit, and the
// memo then holds one string instead of millions of copies.

const SHORT_STRING_MAX_BYTES = 40;
const CACHE_BITS = 12;
const CACHE_SIZE = 1 << CACHE_BITS;

const utf8 = new TextDecoder('utf-8');

export class PickleStringDecoder {
  private readonly cache: (string | undefined)[] = new Array<string | undefined>(CACHE_SIZE);

  decode(bytes: Uint8Array, start: number, length: number): string {
    if (length === 0) return '';
    if (length <= SHORT_STRING_MAX_BYTES) {
      let hash = 0x811c9dc5;
      let ascii = true;
      for (let i = start, end = start + length; i < end; i++) {
        const byte = bytes[i]!;
        if (byte >= 0x80) {
          ascii = false;
          break;
        }
        hash = Math.imul(hash ^ byte, 0x01000193);
      }
      if (ascii) {
        const slot = (hash >>> 0) & (CACHE_SIZE - 1);
        const cached = this.cache[slot];
        if (cached !== undefined && cached.length === length && sameAscii(cached, bytes, start)) {
          return cached;
        }
        const fresh = String.fromCharCode.apply(
          null,
          bytes.subarray(start, start + length) as unknown as number[],
        );
        this.cache[slot] = fresh;
        return fresh;
      }
    }
    return utf8.decode(bytes.subarray(start, start + length));
  }
}

function sameAscii(text: string, bytes: Uint8Array, start: number): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== bytes[start + i]) return false;
  }
  return true;
}
