// Colours of the segments chart on screen, from the palette (src/shared/render/palette.ts) that
// the view's legend (CSS variables) reads too.

import { cssColor, type Palette } from '@shared/render/palette';

export interface SegmentsTheme {
  allocated: string;
  pendingFree: string;
  free: string;
  outline: string;
  expandable: string;
  largestHole: string;
  hover: string;
  selection: string;
  selectionHalo: string;
}

export function segmentsTheme(palette: Palette): SegmentsTheme {
  const seg = palette.segments;
  return {
    allocated: seg.allocated,
    pendingFree: seg.pendingFree,
    free: seg.free,
    outline: cssColor(seg.outline),
    expandable: seg.expandable,
    largestHole: seg.largestHole,
    hover: cssColor(seg.hover),
    selection: seg.selection,
    selectionHalo: seg.selectionHalo,
  };
}
