import { describe, expect, it } from 'vitest';
import { bandColor, type BandPalette } from '@shared/chart/band-colors';
import { bandColorCss } from './band-color-css';

const palette: BandPalette = {
  saturation: 46,
  lightness: [74, 63],
  noStack: '#aaa',
  neutral: '#999999',
  noStackHatch: { color: '#000000', opacity: 0.3 },
};

describe('bandColorCss', () => {
  it('gives stackless allocations the neutral colour', () => {
    expect(bandColorCss(-1)).toBe('var(--tl-band-no-stack)');
  });

  it('has the canvas colour’s hue and the theme’s CSS variables', () => {
    const color = bandColor(5, palette);
    expect(bandColorCss(5)).toContain('var(--tl-band-saturation)');
    const hue = color.slice(4, color.indexOf(' '));
    expect(bandColorCss(5).startsWith(`hsl(${hue} `)).toBe(true);
  });

  it('picks the lightness variable of the canvas colour’s variant', () => {
    for (let id = 0; id < 40; id++) {
      const alt = bandColor(id, palette).endsWith(' 63%)');
      expect(bandColorCss(id).includes('--tl-band-lightness-alt')).toBe(alt);
    }
  });
});
