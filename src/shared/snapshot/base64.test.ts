import { describe, expect, it } from 'vitest';
import { decodeBase64 } from './base64';

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
