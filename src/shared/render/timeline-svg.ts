// The memory timeline as a standalone SVG document: the app's picture (src/renderer/timeline/
// timeline-draw.ts) drawn from the same shared layout (layoutTimeline), axis, ticks, colours,
// markers and annotation spans (src/shared/chart): reserved memory as a light area, the active
// memory as stacked allocation bands coloured by stack or by allocation (those with no recorded
// stack hatched) with the smaller allocations merged into one grey area, the active and reserved
// curves, peak and OOM markers, the annotation spans with their names, byte and time/event axes,
// a title line and a legend naming every kind of mark drawn. Used by `allocscope render` and the
// app's SVG export.
//
// Size stays bounded whatever the trace: curves are column envelopes (one value per pixel
// column), bands are one <path> each with coordinates rounded to 0.1 px and steps narrower than
// half a pixel dropped, and at most MAX_BANDS bands (fewer when their outlines get too long).

import { deviceTimesUsable } from '../analyzed/device-times';
import { bandColoring, coloringLegend, type ColorBy } from '../holders/band-coloring';
import type { CategoryRules } from '../holders/category-rules';
import { pairAnnotations, placeAnnotationSpans } from '../chart/annotation-spans';
import { timelineMarks } from '../chart/timeline-marks';
import { byteTicks } from '../chart/byte-ticks';
import {
  columnStartEvents,
  createEventAxis,
  momentCoordinate,
  type XMode,
} from '../chart/event-axis';
import { layoutTimeline } from '../chart/timeline-layout';
import { eventMarkers } from '../chart/timeline-markers';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { fillOf, renderTheme, strokeOf, type Paint, type ThemeName } from './render-theme';
import { num, stepPathData, svgOpen, svgText, textWidth, type SvgPlot } from './svg-markup';
import { xAxisMarkup, xAxisUnit, yAxisMarkup } from './timeline-svg-axes';
import { bandsMarkup, fitBandsToBudget, noStackHatchDef } from './timeline-svg-bands';
import { LEGEND_ROW, legendRowCount, timelineLegend } from './timeline-svg-legend';
import { markerLabels, markerLines, markerStylesFor, momentLine } from './timeline-svg-markers';
import { spansMarkup } from './timeline-svg-spans';
import { timelineSvgTitle } from './timeline-svg-title';
import { stepsOf } from '../steps/find-steps';
import { fitTitle } from './fit-title';

export interface TimelineSvgOptions {
  /** Size of the document in CSS pixels. */
  width: number;
  height: number;
  /** Events [startEvent, endEvent) to show; default the whole trace. */
  startEvent?: number;
  endEvent?: number;
  /** An event to mark with a vertical line (the state after it). */
  moment?: number | null;
  theme?: ThemeName;
  /** x axis: time since the first event (default where the file has times) or event index. */
  xMode?: XMode;
  /** What gives a band its colour, as the app's toggle chose (default by stack). */
  colorBy?: ColorBy;
  /** The category rules, when colouring by category (default the built-in ones). */
  rules?: CategoryRules;
}

export const TIMELINE_SVG_MARGIN = { left: 72, right: 20, top: 66, bottom: 46 } as const;
const MAX_BANDS = 1000;
const MAX_COLUMNS = 4096;
/** Budget of band outline steps over all bands; beyond it fewer bands are drawn individually. */
const MAX_BAND_STEPS = 250_000;
const TITLE_Y = 18;

export function renderTimelineSvg(
  view: AnalyzedSnapshot,
  deviceIndex: number,
  options: TimelineSvgOptions,
): string {
  const device = view.devices[deviceIndex];
  if (device === undefined) throw new RangeError(`no device at index ${deviceIndex}`);
  const theme = renderTheme(options.theme);
  const coloring = bandColoring(view, device, options.colorBy ?? 'stack', options.rules);
  const width = Math.max(1, options.width);
  const height = Math.max(1, options.height);
  const margin = TIMELINE_SVG_MARGIN;
  const axis = createEventAxis(
    device,
    options.xMode ?? (deviceTimesUsable(device) ? 'time' : 'event'),
  );
  const hasSpans =
    placeAnnotationSpans(
      pairAnnotations(view.annotations, device.device),
      device.timeUs,
      device.traceLength,
      axis.mode,
    ).length > 0;
  const moment = options.moment ?? null;
  const marks = timelineMarks({
    coloring,
    noStack: device.allocations.stackId.some((stackId) => stackId < 0),
    trace: device.traceLength > 0,
    ooms: device.figures.ooms.length > 0,
    annotations: hasSpans,
    steps: device.traceLength > 0 && stepsOf(view, device).steps.length > 0,
    moment: moment !== null,
  });
  // A legend that needs a second row takes its height from the plot.
  const legend = { marks, coloring, groups: coloringLegend(coloring) };
  // The legend stays left of the x axis's title, which shares the line of its first row.
  const legendRight = width - margin.right - textWidth(xAxisUnit(axis), 11) - 16;
  const legendRows = legendRowCount(legend, margin.left, legendRight);
  const bottom = margin.bottom + Math.max(0, legendRows - 1) * LEGEND_ROW;
  const plot: SvgPlot = {
    left: margin.left,
    top: margin.top,
    width: Math.max(1, width - margin.left - margin.right),
    height: Math.max(1, height - margin.top - bottom),
  };

  const startEvent = clamp(
    Math.floor(options.startEvent ?? axis.minEvent),
    axis.minEvent,
    axis.maxEvent - 1,
  );
  const endEvent = clamp(
    Math.ceil(options.endEvent ?? axis.maxEvent),
    startEvent + 1,
    axis.maxEvent,
  );
  const x0 = axis.toX(startEvent);
  const x1 = Math.max(axis.toX(endEvent), x0 + 1e-9);
  const xOfEvent = (eventCoordinate: number): number =>
    plot.left + ((axis.toX(eventCoordinate) - x0) / (x1 - x0)) * plot.width;

  const columns = Math.max(1, Math.min(MAX_COLUMNS, Math.round(plot.width)));
  const request = {
    device,
    startEvent,
    endEvent,
    columnStartEvents: columnStartEvents(axis, startEvent, endEvent, columns),
  };
  const firstLayout = layoutTimeline({ ...request, maxBands: MAX_BANDS });

  const ticks = byteTicks(firstLayout.maxBytes, Math.max(2, Math.round(plot.height / 45)));
  const top = Math.max(firstLayout.maxBytes * 1.06, ticks.values.at(-1) ?? 0, 1);
  const yOfBytes = (bytes: number): number => plot.top + plot.height - (bytes / top) * plot.height;
  const { layout, outlines } = fitBandsToBudget(
    firstLayout,
    request,
    MAX_BAND_STEPS,
    xOfEvent,
    yOfBytes,
  );

  const parts: string[] = [];
  const title = timelineSvgTitle(view, device, axis, startEvent, endEvent, moment);
  parts.push(svgOpen(width, height, theme.fontFamily, title));
  parts.push(`<rect width="100%" height="100%" ${fillOf(theme.background)}/>`);
  parts.push(
    `<defs><clipPath id="plot"><rect x="${num(plot.left)}" y="${num(plot.top)}" width="${num(plot.width)}" height="${num(plot.height)}"/></clipPath>${noStackHatchDef(theme.bands)}</defs>`,
  );
  parts.push(
    svgText(fitTitle(title, view.fileName, width - plot.left - 8, 13), {
      x: plot.left,
      y: TITLE_Y,
      fill: theme.text,
      size: 13,
      weight: 'bold',
    }),
  );

  // Grid under everything.
  parts.push(
    `<path d="${ticks.values.map((bytes) => `M${num(plot.left)} ${num(Math.round(yOfBytes(bytes)) + 0.5)}h${num(plot.width)}`).join('')}" fill="none" ${strokeOf(theme.grid)} stroke-width="1"/>`,
  );

  parts.push('<g clip-path="url(#plot)">');
  const spans = spansMarkup(view, device, axis, x0, x1, plot, theme);
  parts.push(spans.marks);
  const columnWidth = plot.width / columns;
  const baseY = yOfBytes(0);
  const columnY = (values: Float64Array): Float64Array => values.map((value) => yOfBytes(value));
  const reservedYs = columnY(layout.reservedMax);
  const activeYs = columnY(layout.activeMax);
  parts.push(
    `<path d="${stepPathData(reservedYs, columnWidth, plot.left, baseY)}" ${fillOf(theme.reservedFill)} data-mark="reserved"/>`,
  );
  parts.push(
    `<path d="${stepPathData(activeYs, columnWidth, plot.left, baseY)}" ${fillOf(theme.otherFill)} data-mark="other"/>`,
  );
  parts.push(bandsMarkup(layout, outlines.paths, device, theme, top, plot.height, coloring));
  parts.push(
    `<path d="${stepPathData(activeYs, columnWidth, plot.left, null)}" fill="none" ${strokeOf(theme.activeLine)} stroke-width="1" stroke-linejoin="round" data-mark="active"/>`,
  );
  parts.push(
    `<path d="${stepPathData(reservedYs, columnWidth, plot.left, null)}" fill="none" ${strokeOf(theme.reservedLine)} stroke-width="1.5" stroke-linejoin="round" data-mark="reserved"/>`,
  );

  // Markers: the state after the event, at its time or in the middle of its slot.
  const markerX = (event: number): number => xOfEvent(momentCoordinate(axis, event));
  const markers = device.traceLength === 0 ? [] : eventMarkers(device);
  const styles = markerStylesFor(theme, markers, markerX, plot);
  parts.push(...markerLines(markers, markerX, plot, styles));
  const ruler = stepRuler(stepsOf(view, device).steps, xOfEvent, plot, theme.activeLine);
  if (ruler !== '') parts.push(ruler);
  if (moment !== null) parts.push(momentLine(markerX(moment), plot, theme));
  parts.push(spans.names);
  parts.push('</g>');

  parts.push(markerLabels(markers, markerX, plot, styles));
  parts.push(yAxisMarkup(ticks, yOfBytes, plot, theme));
  parts.push(xAxisMarkup(axis, device, x0, x1, plot, theme));
  parts.push(timelineLegend(theme, legend, plot.left, legendRight, height - 10));
  parts.push('</svg>');
  return parts.join('\n');
}

/** The app's step ruler: every training step a bar along the plot's bottom, in alternate shades. */
const STEP_RULER_HEIGHT = 4;

function stepRuler(
  steps: readonly { startEvent: number; endEvent: number }[],
  xOfEvent: (eventCoordinate: number) => number,
  plot: SvgPlot,
  paint: Paint,
): string {
  const color = typeof paint === 'string' ? paint : paint.color;
  const paths = ['', ''];
  const y = plot.top + plot.height - STEP_RULER_HEIGHT;
  steps.forEach((step, index) => {
    const left = Math.max(plot.left, xOfEvent(step.startEvent));
    const right = Math.min(plot.left + plot.width, xOfEvent(step.endEvent + 1));
    if (right <= left) return;
    paths[index % 2] +=
      `M${num(left)} ${num(y)}h${num(Math.max(1, right - left))}v${STEP_RULER_HEIGHT}h${num(-Math.max(1, right - left))}Z`;
  });
  return paths
    .map((d, shade) =>
      d === ''
        ? ''
        : `<path d="${d}" ${fillOf(color)} fill-opacity="${shade === 0 ? 0.55 : 0.22}" data-mark="steps"/>`,
    )
    .join('');
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}
