// The memory timeline as a standalone SVG document: the app's picture (src/renderer/timeline/
// timeline-draw.ts) drawn from the same shared layout (layoutTimeline), axis, ticks, colours,
// markers and annotation spans (src/shared/chart): reserved memory as a light area, the active
// memory as stacked allocation bands coloured by stack with the smaller allocations merged into
// one grey area, the active and reserved curves, peak and OOM markers, byte and time/event axes
// and a title line. Used by `allocscope render` and the app's SVG export.
//
// Size stays bounded whatever the trace: curves are column envelopes (one value per pixel
// column), bands are one <path> each with coordinates rounded to 0.1 px and steps narrower than
// half a pixel dropped, and at most MAX_BANDS bands (fewer when their outlines get too long).

import { deviceTimesUsable } from '../analyzed/device-times';
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
import { fillOf, renderTheme, strokeOf, type ThemeName } from './render-theme';
import { num, stepPathData, svgOpen, svgText, type SvgPlot } from './svg-markup';
import { yAxisMarkup, xAxisMarkup } from './timeline-svg-axes';
import { bandsMarkup, fitBandsToBudget } from './timeline-svg-bands';
import { timelineLegend } from './timeline-svg-legend';
import { markerLabels, markerLines, markerStyles, momentLine } from './timeline-svg-markers';
import { spansMarkup } from './timeline-svg-spans';
import { timelineSvgTitle } from './timeline-svg-title';

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
  const width = Math.max(1, options.width);
  const height = Math.max(1, options.height);
  const margin = TIMELINE_SVG_MARGIN;
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
  const title = timelineSvgTitle(view, device, axis, startEvent, endEvent, options.moment ?? null);
  parts.push(svgOpen(width, height, theme.fontFamily, title));
  parts.push(`<rect width="100%" height="100%" ${fillOf(theme.background)}/>`);
  parts.push(
    `<defs><clipPath id="plot"><rect x="${num(plot.left)}" y="${num(plot.top)}" width="${num(plot.width)}" height="${num(plot.height)}"/></clipPath></defs>`,
  );
  parts.push(
    svgText(title, { x: plot.left, y: TITLE_Y, fill: theme.text, size: 13, weight: 'bold' }),
  );

  // Grid under everything.
  parts.push(
    `<path d="${ticks.values.map((bytes) => `M${num(plot.left)} ${num(Math.round(yOfBytes(bytes)) + 0.5)}h${num(plot.width)}`).join('')}" fill="none" ${strokeOf(theme.grid)} stroke-width="1"/>`,
  );

  parts.push('<g clip-path="url(#plot)">');
  const spans = spansMarkup(view, device, axis, x0, x1, plot, theme);
  parts.push(spans);
  const columnWidth = plot.width / columns;
  const baseY = yOfBytes(0);
  const columnY = (values: Float64Array): Float64Array => values.map((value) => yOfBytes(value));
  const reservedYs = columnY(layout.reservedMax);
  const activeYs = columnY(layout.activeMax);
  parts.push(
    `<path d="${stepPathData(reservedYs, columnWidth, plot.left, baseY)}" ${fillOf(theme.reservedFill)}/>`,
  );
  parts.push(
    `<path d="${stepPathData(activeYs, columnWidth, plot.left, baseY)}" ${fillOf(theme.otherFill)}/>`,
  );
  parts.push(bandsMarkup(layout, outlines.paths, device, theme, top, plot.height));
  parts.push(
    `<path d="${stepPathData(activeYs, columnWidth, plot.left, null)}" fill="none" ${strokeOf(theme.activeLine)} stroke-width="1" stroke-linejoin="round"/>`,
  );
  parts.push(
    `<path d="${stepPathData(reservedYs, columnWidth, plot.left, null)}" fill="none" ${strokeOf(theme.reservedLine)} stroke-width="1.5" stroke-linejoin="round"/>`,
  );

  // Markers: the state after the event, at its time or in the middle of its slot.
  const markerX = (event: number): number => xOfEvent(momentCoordinate(axis, event));
  const markers = device.traceLength === 0 ? [] : eventMarkers(device);
  const styles = markerStyles(theme);
  parts.push(...markerLines(markers, markerX, plot, styles));
  if (options.moment !== undefined && options.moment !== null) {
    parts.push(momentLine(markerX(options.moment), plot, theme));
  }
  parts.push('</g>');

  parts.push(markerLabels(markers, markerX, plot, styles));
  parts.push(yAxisMarkup(ticks, yOfBytes, plot, theme));
  parts.push(xAxisMarkup(axis, device, x0, x1, plot, theme));
  parts.push(timelineLegend(theme, plot, height, spans !== ''));
  parts.push('</svg>');
  return parts.join('\n');
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}
