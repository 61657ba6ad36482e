import { describe, expect, it } from 'vitest';
import { jsonText } from './json-text';
import { terminalField, terminalSafe } from './terminal-safe';

/** Code points a terminal obeys: C0 but LF and TAB, DEL, C1, U+2028/9, bidi controls. */
function isUnsafe(code: number, field: boolean): boolean {
  if (code === 0x0a || code === 0x09) return field;
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

describe('terminalSafe and terminalField', () => {
  it('show control sequences escaped, in the forms people know', () => {
    expect(terminalSafe('a\x1b[2Jb')).toBe('a\\x1b[2Jb');
    expect(terminalSafe('\x1b]0;title\x07')).toBe('\\x1b]0;title\\x07');
    expect(terminalSafe('\u009b31mred')).toBe('\\u009b31mred');
    expect(terminalSafe('del\x7f cr\r')).toBe('del\\u007f cr\\r');
    expect(terminalSafe('\u202etxt.exe\u2066')).toBe('\\u202etxt.exe\\u2066');
    expect(terminalSafe('line\u2028sep')).toBe('line\\u2028sep');
  });

  it('keep line feeds and tabs as layout; a field escapes them', () => {
    expect(terminalSafe('a\tb\nc')).toBe('a\tb\nc');
    expect(terminalField('a\tb\nc')).toBe('a\\tb\\nc');
  });

  it('leave printable text alone, non-ASCII included', () => {
    const text = 'train.py:62 forward · 1.4 MiB − 2 → “ok” 训练 é \\x1b';
    expect(terminalSafe(text)).toBe(text);
    expect(terminalField(text)).toBe(text);
  });

  it('escape every unsafe code point and nothing else', () => {
    const wrong: string[] = [];
    for (let code = 0; code < 0x2100; code++) {
      const character = String.fromCharCode(code);
      if ((terminalField(character) !== character) !== isUnsafe(code, true))
        wrong.push(`field ${code.toString(16)}`);
      if ((terminalSafe(character) !== character) !== isUnsafe(code, false))
        wrong.push(`text ${code.toString(16)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('are idempotent: escaped text has nothing left to escape', () => {
    let all = '';
    for (let code = 0; code < 0x2100; code++) all += String.fromCharCode(code);
    expect(terminalField(terminalField(all))).toBe(terminalField(all));
    expect(terminalSafe(terminalSafe(all))).toBe(terminalSafe(all));
  });
});

describe('jsonText', () => {
  it('is JSON equal to the value when parsed, with nothing a terminal obeys', () => {
    let all = '';
    for (let code = 0; code < 0x2100; code++) all += String.fromCharCode(code);
    const value = { [all]: [all, { nested: `x${all}` }], n: -5, t: true, z: null };
    for (const indent of [0, 2]) {
      const text = jsonText(value, indent);
      expect(JSON.parse(text)).toEqual(value);
      expect([...text].filter((character) => isUnsafe(character.charCodeAt(0), false))).toEqual([]);
      // The layout is JSON.stringify's.
      expect(text.split('\n').length).toBe(JSON.stringify(value, null, indent).split('\n').length);
    }
    expect(jsonText({ a: '\u009b2J' })).toBe('{\n  "a": "\\u009b2J"\n}');
  });
});
