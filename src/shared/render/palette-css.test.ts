import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cssColor } from './palette';
import { paletteCssVariables } from './palette-css';

describe('paletteCssVariables', () => {
  it('covers every variable the page’s stylesheets read and do not define, and only those', () => {
    const renderer = new URL('../../renderer/', import.meta.url);
    const stylesheets = readdirSync(renderer, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.css'))
      .map((path) => readFileSync(new URL(path, renderer), 'utf8'));
    expect(stylesheets.length).toBeGreaterThan(5);
    const names = (pattern: RegExp): Set<string> =>
      new Set(stylesheets.flatMap((css) => [...css.matchAll(pattern)].map((m) => m[1]!)));
    const defined = names(/(--[a-z0-9-]+)\s*:/g);
    const read = names(/var\((--[a-z0-9-]+)/g);
    const set = paletteCssVariables('light');
    expect([...read].filter((name) => !defined.has(name) && !(name in set))).toEqual([]);
    // No colour is written in a stylesheet as well as in the palette.
    expect(Object.keys(set).filter((name) => defined.has(name))).toEqual([]);
  });
});

describe('cssColor', () => {
  it('writes opaque colours as they are and translucent ones as rgb() with a percentage', () => {
    expect(cssColor({ color: '#1c2230', opacity: 0.07 })).toBe('rgb(28 34 48 / 7%)');
    expect(cssColor({ color: '#ffffff', opacity: 0.125 })).toBe('rgb(255 255 255 / 12.5%)');
    expect(cssColor({ color: '#2f6fed', opacity: 1 })).toBe('#2f6fed');
    expect(cssColor('#d43c3c')).toBe('#d43c3c');
  });
});
