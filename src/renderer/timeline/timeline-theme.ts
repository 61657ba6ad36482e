// The timeline canvas's colours, from the palette (src/shared/render/palette.ts) that the page's
// CSS variables and the SVG export read too; built once per theme change by the canvas host.

import { createBandColorCache, type BandPalette } from '@shared/chart/band-colors';
import { cssColor, type Palette } from '@shared/render/palette';

export interface TimelineTheme {
  grid: string;
  otherFill: string;
  activeLine: string;
  reservedLine: string;
  reservedFill: string;
  peakActive: string;
  peakReserved: string;
  oom: string;
  moment: string;
  selection: string;
  selectionHalo: string;
  hover: string;
  annotationFill: string;
  annotationLane: string;
  crosshair: string;
  bandSeparator: string;
  overviewActive: string;
  overviewReserved: string;
  bands: BandPalette;
  /** Band colour of a stack id (cached per theme). */
  colorOfStack: (stackId: number) => string;
}

export function timelineTheme(palette: Palette): TimelineTheme {
  const t = palette.timeline;
  return {
    grid: cssColor(t.grid),
    otherFill: t.other,
    activeLine: cssColor(t.activeLine),
    reservedLine: t.reservedLine,
    reservedFill: cssColor(t.reservedFill),
    peakActive: t.peakActive,
    peakReserved: t.peakReserved,
    oom: t.oom,
    moment: t.moment,
    selection: t.selection,
    selectionHalo: t.selectionHalo,
    hover: cssColor(t.hover),
    annotationFill: cssColor(t.annotationFill),
    annotationLane: cssColor(t.annotationLane),
    crosshair: cssColor(t.crosshair),
    bandSeparator: cssColor(t.bandSeparator),
    overviewActive: t.overviewActive,
    overviewReserved: cssColor(t.overviewReserved),
    bands: t.bands,
    colorOfStack: createBandColorCache(t.bands),
  };
}
