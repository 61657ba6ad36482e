import { describe, expect, it } from 'vitest';
import { MAX_SHOWN_CHARS, MAX_SHOWN_DEPTH, shownJson, shownText } from './shown-text';

/** A list nested `depth` deep, built without recursion (JSON.parse of `[[[…]]]` gives the same). */
function deepList(depth: number): unknown[] {
  const root: unknown[] = [];
  let inner = root;
  for (let i = 1; i < depth; i++) {
    const next: unknown[] = [];
    inner.push(next);
    inner = next;
  }
  return root;
}

describe('shownJson', () => {
  const NORMAL: unknown[] = [
    { step: 3, phase: 'backward' },
    [1, 2, [3, [4, { a: null, b: true, c: false }]]],
    { 'quote"s': 'tab\tnew\nline\u0001', emoji: '😀', empty: [], none: {} },
    [],
    {},
    [-0, 1e21, 1.5, -2],
    { nested: { deeper: { deepest: [1, 2, 3] } } },
  ];

  it('writes what JSON.stringify writes, pretty and compact, for values within the bounds', () => {
    for (const value of NORMAL) {
      expect(shownJson(value)).toBe(JSON.stringify(value, null, 2));
      expect(shownJson(value, 0)).toBe(JSON.stringify(value));
    }
  });

  it('shows a list nested 20,000 deep to MAX_SHOWN_DEPTH levels, where JSON.stringify throws', () => {
    const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as unknown;
    expect(() => JSON.stringify(deep)).toThrow(/call stack/);
    const text = shownJson(deep, 0);
    expect(text).toBe(`${'['.repeat(MAX_SHOWN_DEPTH)}[…]${']'.repeat(MAX_SHOWN_DEPTH)}`);
    const pretty = shownJson(deep);
    expect(pretty.split('\n')).toHaveLength(2 * MAX_SHOWN_DEPTH + 1);
    expect(pretty).toContain('[…]');
  });

  it('shows an object nested 200,000 deep in bounded time', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    const started = performance.now();
    const text = shownJson(deep, 0);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(text).toBe(`${'{"a":'.repeat(MAX_SHOWN_DEPTH)}{…}${'}'.repeat(MAX_SHOWN_DEPTH)}`);
    expect(shownJson(deepList(200_000))).toContain('[…]');
  });

  it('cuts a long value after MAX_SHOWN_CHARS characters and says how many more there are', () => {
    const long = Array.from({ length: 20_000 }, (_, i) => `item ${i}`);
    const whole = JSON.stringify(long, null, 2);
    const text = shownJson(long);
    const more = whole.length - MAX_SHOWN_CHARS;
    expect(text).toBe(
      `${whole.slice(0, MAX_SHOWN_CHARS)}… (${more.toLocaleString('en-US')} more characters)`,
    );
    const huge = { text: 'x'.repeat(40 << 20) };
    const hugeMore = JSON.stringify(huge, null, 2).length - 50;
    expect(shownJson(huge, 2, { maxChars: 50 })).toBe(
      `{\n  "text": "${'x'.repeat(37)}… (${hugeMore.toLocaleString('en-US')} more characters)`,
    );
  });

  it('never cuts a character in half', () => {
    expect(shownJson(['😀'.repeat(10)], 0, { maxChars: 3 })).toMatch(/^\["… \(\d+ more/);
    expect(shownJson(['😀'.repeat(10)], 0, { maxChars: 4 })).toMatch(/^\["😀… \(\d+ more/);
  });
});

describe('shownText', () => {
  it('keeps text up to the bound and cuts the rest with its count', () => {
    expect(shownText('short')).toBe('short');
    expect(shownText('x'.repeat(MAX_SHOWN_CHARS))).toHaveLength(MAX_SHOWN_CHARS);
    expect(shownText('abcdef', 3)).toBe('abc… (3 more characters)');
    expect(shownText('abcd', 3)).toBe('abc… (1 more character)');
  });
});
