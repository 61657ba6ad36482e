// Colours of the exported charts (SVG, PNG), light and dark. They mirror the app's CSS custom
// properties (src/renderer/timeline/timeline.css, src/renderer/styles.css), written as hex colours
// with separate opacities because SVG rasterizers (resvg) and older viewers do not all read CSS
// Color 4 syntax such as `rgb(28 34 48 / 7%)`.

import type { BandPalette } from '../chart/band-colors';

export type ThemeName = 'light' | 'dark';

export interface Paint {
  color: string;
  opacity: number;
}

export interface RenderTheme {
  name: ThemeName;
  background: string;
  text: string;
  textMuted: string;
  grid: Paint;
  axisLine: string;
  otherFill: string;
  activeLine: Paint;
  reservedLine: string;
  reservedFill: Paint;
  peakActive: string;
  peakReserved: string;
  oom: string;
  moment: string;
  /** record_function spans: a faint wash over the plot and a thin lane per nesting level. */
  annotationFill: Paint;
  annotationLane: Paint;
  bandSeparator: Paint;
  bands: BandPalette;
  /** Blocks of the segments view, by state. */
  allocatedBlock: string;
  pendingFreeBlock: string;
  cachedFreeBlock: string;
  segmentOutline: string;
  expandableOutline: string;
  /** Outline of the largest free block (the largest request that fits without a new segment). */
  largestHole: string;
  blockSeparator: Paint;
  fontFamily: string;
  monoFamily: string;
}

// The app's UI fonts first, then fonts a rasterizer without them finds on Linux.
const FONT_FAMILY =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', Ubuntu, Cantarell, 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";
const MONO_FAMILY =
  "ui-monospace, 'SFMono-Regular', 'JetBrains Mono', Menlo, Consolas, 'DejaVu Sans Mono', 'Liberation Mono', monospace";

const LIGHT: RenderTheme = {
  name: 'light',
  background: '#ffffff',
  text: '#1c2230',
  textMuted: '#5b6475',
  grid: { color: '#1c2230', opacity: 0.07 },
  axisLine: '#c3c9d3',
  otherFill: '#d3d7de',
  activeLine: { color: '#283040', opacity: 0.7 },
  reservedLine: '#5f74a6',
  reservedFill: { color: '#5f74a6', opacity: 0.07 },
  peakActive: '#2f6fed',
  peakReserved: '#6f58c0',
  oom: '#d43c3c',
  moment: '#1c2230',
  annotationFill: { color: '#c98f24', opacity: 0.06 },
  annotationLane: { color: '#c98f24', opacity: 0.75 },
  bandSeparator: { color: '#ffffff', opacity: 0.7 },
  bands: { saturation: 46, lightness: [74, 63], noStack: '#b1bac8' },
  allocatedBlock: '#6f93d6',
  pendingFreeBlock: '#e0a43b',
  cachedFreeBlock: '#e6e9ef',
  segmentOutline: '#9aa3b2',
  expandableOutline: '#2f6fed',
  largestHole: '#d43c3c',
  blockSeparator: { color: '#ffffff', opacity: 0.8 },
  fontFamily: FONT_FAMILY,
  monoFamily: MONO_FAMILY,
};

const DARK: RenderTheme = {
  name: 'dark',
  background: '#1a1d23',
  text: '#e6e9ef',
  textMuted: '#9aa3b2',
  grid: { color: '#ffffff', opacity: 0.07 },
  axisLine: '#464c58',
  otherFill: '#3a3f49',
  activeLine: { color: '#dce2ec', opacity: 0.65 },
  reservedLine: '#93a6d6',
  reservedFill: { color: '#93a6d6', opacity: 0.09 },
  peakActive: '#6c9bff',
  peakReserved: '#a892f2',
  oom: '#ff6b6b',
  moment: '#e6e9ef',
  annotationFill: { color: '#e6b250', opacity: 0.06 },
  annotationLane: { color: '#e6b250', opacity: 0.7 },
  bandSeparator: { color: '#0d1017', opacity: 0.55 },
  bands: { saturation: 34, lightness: [50, 41], noStack: '#5e687a' },
  allocatedBlock: '#4f74b8',
  pendingFreeBlock: '#c08a2c',
  cachedFreeBlock: '#2c313b',
  segmentOutline: '#5b6272',
  expandableOutline: '#6c9bff',
  largestHole: '#ff6b6b',
  blockSeparator: { color: '#0d1017', opacity: 0.6 },
  fontFamily: FONT_FAMILY,
  monoFamily: MONO_FAMILY,
};

export function renderTheme(name: ThemeName | undefined): RenderTheme {
  return name === 'dark' ? DARK : LIGHT;
}

/** fill="…" (and fill-opacity) attributes of a paint. */
export function fillOf(paint: Paint | string): string {
  if (typeof paint === 'string') return `fill="${paint}"`;
  return paint.opacity >= 1
    ? `fill="${paint.color}"`
    : `fill="${paint.color}" fill-opacity="${paint.opacity}"`;
}

/** stroke="…" (and stroke-opacity) attributes of a paint. */
export function strokeOf(paint: Paint | string): string {
  if (typeof paint === 'string') return `stroke="${paint}"`;
  return paint.opacity >= 1
    ? `stroke="${paint.color}"`
    : `stroke="${paint.color}" stroke-opacity="${paint.opacity}"`;
}
