// Colours of allocation bands, in the app and in every export. A colouring (BandColoring) gives
// each row a key and each key a preferred colour: by stack (one call site keeps one colour across
// zoom, pan and redraws, whatever allocation it made), by allocation (each allocation its own
// colour from a cycling palette, as PyTorch's MemoryViz draws them), or by a grouping of the
// holders (../holders/band-coloring.ts: category, top user frame, file, ...), whose colours are
// fixed so that a legend can name them. A preferred colour is a stable function of its key, and
// resolveBandColors() moves a key that is not fixed off its preferred colour only where that
// colour would be the same as, or too close to, the colour of a band it touches in the picture.
//
// Muted HSL tones whose saturation and lightness come from the theme (light and dark differ);
// written as CSS hsl() for the canvas and as hex for SVG. Allocations with no recorded stack
// are hatched (diagonal stripes) so they never read as the merged "smaller allocations" area.

import type { TimelineLayout } from './timeline-layout';
import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { derivedKey } from '../analyzed/derived-cache';

export interface BandPalette {
  /** Saturation in percent. */
  saturation: number;
  /** Lightness in percent of the two variants; a hash bit picks one. */
  lightness: [number, number];
  /** Fill of allocations with no recorded stack when colouring by stack (under the hatch). */
  noStack: string;
  /** Fill of the groups without a colour of their own ("other groups", category "unknown"). */
  neutral: string;
  /** The stripes drawn over every allocation with no recorded stack, in either colouring. */
  noStackHatch: { color: string; opacity: number };
}

/**
 * Hues spread around the wheel in an order where consecutive entries are far apart; a fixed set
 * reads calmer than arbitrary hues and keeps greens and reds apart from the OOM marker's red.
 */
const HUES = [212, 32, 152, 280, 52, 190, 332, 100, 236, 14, 170, 304] as const;

/** Entries of the band palette: every hue in two lightness variants. */
export const BAND_COLOR_COUNT = HUES.length * 2;

/** Index of the "no recorded stack" look (its own fill, hatched) where a palette index goes. */
export const NO_STACK_COLOR = -1;

/**
 * Palette entries that differ from each other by at least MIN_NEIGHBOUR_DIFFERENCE in every theme
 * (band-neighbours.test.ts holds them to it), in the order a colouring with a legend hands them
 * out: each group it names gets one, so no two named groups look alike.
 */
export const DISTINCT_COLORS: readonly number[] = [0, 1, 2, 3, 6, 7, 20, 21];

/** Index of the neutral fill (groups without a colour of their own) where a palette index goes. */
export const NEUTRAL_COLOR = -2;

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

/** Index in [0, BAND_COLOR_COUNT) of the preferred colour of a stack; -1 for no stack. */
export function bandColorIndex(stackId: number): number {
  if (stackId < 0) return NO_STACK_COLOR;
  return hashStackId(stackId) % BAND_COLOR_COUNT;
}

/**
 * Preferred colour of an allocation (a row of the allocation table), cycling through the palette
 * in allocation order as MemoryViz does: consecutive allocations get far-apart hues.
 */
export function allocationColorIndex(row: number): number {
  return row % BAND_COLOR_COUNT;
}

export interface BandTone {
  hue: number;
  /** Which of the palette's two lightness variants. */
  variant: 0 | 1;
}

/** Hue and lightness variant of a palette index; null for NO_STACK_COLOR and NEUTRAL_COLOR. */
export function toneOfIndex(index: number): BandTone | null {
  if (index < 0) return null;
  const wrapped = index % BAND_COLOR_COUNT;
  return { hue: HUES[wrapped % HUES.length]!, variant: wrapped < HUES.length ? 0 : 1 };
}

/** Hue and lightness variant of a stack's preferred colour; null for no stack. */
export function bandTone(stackId: number): BandTone | null {
  return toneOfIndex(bandColorIndex(stackId));
}

/** The fill of an index that is not a palette entry (NO_STACK_COLOR, NEUTRAL_COLOR). */
function specialFill(index: number, palette: BandPalette): string {
  return index === NEUTRAL_COLOR ? palette.neutral : palette.noStack;
}

/** A palette index as CSS hsl(), for the canvas; the no-stack or neutral fill for those. */
export function colorOfIndex(index: number, palette: BandPalette): string {
  const tone = toneOfIndex(index);
  if (tone === null) return specialFill(index, palette);
  return `hsl(${tone.hue} ${palette.saturation}% ${palette.lightness[tone.variant]}%)`;
}

/** A palette index as #rrggbb, for SVG; the no-stack or neutral fill for those. */
export function hexOfIndex(index: number, palette: BandPalette): string {
  const tone = toneOfIndex(index);
  if (tone === null) return specialFill(index, palette);
  return hslToHex(tone.hue, palette.saturation, palette.lightness[tone.variant]);
}

/** The preferred colour of a stack as CSS hsl() (what DOM swatches of a stack show). */
export function bandColor(stackId: number, palette: BandPalette): string {
  return colorOfIndex(bandColorIndex(stackId), palette);
}

/** The same colour as bandColor() written as #rrggbb, for SVG. */
export function bandColorHex(stackId: number, palette: BandPalette): string {
  return hexOfIndex(bandColorIndex(stackId), palette);
}

/** Caches the canvas colour strings of the palette's entries for one palette. */
export function createBandColorCache(palette: BandPalette): (index: number) => string {
  const colors = Array.from({ length: BAND_COLOR_COUNT }, (_, index) =>
    colorOfIndex(index, palette),
  );
  return (index) => (index < 0 ? specialFill(index, palette) : colors[index % BAND_COLOR_COUNT]!);
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

/** CIELAB (D65) of a #rrggbb colour. */
export function labOfHex(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1, 7), 16);
  const linear = (channel: number): number => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const r = linear((value >> 16) & 255);
  const g = linear((value >> 8) & 255);
  const b = linear(value & 255);
  const x = (r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047;
  const y = r * 0.2126 + g * 0.7152 + b * 0.0722;
  const z = (r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883;
  const f = (t: number): number => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

/** Colour difference ΔE*ab (CIE76) of two #rrggbb colours: about 2.3 is just noticeable. */
export function colorDifference(a: string, b: string): number {
  const [l1, a1, b1] = labOfHex(a);
  const [l2, a2, b2] = labOfHex(b);
  return Math.hypot(l1 - l2, a1 - a2, b1 - b2);
}

/** Bands that touch differ at least this much (ΔE) in every theme, where the palette allows. */
export const MIN_NEIGHBOUR_DIFFERENCE = 18;

/**
 * Which palette entries are too close to sit on each other: clashes[i * BAND_COLOR_COUNT + j]
 * is 1 when entries i and j differ by less than `threshold` in any of the palettes (one per
 * theme, so a picture is coloured alike in light and dark).
 */
export function bandClashMatrix(
  palettes: readonly BandPalette[],
  threshold = MIN_NEIGHBOUR_DIFFERENCE,
): Uint8Array {
  const n = BAND_COLOR_COUNT;
  const clashes = new Uint8Array(n * n);
  for (const palette of palettes) {
    const hex = Array.from({ length: n }, (_, index) => hexOfIndex(index, palette));
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++)
        if (colorDifference(hex[i]!, hex[j]!) < threshold) clashes[i * n + j] = 1;
  }
  return clashes;
}

/** What gives each band (a row of the allocation table) its colour. */
export interface BandColoring {
  /** The colouring's name in the legend ("stack", "category", "top user frame"). */
  name: string;
  /** The key of a row: rows with one key share a colour. */
  keyOfRow(row: number): number;
  /** The preferred palette index of a key (NO_STACK_COLOR, NEUTRAL_COLOR for those looks). */
  colorOfKey(key: number): number;
  /**
   * Keys keep their preferred colour even beside a clashing one, so that a legend can name what
   * each colour is; otherwise neighbours that clash are moved apart.
   */
  fixed: boolean;
  /** Stackless allocations take the no-stack fill (not a colour of their key) under the hatch. */
  noStackFill: boolean;
}

/** One colour per call stack; allocations with none recorded take the no-stack fill. */
export function stackColoring(stackIdOfRow: ArrayLike<number>): BandColoring {
  return {
    name: 'stack',
    keyOfRow: (row) => stackIdOfRow[row]!,
    colorOfKey: bandColorIndex,
    fixed: false,
    noStackFill: true,
  };
}

const STACK_COLORING = derivedKey<BandColoring>('colouring by stack');

/** The device's colouring by stack: one object per device, so colours resolved for it are kept. */
export function deviceStackColoring(
  device: Pick<AnalyzedDevice, 'allocations' | 'derived'>,
): BandColoring {
  return device.derived.get(STACK_COLORING, () => stackColoring(device.allocations.stackId));
}

/** Each allocation its own colour, cycling through the palette in allocation order. */
export const ALLOCATION_COLORING: BandColoring = {
  name: 'allocation',
  keyOfRow: (row) => row,
  colorOfKey: allocationColorIndex,
  fixed: false,
  noStackFill: false,
};

/**
 * The palette index of every band of a layout. Each key starts from its preferred colour; in a
 * colouring that is not fixed, a key whose preferred colour clashes with that of a key it touches
 * takes the first entry, in palette order from its preferred one, that clashes with none; failing
 * that, the one that clashes with fewest. Keys are coloured most constrained first (DSatur), which
 * leaves the fewest without a free entry.
 */
export function resolveBandColors(
  layout: Pick<TimelineLayout, 'bands' | 'adjacentBands'>,
  coloring: BandColoring,
  clashes: Uint8Array,
): Int16Array {
  const { bands, adjacentBands } = layout;
  if (coloring.fixed)
    return Int16Array.from(bands, (band) => coloring.colorOfKey(coloring.keyOfRow(band.row)));
  const n = BAND_COLOR_COUNT;
  const keyIds = new Map<number, number>();
  const keyOfBand = new Int32Array(bands.length);
  const preferred: number[] = [];
  bands.forEach((band, index) => {
    const key = coloring.keyOfRow(band.row);
    let id = keyIds.get(key);
    if (id === undefined) {
      id = preferred.length;
      keyIds.set(key, id);
      preferred.push(coloring.colorOfKey(key));
    }
    keyOfBand[index] = id;
  });
  const neighbours: Set<number>[] = preferred.map(() => new Set());
  for (let pair = 0; pair + 1 < adjacentBands.length; pair += 2) {
    const a = keyOfBand[adjacentBands[pair]!]!;
    const b = keyOfBand[adjacentBands[pair + 1]!]!;
    if (a === b) continue;
    neighbours[a]!.add(b);
    neighbours[b]!.add(a);
  }
  // DSatur: colour next the key whose coloured neighbours rule out the most entries (ties: the
  // one with most neighbours, then the lowest in the stack), so crowded keys choose first.
  const keys = preferred.length;
  const UNCHOSEN = -32768;
  const chosen = new Int16Array(keys).fill(UNCHOSEN);
  const blocked = new Uint16Array(keys * n); // per key and entry: neighbours ruling it out
  const blockedCount = new Uint16Array(keys);
  for (let key = 0; key < keys; key++) if (preferred[key]! < 0) chosen[key] = preferred[key]!;
  // Keys by degree (most neighbours first) for when no uncoloured key is constrained yet; the
  // constrained ones (the frontier) are few, so picking among them stays cheap.
  const byDegree = Array.from({ length: keys }, (_, key) => key).sort(
    (a, b) => neighbours[b]!.size - neighbours[a]!.size || a - b,
  );
  let nextByDegree = 0;
  const frontier = new Set<number>();
  for (;;) {
    let key = -1;
    for (const candidate of frontier) {
      if (
        key < 0 ||
        blockedCount[candidate]! > blockedCount[key]! ||
        (blockedCount[candidate] === blockedCount[key] &&
          (neighbours[candidate]!.size > neighbours[key]!.size ||
            (neighbours[candidate]!.size === neighbours[key]!.size && candidate < key)))
      )
        key = candidate;
    }
    if (key < 0) {
      while (nextByDegree < keys && chosen[byDegree[nextByDegree]!] !== UNCHOSEN) nextByDegree++;
      if (nextByDegree === keys) break;
      key = byDegree[nextByDegree]!;
    }
    frontier.delete(key);
    const want = preferred[key]!;
    let best = want;
    let bestClashes = Infinity;
    for (let step = 0; step < n && bestClashes > 0; step++) {
      const candidate = (want + step) % n;
      const count = blocked[key * n + candidate]!;
      if (count < bestClashes) {
        best = candidate;
        bestClashes = count;
      }
    }
    chosen[key] = best;
    for (const other of neighbours[key]!) {
      if (chosen[other] !== UNCHOSEN) continue;
      for (let entry = 0; entry < n; entry++) {
        if (clashes[best * n + entry] !== 1) continue;
        const at = other * n + entry;
        if (blocked[at] === 0) blockedCount[other] = blockedCount[other]! + 1;
        blocked[at] = blocked[at]! + 1;
      }
      frontier.add(other);
    }
  }
  return Int16Array.from(keyOfBand, (key) => chosen[key]!);
}
