import { describe, expect, it } from 'vitest';
import {
  BAND_COLOR_COUNT,
  bandColor,
  bandColorHex,
  bandColorIndex,
  createBandColorCache,
  hashStackId,
  hslToHex,
  type BandPalette,
} from './band-colors';

const palette: BandPalette = {
  saturation: 46,
  lightness: [74, 63],
  neutral: '#999999',
  noStack: '#aaa',
  noStackHatch: { color: '#000000', opacity: 0.3 },
};

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

  it('give stackless allocations the no-stack fill', () => {
    expect(bandColorIndex(-1)).toBe(-1);
    expect(bandColor(-1, palette)).toBe('#aaa');
    expect(bandColorHex(-1, palette)).toBe('#aaa');
  });

  it('use the palette lightness variants', () => {
    expect(bandColor(5, palette)).toMatch(/^hsl\(\d+ 46% (74|63)%\)$/);
  });

  it('cache the palette entries per palette', () => {
    const colorOf = createBandColorCache(palette);
    expect(colorOf(bandColorIndex(9))).toBe(bandColor(9, palette));
    expect(colorOf(-1)).toBe(palette.noStack);
  });
});

describe('bandColorHex', () => {
  it('is bandColor() written as #rrggbb', () => {
    const dark: BandPalette = {
      saturation: 34,
      lightness: [50, 41],
      neutral: '#999999',
      noStack: '#5e687a',
      noStackHatch: { color: '#000000', opacity: 0.3 },
    };
    for (const bands of [palette, dark]) {
      for (const stackId of [-1, 0, 1, 2, 17, 123_456]) {
        const css = bandColor(stackId, bands);
        const hsl = /^hsl\((\d+) (\d+)% (\d+)%\)$/.exec(css);
        if (hsl === null) expect(bandColorHex(stackId, bands)).toBe(css);
        else
          expect(bandColorHex(stackId, bands)).toBe(
            hslToHex(Number(hsl[1]), Number(hsl[2]), Number(hsl[3])),
          );
      }
    }
  });

  it('converts HSL to hex', () => {
    expect(hslToHex(0, 100, 50)).toBe('#ff0000');
    expect(hslToHex(120, 100, 25)).toBe('#008000');
    expect(hslToHex(212, 0, 100)).toBe('#ffffff');
  });
});
