// Colours of allocation bands, the same as the app's (src/renderer/charts/band-colors.ts, whose
// hue order and hash this copies): a stable function of the stack id, so one call site has one
// colour in the app and in every export. Written as hex for SVG.

import type { BandPalette } from './render-theme';

const HUES = [212, 32, 152, 280, 52, 190, 332, 100, 236, 14, 170, 304] as const;

export const BAND_COLOR_COUNT = HUES.length * 2;

/** A 32-bit integer mix (lowbias32): nearby stack ids land far apart. */
export function hashStackId(stackId: number): number {
  let x = stackId | 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Index in [0, BAND_COLOR_COUNT) of the colour of a stack; -1 for no stack. */
export function bandColorIndex(stackId: number): number {
  if (stackId < 0) return -1;
  return hashStackId(stackId) % BAND_COLOR_COUNT;
}

/** #rrggbb of an HSL colour (hue in degrees, saturation and lightness in percent). */
export function hslToHex(hue: number, saturation: number, lightness: number): string {
  const s = saturation / 100;
  const l = lightness / 100;
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number): string => {
    const k = (n + hue / 30) % 12;
    const value = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

export function bandColorHex(stackId: number, palette: BandPalette): string {
  const index = bandColorIndex(stackId);
  if (index < 0) return palette.noStack;
  const hue = HUES[index % HUES.length]!;
  const lightness = palette.lightness[index < HUES.length ? 0 : 1];
  return hslToHex(hue, palette.saturation, lightness);
}
