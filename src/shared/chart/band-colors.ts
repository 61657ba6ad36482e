// Colours of allocation bands: a stable function of the stack id, so one call site keeps its
// colour across zoom, pan and redraws, in the app and in every export, and neighbouring bands
// rarely share a hue. Muted HSL tones whose saturation and lightness come from the theme (light
// and dark differ); written as CSS hsl() for the canvas and as hex for SVG.

export interface BandPalette {
  /** Saturation in percent. */
  saturation: number;
  /** Lightness in percent of the two variants; a hash bit picks one. */
  lightness: [number, number];
  /** Colour of allocations with no recorded stack. */
  noStack: string;
}

/**
 * Hues spread around the wheel in an order where consecutive entries are far apart; a fixed set
 * reads calmer than arbitrary hues and keeps greens and reds apart from the OOM marker's red.
 */
const HUES = [212, 32, 152, 280, 52, 190, 332, 100, 236, 14, 170, 304] as const;

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

export const BAND_COLOR_COUNT = HUES.length * 2;

/** Index in [0, BAND_COLOR_COUNT) of the colour of a stack; -1 for no stack. */
export function bandColorIndex(stackId: number): number {
  if (stackId < 0) return -1;
  return hashStackId(stackId) % BAND_COLOR_COUNT;
}

export interface BandTone {
  hue: number;
  /** Which of the palette's two lightness variants. */
  variant: 0 | 1;
}

/** Hue and lightness variant of a stack's colour; null for no stack (the palette's noStack). */
export function bandTone(stackId: number): BandTone | null {
  const index = bandColorIndex(stackId);
  if (index < 0) return null;
  return { hue: HUES[index % HUES.length]!, variant: index < HUES.length ? 0 : 1 };
}

/** The colour as CSS hsl(), for the canvas. */
export function bandColor(stackId: number, palette: BandPalette): string {
  const tone = bandTone(stackId);
  if (tone === null) return palette.noStack;
  return `hsl(${tone.hue} ${palette.saturation}% ${palette.lightness[tone.variant]}%)`;
}

/** Caches colour strings per stack id for one palette. */
export function createBandColorCache(palette: BandPalette): (stackId: number) => string {
  const cache = new Map<number, string>();
  return (stackId) => {
    let color = cache.get(stackId);
    if (color === undefined) {
      color = bandColor(stackId, palette);
      cache.set(stackId, color);
    }
    return color;
  };
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

/** The same colour as bandColor() written as #rrggbb, for SVG. */
export function bandColorHex(stackId: number, palette: BandPalette): string {
  const tone = bandTone(stackId);
  if (tone === null) return palette.noStack;
  return hslToHex(tone.hue, palette.saturation, palette.lightness[tone.variant]);
}
