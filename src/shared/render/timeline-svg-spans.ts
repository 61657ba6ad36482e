// record_function spans in the exported timeline, as the app draws them: a faint wash for
// top-level spans that do not cover the whole view, a 2 px lane per nesting level (up to 3) along
// the top, and the names of the spans wide enough to hold them under the lane. Overlapping
// rectangles are merged, so thousands of short spans stay a handful of path commands.

import { annotationLabels } from '../chart/annotation-labels';
import { pairAnnotations, placeAnnotationSpans } from '../chart/annotation-spans';
import type { EventAxis } from '../chart/event-axis';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { fillOf, type RenderTheme } from './render-theme';
import { escapeXml, num, textWidth, type SvgPlot } from './svg-markup';

/** Where the names sit under the lane bars, as on the canvas (timeline-draw.ts ANNOTATION_LANE). */
const LABEL_TOP = 10;
const LABEL_ROW = 12;
const LABEL_SIZE = 10;

/**
 * The spans' marks (drawn under the bands) and their names (drawn over them); '' each when the
 * device has none.
 */
export function spansMarkup(
  view: AnalyzedSnapshot,
  device: AnalyzedDevice,
  axis: EventAxis,
  x0: number,
  x1: number,
  plot: SvgPlot,
  theme: RenderTheme,
): { marks: string; names: string } {
  const spans = placeAnnotationSpans(
    pairAnnotations(view.annotations, device.device),
    device.timeUs,
    device.traceLength,
    axis.mode,
  );
  if (spans.length === 0) return { marks: '', names: '' };
  const xOf = (x: number): number => plot.left + ((x - x0) / (x1 - x0)) * plot.width;
  const labels = annotationLabels(
    spans
      .filter((span) => span.x1 >= x0 && span.x0 <= x1)
      .map((span) => ({
        name: span.name,
        depth: span.depth,
        x0: xOf(span.x0) - plot.left,
        x1: xOf(span.x1) - plot.left,
      })),
    plot.width,
    (text) => textWidth(text, LABEL_SIZE),
  );
  const names = labels
    .map(
      (label) =>
        `<text x="${num(plot.left + label.x)}" y="${num(plot.top + LABEL_TOP + label.depth * LABEL_ROW + LABEL_SIZE - 1)}">${escapeXml(label.text)}</text>`,
    )
    .join('');
  const washes: [number, number][] = [];
  const lanes: [number, number][][] = [[], [], []];
  for (const span of spans) {
    if (span.x1 < x0 || span.x0 > x1) continue;
    const left = Math.max(plot.left - 1, xOf(span.x0));
    const right = Math.min(plot.left + plot.width + 1, Math.max(left + 1, xOf(span.x1)));
    if (span.depth === 0 && right - left <= plot.width * 0.9) washes.push([left, right]);
    if (span.depth <= 2) lanes[span.depth]!.push([left, right]);
  }
  const wash = mergedRectsPath(washes, plot.top, plot.height);
  const lane = lanes
    .map((rects, depth) => mergedRectsPath(rects, plot.top + depth * 3, 2))
    .join('');
  const marks =
    (wash === ''
      ? ''
      : `<path class="annotations" d="${wash}" ${fillOf(theme.annotationFill)} data-mark="annotations"/>`) +
    (lane === ''
      ? ''
      : `<path class="annotation-lanes" d="${lane}" ${fillOf(theme.annotationLane)} data-mark="annotations"/>`);
  return {
    marks,
    names:
      names === ''
        ? ''
        : `<g class="annotation-names" font-size="${LABEL_SIZE}" fill="${theme.annotationText}" stroke="${theme.background}" stroke-width="3" stroke-linejoin="round" paint-order="stroke" data-mark="annotations">${names}</g>`,
  };
}

/**
 * Path data for x ranges [left, right] drawn from y down `height`, ranges that overlap or lie
 * within half a pixel of each other merged into one rectangle. Sorts `ranges` in place.
 */
export function mergedRectsPath(ranges: [number, number][], y: number, height: number): string {
  ranges.sort((a, b) => a[0] - b[0]);
  let d = '';
  let current: [number, number] | null = null;
  const flush = (): void => {
    if (current !== null)
      d += `M${num(current[0])} ${num(y)}h${num(current[1] - current[0])}v${num(height)}h${num(current[0] - current[1])}z`;
  };
  for (const range of ranges) {
    if (current !== null && range[0] <= current[1] + 0.5)
      current[1] = Math.max(current[1], range[1]);
    else {
      flush();
      current = [range[0], range[1]];
    }
  }
  flush();
  return d;
}
