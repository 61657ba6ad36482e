// The exported charts' theme (SVG, PNG), light and dark, built from the one palette
// (palette.ts) the page's CSS and canvas charts use too: the same colours, written for SVG
// (a Paint becomes a colour and an opacity attribute).

import type { BandPalette } from '../chart/band-colors';
import { palette, type Paint, type ThemeName } from './palette';

export type { Paint, ThemeName } from './palette';

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
  /** Two snapshots compared on one axis: A's curve, B's, and B − A. */
  compare: { a: string; b: string; difference: string };
  oom: string;
  moment: string;
  /** record_function spans: a faint wash over the plot and a thin lane per nesting level. */
  annotationFill: Paint;
  annotationLane: Paint;
  annotationText: string;
  /** The phases' bands (steps/phases.ts) above the step ruler. */
  phases: { forward: string; backward: string; optimizer: string; other: string };
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
  fontFamily: string;
  monoFamily: string;
}

// The app's UI fonts first, then fonts a rasterizer without them finds on Linux.
const FONT_FAMILY =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', Ubuntu, Cantarell, 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";
const MONO_FAMILY =
  "ui-monospace, 'SFMono-Regular', 'JetBrains Mono', Menlo, Consolas, 'DejaVu Sans Mono', 'Liberation Mono', monospace";

function buildRenderTheme(name: ThemeName): RenderTheme {
  const { ui, timeline, exportedSegments } = palette(name);
  return {
    name,
    background: ui.surface,
    text: ui.text,
    textMuted: ui.textMuted,
    grid: timeline.grid,
    axisLine: timeline.axisLine,
    otherFill: timeline.other,
    activeLine: timeline.activeLine,
    reservedLine: timeline.reservedLine,
    reservedFill: timeline.reservedFill,
    peakActive: timeline.peakActive,
    peakReserved: timeline.peakReserved,
    compare: timeline.compare,
    oom: timeline.oom,
    moment: timeline.moment,
    annotationFill: timeline.annotationFill,
    annotationLane: timeline.annotationLane,
    annotationText: timeline.annotationText,
    phases: timeline.phases,
    bandSeparator: timeline.bandSeparator,
    bands: timeline.bands,
    ...exportedSegments,
    fontFamily: FONT_FAMILY,
    monoFamily: MONO_FAMILY,
  };
}

const LIGHT = buildRenderTheme('light');
const DARK = buildRenderTheme('dark');

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
