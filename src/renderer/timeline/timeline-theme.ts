// The timeline canvas's colours, from the palette (src/shared/render/palette.ts) that the page's
// CSS variables and the SVG export read too; built once per theme change by the canvas host.

import { bandColorIndex, createBandColorCache, type BandPalette } from '@shared/chart/band-colors';
import type { TimelineRole } from '@shared/chart/timeline-scene';
import { cssColor, type Palette } from '@shared/render/palette';
import { canvasFont } from '../canvas/canvas-font';

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
  annotationText: string;
  /** The plot's background: the halo behind text drawn over the bands. */
  surface: string;
  crosshair: string;
  bandSeparator: string;
  overviewActive: string;
  overviewReserved: string;
  bands: BandPalette;
  /** Stripes over allocations with no recorded stack. */
  noStackHatch: string;
  /** Canvas colour of a band palette index (chart/band-colors.ts); the no-stack fill for -1. */
  colorOfIndex: (index: number) => string;
  /** The preferred band colour of a stack id (what DOM swatches show). */
  colorOfStack: (stackId: number) => string;
  /** The colour of each role of the plot's scene (the SVG export reads the same palette entries). */
  roles: Record<TimelineRole, string>;
  /** The canvas font of the scene's text at a size in CSS pixels. */
  font: (sizePx: number) => string;
}

export function timelineTheme(palette: Palette): TimelineTheme {
  const t = palette.timeline;
  const colorOfIndex = createBandColorCache(t.bands);
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
    annotationText: t.annotationText,
    surface: palette.ui.surface,
    crosshair: cssColor(t.crosshair),
    bandSeparator: cssColor(t.bandSeparator),
    overviewActive: t.overviewActive,
    overviewReserved: cssColor(t.overviewReserved),
    bands: t.bands,
    noStackHatch: cssColor(t.bands.noStackHatch),
    colorOfIndex,
    colorOfStack: (stackId) => colorOfIndex(bandColorIndex(stackId)),
    roles: {
      grid: cssColor(t.grid),
      annotationFill: cssColor(t.annotationFill),
      annotationLane: cssColor(t.annotationLane),
      annotationText: t.annotationText,
      surface: palette.ui.surface,
      text: palette.ui.textMuted,
      reservedFill: cssColor(t.reservedFill),
      otherFill: t.other,
      activeLine: cssColor(t.activeLine),
      reservedLine: t.reservedLine,
      bandSeparator: cssColor(t.bandSeparator),
      peakActive: t.peakActive,
      peakReserved: t.peakReserved,
      oom: t.oom,
      moment: t.moment,
      'phase-forward': t.phases.forward,
      'phase-backward': t.phases.backward,
      'phase-optimizer': t.phases.optimizer,
      'phase-other': t.phases.other,
    },
    font: canvasFont,
  };
}
