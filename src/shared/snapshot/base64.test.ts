import { describe, expect, it } from 'vitest';
import { Base64StreamDecoder, decodeBase64 } from './base64';

describe('decodeBase64', () => {
  it('matches Buffer for every length and ignores padding, whitespace and JSON escapes', () => {
    for (let length = 0; length < 70; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 37 + length) & 0xff);
      const text = Buffer.from(bytes).toString('base64');
      const withNoise = text.replace(/\//g, '\\/').replace(/(.{10})/g, '$1\n');
      expect([...decodeBase64(new TextEncoder().encode(withNoise), 0, withNoise.length)]).toEqual([
        ...bytes,
      ]);
    }
  });

  it('rejects characters outside the alphabet', () => {
    expect(() => decodeBase64(new TextEncoder().encode('AB*D'), 0, 4)).toThrow(
      /invalid base64 character 0x2a/,
    );
  });
});

describe('Base64StreamDecoder', () => {
  it('decodes the same bytes however the text is cut', () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 37 + 11) & 0xff);
    const text = new TextEncoder().encode(Buffer.from(bytes).toString('base64'));
    for (const size of [1, 2, 3, 5, 64, 999]) {
      const decoder = new Base64StreamDecoder();
      const parts: number[] = [];
      for (let at = 0; at < text.length; at += size) {
        parts.push(...decoder.decode(text.subarray(at, at + size)));
      }
      expect(Uint8Array.from(parts)).toEqual(bytes);
    }
  });
});
