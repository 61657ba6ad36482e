// The memory timeline as a standalone SVG document: the page's plot, laid out once as a scene
// (chart/timeline-scene.ts) from the same layout, axis, ticks, colours, markers, spans, steps and
// phases, drawn through the SVG backend (svg-scene.ts) where the page draws it on a canvas, so the
// export is the screen: reserved memory as a light area, the active memory as stacked allocation
// bands coloured by stack or by allocation (those with no recorded stack hatched) with the smaller
// allocations merged into one grey area, the active and reserved curves, peak and OOM markers, the
// annotation spans with their names, the step ruler and the phase bands. Around the plot: the
// marker labels, byte and time/event axes, a title line and a legend naming every kind of mark
// drawn. Used by `allocscope render` and the app's SVG export.
//
// Size stays bounded whatever the trace: curves are column envelopes (one value per device pixel
// column), bands are one <path> each with coordinates rounded to 0.1 px and steps that snap to no
// width dropped, and at most TIMELINE_MAX_BANDS bands (fewer when their outlines get too long).

import { deviceTimesUsable } from '../analyzed/device-times';
import { bandColoring, coloringLegend, type ColorBy } from '../holders/band-coloring';
import type { CategoryRules } from '../holders/category-rules';
import { pairAnnotations, placeAnnotationSpans } from '../chart/annotation-spans';
import { resolveBandColors } from '../chart/band-colors';
import { timelineMarks } from '../chart/timeline-marks';
import {
  columnStartEvents,
  createEventAxis,
  momentCoordinate,
  type XMode,
} from '../chart/event-axis';
import { layoutTimeline, type TimelineLayout } from '../chart/timeline-layout';
import { eventMarkers } from '../chart/timeline-markers';
import {
  bandPointCount,
  TIMELINE_MAX_BANDS,
  timelineByteScale,
  timelineColumns,
  timelineScene,
  type TimelineScene,
} from '../chart/timeline-scene';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { BAND_CLASHES } from './palette';
import { fillOf, renderTheme, type ThemeName } from './render-theme';
import { num, svgOpen, svgText, textWidth, type SvgPlot } from './svg-markup';
import { sceneMarkup } from './svg-scene';
import { xAxisMarkup, xAxisUnit, yAxisMarkup } from './timeline-svg-axes';
import { noStackHatchDef, timelineSvgColors } from './timeline-svg-bands';
import { LEGEND_ROW, legendRowCount, timelineLegend } from './timeline-svg-legend';
import { markerLabels, markerStylesFor } from './timeline-svg-markers';
import { timelineSvgTitle } from './timeline-svg-title';
import { stepsOf } from '../steps/find-steps';
import { phasesOf } from '../steps/phases';
import { fitTitle } from './fit-title';

type ByteScale = ReturnType<typeof timelineByteScale>;

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
  /** Device pixels per CSS pixel the plot is laid out at, as a canvas (default 2). */
  devicePixelRatio?: number;
}

export const TIMELINE_SVG_MARGIN = { left: 72, right: 20, top: 66, bottom: 46 } as const;
/** Budget of band outline points over all bands; beyond it fewer bands are drawn individually. */
const MAX_BAND_POINTS = 1_000_000;
/** The device pixels per CSS pixel an export lays its bands out at (edges half a pixel wide). */
export const EXPORT_PIXEL_RATIO = 2;
const TITLE_Y = 18;

export function renderTimelineSvg(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  options: TimelineSvgOptions,
): string {
  const device = snapshot.devices[deviceIndex];
  if (device === undefined) throw new RangeError(`no device at index ${deviceIndex}`);
  const theme = renderTheme(options.theme);
  const coloring = bandColoring(snapshot, device, options.colorBy ?? 'stack', options.rules);
  const width = Math.max(1, options.width);
  const height = Math.max(1, options.height);
  const margin = TIMELINE_SVG_MARGIN;
  const axis = createEventAxis(
    device,
    options.xMode ?? (deviceTimesUsable(device) ? 'time' : 'event'),
  );
  const spans = placeAnnotationSpans(
    pairAnnotations(snapshot.annotations, device.device),
    device.timeUs,
    device.traceLength,
    axis.mode,
  );
  const steps = device.traceLength > 0 ? stepsOf(snapshot, device).steps : [];
  const phases = device.traceLength > 0 ? phasesOf(snapshot, device).phases : [];
  const moment = options.moment ?? null;
  const marks = timelineMarks({
    coloring,
    noStack: device.allocations.stackId.some((stackId) => stackId < 0),
    trace: device.traceLength > 0,
    reserved: device.figures.reservedRecorded,
    ooms: device.figures.ooms.length > 0,
    annotations: spans.length > 0,
    steps: steps.length > 0,
    moment: moment !== null,
    phases: phases.length > 0,
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
  /** Plot x of an event coordinate, as the page's scale computes it. */
  const plotX = (eventCoordinate: number): number =>
    ((axis.toX(eventCoordinate) - x0) / (x1 - x0)) * plot.width;

  // The plot is the page's scene (chart/timeline-scene.ts), laid out as the page lays out a
  // canvas of the plot's size at EXPORT_PIXEL_RATIO.
  const ratio = options.devicePixelRatio ?? EXPORT_PIXEL_RATIO;
  const columns = timelineColumns(plot.width, ratio);
  const request = {
    device,
    startEvent,
    endEvent,
    columnStartEvents: columnStartEvents(axis, startEvent, endEvent, columns),
  };
  const markers = device.traceLength === 0 ? [] : eventMarkers(device);
  const stackIds = device.allocations.stackId;
  const sceneOf = (layout: TimelineLayout): { scene: TimelineScene; scale: ByteScale } => {
    const scale = timelineByteScale(layout.maxBytes, plot.height);
    const yOfBytes = (bytes: number): number => plot.height * (1 - bytes / scale.topBytes);
    const scene = timelineScene({
      layout,
      width: plot.width,
      height: plot.height,
      devicePixelRatio: ratio,
      xOfEvent: plotX,
      xOfMoment: (event) => plotX(momentCoordinate(axis, event)),
      yOfBytes,
      gridBytes: scale.ticks.values,
      spans: spans
        .filter((span) => span.x1 >= x0 && span.x0 <= x1)
        .map((span) => ({
          name: span.name,
          depth: span.depth,
          x0: ((span.x0 - x0) / (x1 - x0)) * plot.width,
          x1: ((span.x1 - x0) / (x1 - x0)) * plot.width,
        })),
      bandColors: resolveBandColors(layout, coloring, BAND_CLASHES),
      bandNoStack: Uint8Array.from(layout.bands, (band) => (stackIds[band.row]! < 0 ? 1 : 0)),
      bandDimmed: null,
      steps,
      phases,
      markers,
      moment,
    });
    return { scene, scale };
  };
  // Beyond the budget of band outline points, fewer bands are drawn individually (the document's
  // size follows the outlines; the page's canvas never needs this).
  let layout = layoutTimeline({ ...request, maxBands: TIMELINE_MAX_BANDS });
  let { scene, scale } = sceneOf(layout);
  while (bandPointCount(scene) > MAX_BAND_POINTS && layout.bands.length > 1) {
    layout = layoutTimeline({ ...request, maxBands: Math.floor(layout.bands.length / 2) });
    ({ scene, scale } = sceneOf(layout));
  }
  const yOfBytes = (bytes: number): number => plot.top + plot.height * (1 - bytes / scale.topBytes);

  const parts: string[] = [];
  const title = timelineSvgTitle(snapshot, device, axis, startEvent, endEvent, moment);
  parts.push(svgOpen(width, height, theme.fontFamily, title));
  parts.push(`<rect width="100%" height="100%" ${fillOf(theme.background)}/>`);
  parts.push(
    `<defs><clipPath id="plot"><rect x="${num(plot.left)}" y="${num(plot.top)}" width="${num(plot.width)}" height="${num(plot.height)}"/></clipPath>${noStackHatchDef(theme.bands)}</defs>`,
  );
  parts.push(
    svgText(fitTitle(title, snapshot.fileName, width - plot.left - 8, 13), {
      x: plot.left,
      y: TITLE_Y,
      fill: theme.text,
      size: 13,
      weight: 'bold',
    }),
  );
  parts.push(
    `<g clip-path="url(#plot)"><g class="timeline-scene" transform="translate(${num(plot.left)} ${num(plot.top)})" data-origin="${num(plot.left)} ${num(plot.top)}" data-size="${num(plot.width)} ${num(plot.height)}">`,
  );
  parts.push(sceneMarkup(scene.marks, timelineSvgColors(theme)));
  parts.push('</g></g>');

  // Marker labels above the plot: the page writes them in its axes (timeline-axes.ts).
  const markerX = (event: number): number => plot.left + plotX(momentCoordinate(axis, event));
  const styles = markerStylesFor(theme, markers, markerX, plot);
  parts.push(markerLabels(markers, markerX, plot, styles));
  parts.push(yAxisMarkup(scale.ticks, yOfBytes, plot, theme));
  parts.push(xAxisMarkup(axis, device, x0, x1, plot, theme));
  parts.push(timelineLegend(theme, legend, plot.left, legendRight, height - 10));
  parts.push('</svg>');
  return parts.join('\n');
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}
