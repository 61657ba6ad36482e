// Colours of allocation bands: a stable function of the stack id, so one call site keeps its
// colour across zoom, pan and redraws, and neighbouring bands rarely share a hue. Muted HSL
// tones whose saturation and lightness come from the theme (light and dark differ).

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

export function bandColor(stackId: number, palette: BandPalette): string {
  const index = bandColorIndex(stackId);
  if (index < 0) return palette.noStack;
  const hue = HUES[index % HUES.length]!;
  const lightness = palette.lightness[index < HUES.length ? 0 : 1];
  return `hsl(${hue} ${palette.saturation}% ${lightness}%)`;
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

/**
 * The same colour as a CSS value that follows the theme's custom properties, for DOM swatches
 * (tables, panels) that should match the canvas in light and dark.
 */
export function bandColorCss(stackId: number): string {
  const index = bandColorIndex(stackId);
  if (index < 0) return 'var(--tl-band-no-stack)';
  const hue = HUES[index % HUES.length]!;
  const lightness = index < HUES.length ? '--tl-band-lightness' : '--tl-band-lightness-alt';
  return `hsl(${hue} calc(var(--tl-band-saturation) * 1%) calc(var(${lightness}) * 1%))`;
}
