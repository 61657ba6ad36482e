// The exported timeline's allocation bands: laid out from the shared timeline layout with as many
// bands as the outline budget allows, and written as one <path> each, coloured by stack.

import { bandColorHex } from '../chart/band-colors';
import {
  layoutTimeline,
  type TimelineLayout,
  type TimelineLayoutRequest,
} from '../chart/timeline-layout';
import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { bandOutlines, type BandOutlines } from './band-outlines';
import { strokeOf, type RenderTheme } from './render-theme';

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

/** The bands' paths; those tall enough to see get a hairline edge. */
export function bandsMarkup(
  layout: TimelineLayout,
  paths: readonly string[],
  device: AnalyzedDevice,
  theme: RenderTheme,
  topBytes: number,
  plotHeight: number,
): string {
  const stackIds = device.allocations.stackId;
  const pixelsPerByte = plotHeight / topBytes;
  const edged: string[] = [];
  const plain: string[] = [];
  layout.bands.forEach((band, i) => {
    const color = bandColorHex(stackIds[band.row]!, theme.bands);
    const path = `<path d="${paths[i]!}" fill="${color}"/>`;
    // Bands tall enough to see get a hairline edge so neighbours of one colour stay apart.
    (band.sizeBytes * pixelsPerByte >= 4 ? edged : plain).push(path);
  });
  return (
    `<g class="bands">${plain.join('')}</g>` +
    `<g class="bands-edged" ${strokeOf(theme.bandSeparator)} stroke-width="0.5">${edged.join('')}</g>`
  );
}
