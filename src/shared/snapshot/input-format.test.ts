import { describe, expect, it } from 'vitest';
import { describeUnreadableFormat, sniffInputFormat } from './input-format';

const utf16 = (text: string, order: 'le' | 'be', mark: boolean): Uint8Array => {
  const bytes: number[] = mark ? (order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]) : [];
  for (const char of text) {
    const code = char.charCodeAt(0);
    bytes.push(...(order === 'le' ? [code & 0xff, code >> 8] : [code >> 8, code & 0xff]));
  }
  return Uint8Array.from(bytes);
};

describe('sniffInputFormat', () => {
  it('tells JSON or HTML saved as UTF-16 apart, with or without a byte order mark', () => {
    for (const order of ['le', 'be'] as const) {
      for (const mark of [true, false]) {
        expect(sniffInputFormat(utf16('{"segments": []}', order, mark))).toBe('utf16');
        expect(sniffInputFormat(utf16('\n<html>', order, mark))).toBe('utf16');
      }
    }
  });

  it('keeps a protocol 1 pickle that starts with an opcode and a zero byte for what it is', () => {
    expect(sniffInputFormat(Uint8Array.of(0x4b, 0x00, 0x2e))).toBe('unknown');
    expect(sniffInputFormat(new TextEncoder().encode('{"segments": []}'))).toBe('json');
  });

  it('names the JSON form among the forms it reads', () => {
    expect(describeUnreadableFormat('unknown')).toMatch(/the JSON form/);
    expect(describeUnreadableFormat('utf16')).toMatch(
      /^this is text in UTF-16: the JSON form of a snapshot .* must be UTF-8/,
    );
  });
});
