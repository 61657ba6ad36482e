// The fragmentation chart as a standalone SVG document: the app's picture (src/renderer/
// fragmentation/fragmentation-draw.ts) drawn from the same shared geometry (@shared/chart/
// fragmentation-*): a byte pane with reserved − active (exact, after every event) as an area, the
// largest free block and internal waste as steps through the sampled allocator states, a share
// pane with the part of reserved memory in small holes, the active peak and OOM markers, the
// timeline's x axis, a title, the figures at the marked moment and a legend. Used by
// `allocscope render --view fragmentation` and the app's export of the Fragmentation tab.

import { deviceTimesUsable } from '../analyzed/device-times';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { createEventAxis, momentCoordinate, type XMode } from '../chart/event-axis';
import {
  fragmentationByteScale,
  SHARE_TICKS,
  splitPanes,
  visibleDomain,
} from '../chart/fragmentation-layout';
import {
  cachedColumns,
  largestDrawnBytes,
  samplePoints,
  stepXs,
  type SamplePoint,
} from '../chart/fragmentation-points';
import { eventMarkers } from '../chart/timeline-markers';
import type { FragmentationSeries } from '../state/fragmentation-series';
import { palette, type ThemeName } from './palette';
import {
  fragmentationFiguresLine,
  fragmentationLegend,
  fragmentationSvgTitle,
} from './fragmentation-svg-text';
import { fillOf, renderTheme, strokeOf } from './render-theme';
import { fitText, num, stepPathData, svgOpen, svgText, type SvgPlot } from './svg-markup';
import { xAxisMarkup, yAxisMarkup } from './timeline-svg-axes';
import { markerLabels, markerLines, markerStylesFor, momentLine } from './timeline-svg-markers';
import { fitTitle } from './fit-title';

export interface FragmentationSvgOptions {
  /** Size of the document in CSS pixels. */
  width: number;
  height: number;
  /** Events [startEvent, endEvent) to show (the timeline's window); default the whole trace. */
  startEvent?: number;
  endEvent?: number;
  /** The moment marked with a line, whose figures the second line lists. */
  moment?: number | null;
  theme?: ThemeName;
  /** x axis: time since the first event (default where the file has times) or event index. */
  xMode?: XMode;
}

/** The class of the chart's group: what tells this picture from the app's other exports. */
export const FRAGMENTATION_SVG_CLASS = 'allocscope-fragmentation';

export const FRAGMENTATION_SVG_MARGIN = { left: 72, right: 20, top: 66, bottom: 46 } as const;
const MAX_COLUMNS = 4096;
const TITLE_Y = 18;
const FIGURES_Y = 36;
/** The title and the figures start at the left edge, not the plot's, to fit long names. */
const TEXT_LEFT = 16;

/**
 * `series`: the allocator's figures at sampled moments (fragmentationSeries over
 * fragmentationExportMoments), the marked moment among them.
 */
export function renderFragmentationSvg(
  view: AnalyzedSnapshot,
  deviceIndex: number,
  series: FragmentationSeries,
  options: FragmentationSvgOptions,
): string {
  const device = view.devices[deviceIndex];
  if (device === undefined) throw new RangeError(`no device at index ${deviceIndex}`);
  const theme = renderTheme(options.theme);
  const colors = palette(theme.name).fragmentation;
  const width = Math.max(1, options.width);
  const height = Math.max(1, options.height);
  const margin = FRAGMENTATION_SVG_MARGIN;
  const plot: SvgPlot = {
    left: margin.left,
    top: margin.top,
    width: Math.max(1, width - margin.left - margin.right),
    height: Math.max(1, height - margin.top - margin.bottom),
  };
  const axis = createEventAxis(
    device,
    options.xMode ?? (deviceTimesUsable(device) ? 'time' : 'event'),
  );
  const window =
    options.startEvent === undefined || options.endEvent === undefined
      ? null
      : { mode: axis.mode, x0: axis.toX(options.startEvent), x1: axis.toX(options.endEvent) };
  const { x0, x1 } = visibleDomain(axis, window);
  const span = Math.max(x1 - x0, 1e-9);
  const xOfX = (x: number): number => ((x - x0) / span) * plot.width;
  const xOfMoment = (event: number): number => xOfX(axis.toX(momentCoordinate(axis, event)));
  const moment = options.moment ?? null;

  const columns = Math.max(1, Math.min(MAX_COLUMNS, Math.round(plot.width)));
  const cached = cachedColumns(device, axis, x0, x1, columns);
  const points = samplePoints(
    { series, windowSeries: null, moment: moment ?? -1, momentFigures: null },
    xOfMoment,
    0,
    plot.width,
  );
  const panes = splitPanes(plot.height);
  const { ticks, top } = fragmentationByteScale(
    largestDrawnBytes(cached, points),
    panes.bytesHeight,
  );
  const bytesBase = plot.top + panes.bytesTop + panes.bytesHeight;
  const yBytes = (bytes: number): number => bytesBase - (bytes / top) * panes.bytesHeight;
  const shareBase = plot.top + panes.shareTop + panes.shareHeight;
  const yShare = (share: number): number => shareBase - share * panes.shareHeight;

  const parts: string[] = [];
  const title = fragmentationSvgTitle(view, device, axis, x0, x1, moment);
  parts.push(svgOpen(width, height, theme.fontFamily, title));
  parts.push(`<g class="${FRAGMENTATION_SVG_CLASS}">`);
  parts.push(`<rect width="100%" height="100%" ${fillOf(theme.background)}/>`);
  parts.push(
    `<defs><clipPath id="fragmentation-plot"><rect x="${num(plot.left)}" y="${num(plot.top)}" width="${num(plot.width)}" height="${num(plot.height)}"/></clipPath></defs>`,
  );
  parts.push(
    svgText(fitTitle(title, view.fileName, width - 2 * TEXT_LEFT, 13), {
      x: TEXT_LEFT,
      y: TITLE_Y,
      fill: theme.text,
      size: 13,
      weight: 'bold',
    }),
  );
  const figures = fragmentationFiguresLine(device, series, moment);
  if (figures !== null)
    parts.push(
      svgText(fitText(figures, width - 2 * TEXT_LEFT, 12), {
        x: TEXT_LEFT,
        y: FIGURES_Y,
        fill: theme.text,
        size: 12,
      }),
    );

  // Grid of both panes.
  const gridYs = [...ticks.values.map(yBytes), ...SHARE_TICKS.map(yShare)];
  parts.push(
    `<path d="${gridYs.map((y) => `M${num(plot.left)} ${num(Math.round(y) + 0.5)}h${num(plot.width)}`).join('')}" fill="none" ${strokeOf(theme.grid)} stroke-width="1"/>`,
  );

  parts.push('<g clip-path="url(#fragmentation-plot)">');
  // reserved − active: an area with its edge.
  const columnWidth = plot.width / columns;
  const cachedYs = cached.map(yBytes);
  parts.push(
    `<path class="frag-cached" d="${stepPathData(cachedYs, columnWidth, plot.left, bytesBase)}" ${fillOf(colors.cachedFill)}/>`,
  );
  parts.push(
    `<path d="${stepPathData(cachedYs, columnWidth, plot.left, null)}" fill="none" stroke="${colors.cached}" stroke-width="1.25" stroke-linejoin="round"/>`,
  );
  // The sampled curves: steps holding each sample until the next.
  const traceStart = { moment: Math.max(0, axis.minEvent), x: xOfX(axis.minX) };
  const xs = stepXs(points, plot.width, traceStart).map((x) => plot.left + x);
  const steps = (value: (point: SamplePoint) => number, y: (value: number) => number): string =>
    sampleStepsPath(points, xs, plot.left + plot.width, (point) => y(value(point)));
  const smallShare = (point: SamplePoint): number => yShare(point.smallShare);
  if (points.length > 0) {
    const smallFill = filledStepsPath(points, xs, plot.left + plot.width, smallShare, shareBase);
    parts.push(`<path class="frag-small-fill" d="${smallFill}" ${fillOf(colors.smallFill)}/>`);
    parts.push(
      curve(
        'frag-largest',
        steps((p) => p.largest, yBytes),
        colors.largest,
      ),
    );
    parts.push(
      curve(
        'frag-waste',
        steps((p) => p.waste, yBytes),
        colors.waste,
      ),
    );
    parts.push(
      curve(
        'frag-small',
        steps((p) => p.smallShare, yShare),
        colors.small,
      ),
    );
  }
  // The active peak and the OOMs, as on the timeline; the marked moment.
  const markers = eventMarkers(device).filter((marker) => marker.kind !== 'peak-reserved');
  const markerX = (event: number): number => plot.left + xOfMoment(event);
  const styles = markerStylesFor(theme, markers, markerX, plot);
  if (device.traceLength > 0) parts.push(...markerLines(markers, markerX, plot, styles));
  if (moment !== null) parts.push(momentLine(markerX(moment), plot, theme));
  parts.push('</g>');

  if (device.traceLength > 0) parts.push(markerLabels(markers, markerX, plot, styles));
  parts.push(
    yAxisMarkup(
      ticks,
      yBytes,
      { left: plot.left, top: plot.top, height: panes.bytesHeight },
      theme,
    ),
  );
  parts.push(
    shareAxisMarkup(yShare, plot.left, plot.top + panes.shareTop, panes.shareHeight, theme),
  );
  parts.push(xAxisMarkup(axis, device, x0, x1, plot, theme));
  parts.push(fragmentationLegend(theme, colors, plot, height, series.smallHoleThresholdBytes));
  parts.push('</g>');
  parts.push('</svg>');
  return parts.join('\n');
}

function curve(className: string, d: string, color: string): string {
  return `<path class="${className}" d="${d}" fill="none" stroke="${color}" stroke-width="1.5" stroke-linejoin="round"/>`;
}

/** Steps through the points: each value held from its x to the next point's (the last to `right`). */
function sampleStepsPath(
  points: readonly SamplePoint[],
  xs: readonly number[],
  right: number,
  y: (point: SamplePoint) => number,
): string {
  let d = '';
  points.forEach((point, i) => {
    const yValue = num(y(point));
    d += i === 0 ? `M${num(xs[0]!)} ${yValue}` : `V${yValue}`;
    d += `H${num(i + 1 < points.length ? xs[i + 1]! : right)}`;
  });
  return d;
}

/** The same steps closed down to `baseY`: the area under the curve. */
function filledStepsPath(
  points: readonly SamplePoint[],
  xs: readonly number[],
  right: number,
  y: (point: SamplePoint) => number,
  baseY: number,
): string {
  const steps = sampleStepsPath(points, xs, right, y);
  return `M${num(xs[0]!)} ${num(baseY)}V${steps.slice(steps.indexOf(' ') + 1)}V${num(baseY)}Z`;
}

/** The share pane's axis: 0 %, 50 %, 100 % of reserved memory. */
function shareAxisMarkup(
  yShare: (share: number) => number,
  left: number,
  top: number,
  height: number,
  theme: ReturnType<typeof renderTheme>,
): string {
  const x = left - 0.5;
  let path = `M${num(x)} ${num(top)}V${num(top + height)}`;
  const labels: string[] = [];
  for (const share of SHARE_TICKS) {
    const y = Math.round(yShare(share)) + 0.5;
    path += `M${num(x - 4)} ${num(y)}h4`;
    labels.push(
      svgText(`${Math.round(share * 100)}%`, {
        x: x - 7,
        y: y + 3.5,
        fill: theme.textMuted,
        anchor: 'end',
      }),
    );
  }
  return `<path d="${path}" fill="none" stroke="${theme.axisLine}"/>${labels.join('')}`;
}
