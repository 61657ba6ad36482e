// Colours of the fragmentation chart, from the palette (src/shared/render/palette.ts): its own
// curves, and the timeline's grid, markers and crosshair for what the two charts share.

import type { FragmentationRole } from '@shared/chart/fragmentation-scene';
import { cssColor, type Palette } from '@shared/render/palette';

export interface FragmentationTheme {
  cached: string;
  cachedFill: string;
  largest: string;
  waste: string;
  small: string;
  smallFill: string;
  grid: string;
  moment: string;
  oom: string;
  peak: string;
  crosshair: string;
  /** The colour of each role of the plot's scene (the SVG export reads the same palette entries). */
  roles: Record<FragmentationRole, string>;
}

export function fragmentationTheme(palette: Palette): FragmentationTheme {
  const { fragmentation: frag, timeline } = palette;
  return {
    cached: frag.cached,
    cachedFill: cssColor(frag.cachedFill),
    largest: frag.largest,
    waste: frag.waste,
    small: frag.small,
    smallFill: cssColor(frag.smallFill),
    grid: cssColor(timeline.grid),
    moment: timeline.moment,
    oom: timeline.oom,
    peak: timeline.peakActive,
    crosshair: cssColor(timeline.crosshair),
    roles: {
      grid: cssColor(timeline.grid),
      cached: frag.cached,
      cachedFill: cssColor(frag.cachedFill),
      largest: frag.largest,
      waste: frag.waste,
      small: frag.small,
      smallFill: cssColor(frag.smallFill),
      peak: timeline.peakActive,
      oom: timeline.oom,
      moment: timeline.moment,
    },
  };
}
