// The exported timeline's allocation bands: laid out from the shared timeline layout with as many
// bands as the outline budget allows, and written as one <path> each, coloured as the app colours
// them (chart/band-colors.ts, holders/band-coloring.ts), those with no recorded stack hatched.

import {
  hexOfIndex,
  resolveBandColors,
  type BandColoring,
  type BandPalette,
} from '../chart/band-colors';
import {
  layoutTimeline,
  type TimelineLayout,
  type TimelineLayoutRequest,
} from '../chart/timeline-layout';
import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { bandOutlines, type BandOutlines } from './band-outlines';
import { BAND_CLASHES } from './palette';
import { fillOf, strokeOf, type RenderTheme } from './render-theme';
import { num } from './svg-markup';

/** Id of the no-stack hatch pattern in the document's <defs>. */
export const NO_STACK_HATCH_ID = 'no-stack-hatch';
/** One stripe period in CSS pixels, as on the canvas. */
const HATCH_PERIOD = 6;

/**
 * A layout and its bands as outlines in document coordinates, with the number of bands halved
 * until the outlines take at most `maxSteps` steps (the document's size follows them).
 */
export function fitBandsToBudget(
  first: TimelineLayout,
  request: Omit<TimelineLayoutRequest, 'maxBands'>,
  maxSteps: number,
  xOfEvent: (event: number) => number,
  yOfBytes: (bytes: number) => number,
): { layout: TimelineLayout; outlines: BandOutlines } {
  let layout = first;
  let outlines = bandOutlines(layout.bands, xOfEvent, yOfBytes);
  while (outlines.steps > maxSteps && layout.bands.length > 1) {
    layout = layoutTimeline({ ...request, maxBands: Math.floor(layout.bands.length / 2) });
    outlines = bandOutlines(layout.bands, xOfEvent, yOfBytes);
  }
  return { layout, outlines };
}

/** The hatch pattern (diagonal stripes on transparent) for the document's <defs>. */
export function noStackHatchDef(bands: BandPalette): string {
  const stripe = HATCH_PERIOD / 3;
  return (
    `<pattern id="${NO_STACK_HATCH_ID}" width="${HATCH_PERIOD}" height="${HATCH_PERIOD}" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="${num(stripe)}" height="${HATCH_PERIOD}" ${fillOf(bands.noStackHatch)}/></pattern>`
  );
}

/** The bands' paths; those tall enough to see get a hairline edge, those with no stack a hatch. */
export function bandsMarkup(
  layout: TimelineLayout,
  paths: readonly string[],
  device: AnalyzedDevice,
  theme: RenderTheme,
  topBytes: number,
  plotHeight: number,
  coloring: BandColoring,
): string {
  const stackIds = device.allocations.stackId;
  const colors = resolveBandColors(layout, coloring, BAND_CLASHES);
  const pixelsPerByte = plotHeight / topBytes;
  const edged: string[] = [];
  const plain: string[] = [];
  const hatched: string[] = [];
  layout.bands.forEach((band, i) => {
    const color = hexOfIndex(colors[i]!, theme.bands);
    const noStack = stackIds[band.row]! < 0;
    const path = `<path d="${paths[i]!}" fill="${color}" data-mark="${noStack ? 'no-stack' : 'bands'}"/>`;
    // Bands tall enough to see get a hairline edge so neighbours of one colour stay apart.
    (band.sizeBytes * pixelsPerByte >= 4 ? edged : plain).push(path);
    if (noStack) hatched.push(paths[i]!);
  });
  return (
    `<g class="bands">${plain.join('')}</g>` +
    `<g class="bands-edged" ${strokeOf(theme.bandSeparator)} stroke-width="0.5">${edged.join('')}</g>` +
    (hatched.length === 0
      ? ''
      : `<path class="no-stack-hatch" d="${hatched.join('')}" fill="url(#${NO_STACK_HATCH_ID})"/>`)
  );
}
