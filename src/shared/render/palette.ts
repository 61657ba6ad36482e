// The one palette of the app and its exports, light and dark: every colour is written here once.
// From it come the page's CSS custom properties (palette-css.ts, written onto the document by
// src/renderer/canvas/page-palette.ts), the canvas charts' themes (src/renderer/*/…-theme.ts)
// and the SVG/PNG exports' theme (render-theme.ts).
//
// Opaque colours are #rrggbb; translucent ones are a Paint (#rrggbb and an opacity), because SVG
// rasterizers (resvg) and older viewers do not all read CSS Color 4 syntax: SVG writes a Paint as
// a colour and an opacity attribute, CSS and canvas as `rgb(r g b / a%)` (cssColor()).

import { bandClashMatrix, type BandPalette } from '../chart/band-colors';

export type ThemeName = 'light' | 'dark';

export const THEME_NAMES: readonly ThemeName[] = ['light', 'dark'];

/** A translucent colour: #rrggbb and an opacity in [0, 1]. */
export interface Paint {
  color: string;
  opacity: number;
}

/** #rrggbb, `transparent`, or a Paint. */
export type Color = string | Paint;

/** The page around the charts (styles.css and the feature stylesheets). */
export interface UiPalette {
  pageBackground: string;
  chrome: string;
  /** Panels and charts; also the exports' background. */
  surface: string;
  surfaceRaised: string;
  surfaceHover: string;
  surfaceBorder: string;
  divider: string;
  text: string;
  textMuted: string;
  textFaint: string;
  accent: string;
  accentHover: string;
  accentText: string;
  accentSoft: Paint;
  codeBackground: string;
  error: string;
  errorBackground: string;
  errorBorder: string;
  warning: string;
  warningBackground: string;
  warningBorder: string;
  logoRing: Color;
  /** CSS box-shadow values. */
  shadow: string;
  focusRing: string;
  tooltipShadow: string;
}

/** The memory timeline, its overview strip, table rows and allocation swatches. */
export interface TimelinePalette {
  grid: Paint;
  axisLine: string;
  /** Allocations too small to draw as their own band ("smaller allocations (merged)"). */
  other: string;
  activeLine: Paint;
  reservedLine: string;
  reservedFill: Paint;
  peakActive: string;
  peakReserved: string;
  /** Two snapshots compared on one axis: A's curve, B's, and B − A. */
  compare: { a: string; b: string; difference: string };
  oom: string;
  moment: string;
  selection: string;
  selectionHalo: string;
  hover: Paint;
  /** The phases of a step (steps/phases.ts): their bands above the step ruler and their swatches. */
  phases: { forward: string; backward: string; optimizer: string; other: string };
  /** record_function spans: a faint wash over the plot and a thin lane per nesting level. */
  annotationFill: Paint;
  annotationLane: Paint;
  /** Names of the annotation spans, written in the lane along the top of the plot. */
  annotationText: string;
  crosshair: Paint;
  overviewActive: string;
  overviewReserved: Paint;
  brushFill: Paint;
  brushStroke: Paint;
  bands: BandPalette;
  bandSeparator: Paint;
  rowHover: Paint;
  rowSelected: Paint;
}

/** The segments view on screen: blocks by state, segment outlines, hover and selection. */
export interface SegmentsPalette {
  allocated: string;
  pendingFree: string;
  free: string;
  outline: Paint;
  expandable: string;
  /** Outline of the largest free block (the largest request that fits without a new segment). */
  largestHole: string;
  hover: Paint;
  selection: string;
  selectionHalo: string;
}

/**
 * The segments picture of the exports (SVG, PNG): the screen's colours (SegmentsPalette), written
 * as opaque colours where the screen draws a translucent one (exportedSegmentsOf()).
 */
export interface ExportedSegmentsPalette {
  allocatedBlock: string;
  pendingFreeBlock: string;
  cachedFreeBlock: string;
  segmentOutline: string;
  expandableOutline: string;
  /** Outline of the largest free block (the largest request that fits without a new segment). */
  largestHole: string;
}

/** The fragmentation curves (the panel shares the timeline's grid, markers and crosshair). */
export interface FragmentationPalette {
  cached: string;
  cachedFill: Paint;
  largest: string;
  waste: string;
  small: string;
  smallFill: Paint;
}

export interface Palette {
  name: ThemeName;
  ui: UiPalette;
  timeline: TimelinePalette;
  segments: SegmentsPalette;
  exportedSegments: ExportedSegmentsPalette;
  fragmentation: FragmentationPalette;
}

const paint = (color: string, opacity: number): Paint => ({ color, opacity });

const LIGHT_BASE: Omit<Palette, 'exportedSegments'> = {
  name: 'light',
  ui: {
    pageBackground: '#f6f7f9',
    chrome: '#eceff3',
    surface: '#ffffff',
    surfaceRaised: '#ffffff',
    surfaceHover: '#f1f3f6',
    surfaceBorder: '#dde1e7',
    divider: '#e6e9ee',
    text: '#1c2230',
    textMuted: '#5b6475',
    textFaint: '#8a92a1',
    accent: '#2f6fed',
    accentHover: '#245ad0',
    accentText: '#ffffff',
    accentSoft: paint('#2f6fed', 0.1),
    codeBackground: '#eef1f5',
    error: '#c2353a',
    errorBackground: '#fdf0f0',
    errorBorder: '#f2c6c7',
    warning: '#9a6700',
    warningBackground: '#fff8e6',
    warningBorder: '#f0d9a0',
    logoRing: 'transparent',
    shadow: '0 1px 2px rgb(16 24 40 / 6%), 0 8px 24px rgb(16 24 40 / 8%)',
    focusRing: '0 0 0 3px rgb(47 111 237 / 35%)',
    tooltipShadow: '0 2px 6px rgb(16 24 40 / 10%), 0 10px 28px rgb(16 24 40 / 14%)',
  },
  timeline: {
    grid: paint('#1c2230', 0.07),
    axisLine: '#c3c9d3',
    other: '#d5d8de',
    activeLine: paint('#283040', 0.7),
    reservedLine: '#5f74a6',
    reservedFill: paint('#5f74a6', 0.07),
    peakActive: '#2f6fed',
    peakReserved: '#6f58c0',
    compare: { a: '#2f6fed', b: '#d9480f', difference: '#c2255c' },
    oom: '#d43c3c',
    moment: '#1c2230',
    selection: '#111827',
    selectionHalo: '#ffffff',
    hover: paint('#111827', 0.7),
    phases: { forward: '#4e79a7', backward: '#e15759', optimizer: '#59a14f', other: '#9c9c9c' },
    annotationFill: paint('#c98f24', 0.06),
    annotationLane: paint('#c98f24', 0.75),
    annotationText: '#7a4f06',
    crosshair: paint('#1c2230', 0.4),
    overviewActive: '#a9b1be',
    overviewReserved: paint('#5f74a6', 0.18),
    brushFill: paint('#2f6fed', 0.1),
    brushStroke: paint('#2f6fed', 0.7),
    bands: {
      saturation: 46,
      lightness: [74, 63],
      noStack: '#7d8aa6',
      neutral: '#a7a39e',
      noStackHatch: paint('#ffffff', 0.35),
    },
    bandSeparator: paint('#ffffff', 0.7),
    rowHover: paint('#1c2230', 0.04),
    rowSelected: paint('#2f6fed', 0.12),
  },
  segments: {
    allocated: '#5b84d6',
    pendingFree: '#e2a336',
    free: '#d9dfe8',
    outline: paint('#1c2230', 0.42),
    expandable: '#7b61c9',
    largestHole: '#d43c3c',
    hover: paint('#111827', 0.8),
    selection: '#111827',
    selectionHalo: '#ffffff',
  },
  fragmentation: {
    cached: '#5f74a6',
    cachedFill: paint('#5f74a6', 0.14),
    largest: '#23936a',
    waste: '#c0602f',
    small: '#a9479f',
    smallFill: paint('#a9479f', 0.14),
  },
};

const DARK_BASE: Omit<Palette, 'exportedSegments'> = {
  name: 'dark',
  ui: {
    pageBackground: '#15171c',
    chrome: '#111318',
    surface: '#1a1d23',
    surfaceRaised: '#22262e',
    surfaceHover: '#252a33',
    surfaceBorder: '#2f343e',
    divider: '#292e37',
    text: '#e6e9ef',
    textMuted: '#9aa3b2',
    textFaint: '#6d7686',
    accent: '#5b8dff',
    accentHover: '#7aa3ff',
    accentText: '#0d1220',
    accentSoft: paint('#5b8dff', 0.16),
    codeBackground: '#272b34',
    error: '#ff7b7f',
    errorBackground: '#2a1719',
    errorBorder: '#5a2a2e',
    warning: '#e3b341',
    warningBackground: '#2a2212',
    warningBorder: '#5c4a1c',
    logoRing: paint('#ffffff', 0.12),
    shadow: '0 1px 2px rgb(0 0 0 / 30%), 0 8px 24px rgb(0 0 0 / 35%)',
    focusRing: '0 0 0 3px rgb(91 141 255 / 45%)',
    tooltipShadow: '0 2px 6px rgb(0 0 0 / 35%), 0 10px 28px rgb(0 0 0 / 45%)',
  },
  timeline: {
    grid: paint('#ffffff', 0.07),
    axisLine: '#464c58',
    other: '#3a3f49',
    activeLine: paint('#dce2ec', 0.65),
    reservedLine: '#93a6d6',
    reservedFill: paint('#93a6d6', 0.09),
    peakActive: '#6c9bff',
    peakReserved: '#a892f2',
    compare: { a: '#6c9bff', b: '#ff922b', difference: '#f06595' },
    oom: '#ff6b6b',
    moment: '#e6e9ef',
    selection: '#ffffff',
    selectionHalo: '#0d1017',
    hover: paint('#ffffff', 0.75),
    phases: { forward: '#4e79a7', backward: '#e15759', optimizer: '#59a14f', other: '#9c9c9c' },
    annotationFill: paint('#e6b250', 0.06),
    annotationLane: paint('#e6b250', 0.7),
    annotationText: '#e9bc66',
    crosshair: paint('#e6e9ef', 0.4),
    overviewActive: '#5b6272',
    overviewReserved: paint('#93a6d6', 0.16),
    brushFill: paint('#6c9bff', 0.12),
    brushStroke: paint('#6c9bff', 0.75),
    bands: {
      saturation: 34,
      lightness: [50, 41],
      noStack: '#7a87a3',
      neutral: '#716961',
      noStackHatch: paint('#e6e9ef', 0.25),
    },
    bandSeparator: paint('#0d1017', 0.55),
    rowHover: paint('#ffffff', 0.04),
    rowSelected: paint('#6c9bff', 0.18),
  },
  segments: {
    allocated: '#5f88e0',
    pendingFree: '#c98f2c',
    free: '#3a404b',
    outline: paint('#e6e9ef', 0.35),
    expandable: '#a892f2',
    largestHole: '#ff6b6b',
    hover: paint('#ffffff', 0.8),
    selection: '#ffffff',
    selectionHalo: '#0d1017',
  },
  fragmentation: {
    cached: '#93a6d6',
    cachedFill: paint('#93a6d6', 0.14),
    largest: '#4cc495',
    waste: '#e38a55',
    small: '#d77fcd',
    smallFill: paint('#d77fcd', 0.14),
  },
};

/**
 * The exported segments picture in the screen's colours: block fills as they are, the segment
 * outline (translucent on screen) as the opaque colour it shows over the surface.
 */
function exportedSegmentsOf(base: Omit<Palette, 'exportedSegments'>): ExportedSegmentsPalette {
  const { segments, ui } = base;
  return {
    allocatedBlock: segments.allocated,
    pendingFreeBlock: segments.pendingFree,
    cachedFreeBlock: segments.free,
    segmentOutline: flatten(segments.outline, ui.surface),
    expandableOutline: segments.expandable,
    largestHole: segments.largestHole,
  };
}

const LIGHT: Palette = { ...LIGHT_BASE, exportedSegments: exportedSegmentsOf(LIGHT_BASE) };
const DARK: Palette = { ...DARK_BASE, exportedSegments: exportedSegmentsOf(DARK_BASE) };

/**
 * Which band colours may not touch (chart/band-colors.ts), judged in both themes so a picture
 * is coloured alike in light and dark.
 */
export const BAND_CLASHES: Uint8Array = bandClashMatrix([
  LIGHT.timeline.bands,
  DARK.timeline.bands,
]);

/** #rrggbb of a translucent paint laid over an opaque background. */
export function flatten(paint: Paint, background: string): string {
  const channels = (hex: string): number[] =>
    [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  const top = channels(paint.color);
  const under = channels(background);
  return `#${top
    .map((value, i) =>
      Math.round(value * paint.opacity + under[i]! * (1 - paint.opacity))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

export function palette(name: ThemeName): Palette {
  return name === 'dark' ? DARK : LIGHT;
}

/** A colour as CSS and canvas read it: #rrggbb as written, a Paint as `rgb(r g b / a%)`. */
export function cssColor(color: Color): string {
  if (typeof color === 'string') return color;
  if (color.opacity >= 1) return color.color;
  const hex = color.color.replace('#', '');
  const channel = (index: number): number => Number.parseInt(hex.slice(index, index + 2), 16);
  const percent = Math.round(color.opacity * 10000) / 100;
  return `rgb(${channel(0)} ${channel(2)} ${channel(4)} / ${percent}%)`;
}
