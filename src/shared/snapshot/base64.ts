// Base64 decoding over bytes (the HTML export embeds the pickle as base64). atob() would need the
// payload as one JS string first; this decodes slices of the page's bytes directly.

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

/** Decodes base64 text in source[start, end); throws on a character outside the alphabet. */
export function decodeBase64(source: Uint8Array, start: number, end: number): Uint8Array {
  const out = new Uint8Array(Math.ceil(((end - start) * 3) / 4));
  let length = 0;
  let bits = 0;
  let bitCount = 0;
  for (let i = start; i < end; i++) {
    const value = DECODE_TABLE[source[i]!]!;
    if (value === SKIP) continue;
    if (value === INVALID) {
      throw new Error(`invalid base64 character 0x${source[i]!.toString(16)} at byte ${i}`);
    }
    bits = ((bits << 6) | value) & 0xffffff;
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      out[length++] = (bits >> bitCount) & 0xff;
    }
  }
  return out.subarray(0, length);
}
