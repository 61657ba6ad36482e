import { describe, expect, it } from 'vitest';
import {
  BAND_COLOR_COUNT,
  bandColor,
  bandColorCss,
  bandColorIndex,
  createBandColorCache,
  hashStackId,
  type BandPalette,
} from './band-colors';

const palette: BandPalette = { saturation: 46, lightness: [74, 63], noStack: '#aaa' };

describe('band colours', () => {
  it('are a pure function of the stack id', () => {
    expect(bandColor(17, palette)).toBe(bandColor(17, palette));
    expect(hashStackId(123456)).toBe(hashStackId(123456));
    // Pinned, so colours do not shift between releases by accident.
    expect(hashStackId(0)).toBe(0);
    expect(hashStackId(1)).toBe(hashStackId(1) >>> 0);
    expect(bandColorIndex(1)).toBe(hashStackId(1) % BAND_COLOR_COUNT);
  });

  it('spread consecutive stack ids over the palette', () => {
    const used = new Set<number>();
    for (let id = 0; id < 200; id++) used.add(bandColorIndex(id));
    expect(used.size).toBe(BAND_COLOR_COUNT);
    let sameAsNext = 0;
    for (let id = 0; id < 200; id++)
      if (bandColorIndex(id) === bandColorIndex(id + 1)) sameAsNext++;
    expect(sameAsNext).toBeLessThan(20);
  });

  it('give stackless allocations the neutral colour', () => {
    expect(bandColorIndex(-1)).toBe(-1);
    expect(bandColor(-1, palette)).toBe('#aaa');
    expect(bandColorCss(-1)).toBe('var(--tl-band-no-stack)');
  });

  it('use the palette lightness variants and CSS variables for DOM swatches', () => {
    const color = bandColor(5, palette);
    expect(color).toMatch(/^hsl\(\d+ 46% (74|63)%\)$/);
    expect(bandColorCss(5)).toContain('var(--tl-band-saturation)');
    const hue = color.slice(4, color.indexOf(' '));
    expect(bandColorCss(5).startsWith(`hsl(${hue} `)).toBe(true);
  });

  it('cache per palette', () => {
    const colorOf = createBandColorCache(palette);
    expect(colorOf(9)).toBe(bandColor(9, palette));
    expect(colorOf(9)).toBe(colorOf(9));
  });
});
