// record_function spans in the exported timeline, as the app draws them: a faint wash for
// top-level spans that do not cover the whole view, a 2 px lane per nesting level (up to 3) along
// the top. Overlapping rectangles are merged, so thousands of short spans stay a handful of path
// commands.

import { pairAnnotations, placeAnnotationSpans } from '../chart/annotation-spans';
import type { EventAxis } from '../chart/event-axis';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { fillOf, type RenderTheme } from './render-theme';
import { num, type SvgPlot } from './svg-markup';

/** The spans' markup; '' when the device has none. */
export function spansMarkup(
  view: AnalyzedSnapshot,
  device: AnalyzedDevice,
  axis: EventAxis,
  x0: number,
  x1: number,
  plot: SvgPlot,
  theme: RenderTheme,
): string {
  const spans = placeAnnotationSpans(
    pairAnnotations(view.annotations, device.device),
    device.timeUs,
    device.traceLength,
    axis.mode,
  );
  if (spans.length === 0) return '';
  const xOf = (x: number): number => plot.left + ((x - x0) / (x1 - x0)) * plot.width;
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
  return (
    (wash === '' ? '' : `<path class="annotations" d="${wash}" ${fillOf(theme.annotationFill)}/>`) +
    (lane === ''
      ? ''
      : `<path class="annotation-lanes" d="${lane}" ${fillOf(theme.annotationLane)}/>`)
  );
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
