// Base64 decoding over bytes, chunk by chunk (the HTML export embeds the pickle as base64, and
// pages reach GBs). atob() would need the payload as one JS string first.

const INVALID = 255;
const SKIP = 254;

const DECODE_TABLE = (() => {
  const table = new Uint8Array(256).fill(INVALID);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  // Whitespace, '=' padding and the JSON escape '\/' carry no bits.
  for (const char of ' \t\r\n=\\') table[char.charCodeAt(0)] = SKIP;
  return table;
})();

export class Base64StreamDecoder {
  private bits = 0;
  private bitCount = 0;
  /** Index in the last decode()'s input of the character it refused, -1 when none. */
  badIndex = -1;

  /** Decodes the next piece of base64 text; bits left over carry into the next call. */
  decode(source: Uint8Array): Uint8Array {
    const bytes = this.decodeUntilInvalid(source);
    if (this.badIndex >= 0) {
      throw new Error(`invalid base64 character 0x${source[this.badIndex]!.toString(16)}`);
    }
    return bytes;
  }

  /**
   * Decodes up to the first character outside the alphabet (badIndex says where it is, -1 when
   * there is none): what comes before a bad character may be all a reader needs.
   */
  decodeUntilInvalid(source: Uint8Array): Uint8Array {
    this.badIndex = -1;
    const out = new Uint8Array(Math.ceil((source.length * 3) / 4) + 1);
    let length = 0;
    let bits = this.bits;
    let bitCount = this.bitCount;
    for (let i = 0; i < source.length; i++) {
      const value = DECODE_TABLE[source[i]!]!;
      if (value === SKIP) continue;
      if (value === INVALID) {
        this.badIndex = i;
        break;
      }
      bits = ((bits << 6) | value) & 0xffffff;
      bitCount += 6;
      if (bitCount >= 8) {
        bitCount -= 8;
        out[length++] = (bits >> bitCount) & 0xff;
      }
    }
    this.bits = bits;
    this.bitCount = bitCount;
    return out.subarray(0, length);
  }
}

/** Decodes base64 text in source[start, end); throws on a character outside the alphabet. */
export function decodeBase64(source: Uint8Array, start: number, end: number): Uint8Array {
  const decoder = new Base64StreamDecoder();
  try {
    return decoder.decode(source.subarray(start, end));
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)} at byte ${start + decoder.badIndex}`,
    );
  }
}
