// What the exported timeline's scene (chart/timeline-scene.ts) is drawn in: the palette colour of
// each role, the bands' colours (chart/band-colors.ts) and the no-stack hatch, as the page's canvas
// draws them (src/renderer/timeline/timeline-theme.ts reads the same palette entries).

import { hexOfIndex, type BandPalette } from '../chart/band-colors';
import type { TimelineRole } from '../chart/timeline-scene';
import type { RenderTheme } from './render-theme';
import { fillOf, type Paint } from './render-theme';
import { palette } from './palette';
import type { SvgSceneColors } from './svg-scene';
import { num } from './svg-markup';

/** Id of the no-stack hatch pattern in the document's <defs>. */
export const NO_STACK_HATCH_ID = 'no-stack-hatch';
/** One stripe period in CSS pixels, as on the canvas. */
const HATCH_PERIOD = 6;

/** The hatch pattern (diagonal stripes on transparent) for the document's <defs>. */
export function noStackHatchDef(bands: BandPalette): string {
  const stripe = HATCH_PERIOD / 3;
  return (
    `<pattern id="${NO_STACK_HATCH_ID}" width="${HATCH_PERIOD}" height="${HATCH_PERIOD}" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="${num(stripe)}" height="${HATCH_PERIOD}" ${fillOf(bands.noStackHatch)}/></pattern>`
  );
}

/** The colours of the timeline scene's roles in this theme. */
export function timelineSvgColors(theme: RenderTheme): SvgSceneColors<TimelineRole> {
  const t = palette(theme.name).timeline;
  const roles: Record<TimelineRole, Paint | string> = {
    grid: t.grid,
    annotationFill: t.annotationFill,
    annotationLane: t.annotationLane,
    annotationText: t.annotationText,
    surface: theme.background,
    text: theme.textMuted,
    reservedFill: t.reservedFill,
    otherFill: t.other,
    activeLine: t.activeLine,
    reservedLine: t.reservedLine,
    bandSeparator: t.bandSeparator,
    peakActive: t.peakActive,
    peakReserved: t.peakReserved,
    oom: t.oom,
    moment: t.moment,
    'phase-forward': t.phases.forward,
    'phase-backward': t.phases.backward,
    'phase-optimizer': t.phases.optimizer,
    'phase-other': t.phases.other,
  };
  return {
    roles,
    bandColor: (index) => hexOfIndex(index, theme.bands),
    hatchFill: `url(#${NO_STACK_HATCH_ID})`,
  };
}
