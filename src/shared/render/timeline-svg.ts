// The memory timeline as a standalone SVG document: the app's picture (src/renderer/charts/
// timeline-draw.ts) drawn from the same shared layout (layoutTimeline), axis, ticks, colours,
// markers and annotation spans (src/shared/chart): reserved memory as a light area, the active
// memory as stacked allocation bands coloured by stack with the smaller allocations merged into
// one grey area, the active and reserved curves, peak and OOM markers, byte and time/event axes
// and a title line. Used by `allocscope render` and the app's SVG export.
//
// Size stays bounded whatever the trace: curves are column envelopes (one value per pixel
// column), bands are one <path> each with coordinates rounded to 0.1 px and steps narrower than
// half a pixel dropped, and at most MAX_BANDS bands (fewer when their outlines get too long).

import { pairAnnotations, placeAnnotationSpans } from '../chart/annotation-spans';
import { formatEventTick, timeTickFormatter } from '../chart/axis-format';
import { bandColorHex } from '../chart/band-colors';
import { byteTicks } from '../chart/byte-ticks';
import {
  columnStartEvents,
  createEventAxis,
  type EventAxis,
  type XMode,
} from '../chart/event-axis';
import { linearTicks } from '../chart/linear-ticks';
import { layoutTimeline, type AllocationBand, type TimelineLayout } from '../chart/timeline-layout';
import {
  eventMarkers,
  stackLabelRows,
  type EventMarker,
  type MarkerKind,
} from '../chart/timeline-markers';
import { formatBytes } from '../units';
import type { DeviceView, SnapshotView } from '../view/snapshot-view';
import { fillOf, renderTheme, strokeOf, type RenderTheme, type ThemeName } from './render-theme';
import { num, stepPathData, svgOpen, svgText, textWidth } from './svg-markup';

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
  view: SnapshotView,
  deviceIndex: number,
  options: TimelineSvgOptions,
): string {
  const device = view.devices[deviceIndex];
  if (device === undefined) throw new RangeError(`no device at index ${deviceIndex}`);
  const theme = renderTheme(options.theme);
  const width = Math.max(1, options.width);
  const height = Math.max(1, options.height);
  const margin = TIMELINE_SVG_MARGIN;
  const plot = {
    left: margin.left,
    top: margin.top,
    width: Math.max(1, width - margin.left - margin.right),
    height: Math.max(1, height - margin.top - margin.bottom),
  };

  const axis = createEventAxis(
    device,
    options.xMode ?? (device.timeUs !== null ? 'time' : 'event'),
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
  const starts = columnStartEvents(axis, startEvent, endEvent, columns);
  let layout = layoutTimeline({
    device,
    startEvent,
    endEvent,
    columnStartEvents: starts,
    maxBands: MAX_BANDS,
  });

  const ticks = byteTicks(layout.maxBytes, Math.max(2, Math.round(plot.height / 45)));
  const top = Math.max(layout.maxBytes * 1.06, ticks.values.at(-1) ?? 0, 1);
  const yOfBytes = (bytes: number): number => plot.top + plot.height - (bytes / top) * plot.height;

  // Bands as outlines in document coordinates; halve their number until the outlines fit.
  let outlines = bandOutlines(layout.bands, xOfEvent, yOfBytes);
  while (outlines.steps > MAX_BAND_STEPS && layout.bands.length > 1) {
    layout = layoutTimeline({
      device,
      startEvent,
      endEvent,
      columnStartEvents: starts,
      maxBands: Math.floor(layout.bands.length / 2),
    });
    outlines = bandOutlines(layout.bands, xOfEvent, yOfBytes);
  }

  const parts: string[] = [];
  const title = titleOf(view, device, axis, startEvent, endEvent, options.moment ?? null);
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
  const markerX = (event: number): number => {
    const clamped = Math.max(axis.minEvent, Math.min(axis.maxEvent - 1, event));
    return xOfEvent(axis.mode === 'event' ? clamped + 0.5 : clamped);
  };
  const markers = device.traceLength === 0 ? [] : eventMarkers(device);
  const markerStyle: Record<MarkerKind, { color: string; dash: string; width: number }> = {
    'peak-reserved': { color: theme.peakReserved, dash: '3 3', width: 1 },
    'peak-active': { color: theme.peakActive, dash: '5 3', width: 1 },
    oom: { color: theme.oom, dash: '', width: 2 },
  };
  for (const marker of markers) {
    const style = markerStyle[marker.kind];
    const x = Math.round(markerX(marker.event)) + (style.width % 2 === 1 ? 0.5 : 0);
    parts.push(
      `<path d="M${num(x)} ${num(plot.top)}v${num(plot.height)}" stroke="${style.color}" stroke-width="${style.width}"${style.dash === '' ? '' : ` stroke-dasharray="${style.dash}"`}/>`,
    );
  }
  if (options.moment !== undefined && options.moment !== null) {
    const x = Math.round(markerX(options.moment)) + 0.5;
    parts.push(
      `<path d="M${num(x)} ${num(plot.top)}v${num(plot.height)}" stroke="${theme.moment}" stroke-width="1"/>`,
    );
  }
  parts.push('</g>');

  parts.push(markerLabels(markers, markerX, plot, markerStyle));
  parts.push(yAxis(ticks, yOfBytes, plot, theme));
  parts.push(xAxis(axis, device, x0, x1, plot, theme));
  parts.push(legend(theme, plot, height, spans !== ''));
  parts.push('</svg>');
  return parts.join('\n');
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}

function titleOf(
  view: SnapshotView,
  device: DeviceView,
  axis: EventAxis,
  startEvent: number,
  endEvent: number,
  moment: number | null,
): string {
  const pieces = [view.fileName, `device ${device.device}`];
  if (device.traceLength === 0) pieces.push('no trace entries (final state)');
  else {
    const whole = startEvent <= 0 && endEvent >= device.traceLength;
    const events = `events ${formatEventTick(Math.max(0, startEvent))}–${formatEventTick(endEvent - 1)}`;
    pieces.push(
      whole
        ? `all ${formatEventTick(device.traceLength)} events`
        : `${events} of ${formatEventTick(device.traceLength)}`,
    );
    if (axis.mode === 'time') {
      const spanUs = axis.toX(endEvent) - axis.toX(startEvent);
      pieces.push(`${timeTickFormatter(spanUs / 4, spanUs)(spanUs)} shown`);
    }
  }
  pieces.push(
    `peak active ${formatBytes(device.summary.active_bytes.peak)}, reserved ${formatBytes(device.summary.reserved_bytes.peak)}`,
  );
  if (moment !== null)
    pieces.push(
      moment < 0
        ? 'moment: before the first event'
        : `moment: after event ${formatEventTick(moment)}`,
    );
  return pieces.join(' · ');
}

interface BandOutlines {
  paths: string[];
  steps: number;
}

/**
 * Each band's outline as path data (top edge left to right, bottom edge back), on half-pixel x
 * positions: steps that would be narrower than that are invisible and dropped.
 */
function bandOutlines(
  bands: readonly AllocationBand[],
  xOfEvent: (event: number) => number,
  yOfBytes: (bytes: number) => number,
): BandOutlines {
  const paths: string[] = [];
  let total = 0;
  const xs: number[] = [];
  const offsets: number[] = [];
  for (const band of bands) {
    xs.length = 0;
    offsets.length = 0;
    const steps = band.stepEvents.length;
    const end = Math.round(xOfEvent(band.endEvent) * 2) / 2;
    for (let i = 0; i < steps; i++) {
      const x = Math.round(xOfEvent(band.stepEvents[i]!) * 2) / 2;
      const next = i + 1 < steps ? Math.round(xOfEvent(band.stepEvents[i + 1]!) * 2) / 2 : end;
      if (next <= x) continue; // narrower than half a pixel
      const offset = band.stepOffsets[i]!;
      if (offsets.length > 0 && offsets[offsets.length - 1] === offset) continue;
      xs.push(x);
      offsets.push(offset);
    }
    if (xs.length === 0) {
      // Thinner than half a pixel everywhere: a hairline at its first position.
      const x = Math.round(xOfEvent(band.stepEvents[0] ?? band.endEvent) * 2) / 2;
      xs.push(x);
      offsets.push(band.stepOffsets[0] ?? 0);
      paths.push(outlinePath(xs, offsets, Math.max(end, x + 0.5), band.sizeBytes, yOfBytes));
      total += 1;
      continue;
    }
    paths.push(outlinePath(xs, offsets, end, band.sizeBytes, yOfBytes));
    total += xs.length;
  }
  return { paths, steps: total };
}

function outlinePath(
  xs: readonly number[],
  offsets: readonly number[],
  endX: number,
  size: number,
  yOfBytes: (bytes: number) => number,
): string {
  const n = xs.length;
  const at = (i: number): number => (i < n ? xs[i]! : endX);
  let d = `M${num(xs[0]!)} ${num(yOfBytes(offsets[0]! + size))}`;
  for (let i = 0; i < n; i++) {
    d += `H${num(at(i + 1))}`;
    if (i < n - 1) d += `V${num(yOfBytes(offsets[i + 1]! + size))}`;
  }
  d += `V${num(yOfBytes(offsets[n - 1]!))}`;
  for (let i = n - 1; i >= 0; i--) {
    d += `H${num(xs[i]!)}`;
    if (i > 0) d += `V${num(yOfBytes(offsets[i - 1]!))}`;
  }
  return `${d}Z`;
}

function bandsMarkup(
  layout: TimelineLayout,
  paths: readonly string[],
  device: DeviceView,
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

/**
 * record_function spans as the app draws them: a faint wash for top-level spans that do not
 * cover the whole view, a 2 px lane per nesting level (up to 3) along the top. Overlapping
 * rectangles are merged, so thousands of short spans stay a handful of path commands.
 */
function spansMarkup(
  view: SnapshotView,
  device: DeviceView,
  axis: EventAxis,
  x0: number,
  x1: number,
  plot: { left: number; top: number; width: number; height: number },
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
  const merged = (rects: [number, number][], y: number, height: number): string => {
    rects.sort((a, b) => a[0] - b[0]);
    let d = '';
    let current: [number, number] | null = null;
    const flush = (): void => {
      if (current !== null)
        d += `M${num(current[0])} ${num(y)}h${num(current[1] - current[0])}v${num(height)}h${num(current[0] - current[1])}z`;
    };
    for (const rect of rects) {
      if (current !== null && rect[0] <= current[1] + 0.5)
        current[1] = Math.max(current[1], rect[1]);
      else {
        flush();
        current = [rect[0], rect[1]];
      }
    }
    flush();
    return d;
  };
  const wash = merged(washes, plot.top, plot.height);
  const lane = lanes.map((rects, depth) => merged(rects, plot.top + depth * 3, 2)).join('');
  return (
    (wash === '' ? '' : `<path class="annotations" d="${wash}" ${fillOf(theme.annotationFill)}/>`) +
    (lane === ''
      ? ''
      : `<path class="annotation-lanes" d="${lane}" ${fillOf(theme.annotationLane)}/>`)
  );
}

function markerLabels(
  markers: readonly EventMarker[],
  markerX: (event: number) => number,
  plot: { left: number; top: number; width: number },
  styles: Record<MarkerKind, { color: string }>,
): string {
  const right = plot.left + plot.width;
  const placed = markers
    .map((marker) => ({ marker, x: markerX(marker.event) }))
    .filter(({ x }) => x >= plot.left - 1 && x <= right + 1)
    .map(({ marker, x }) => {
      const width = textWidth(marker.label, 11) + 8;
      const half = width / 2;
      return { marker, width, x: Math.max(plot.left + half - 6, Math.min(right - half + 6, x)) };
    });
  const rows = stackLabelRows(placed, 8, 3);
  return placed
    .map((label, i) =>
      svgText(label.marker.label, {
        x: label.x,
        y: plot.top - 6 - rows[i]! * 12,
        fill: styles[label.marker.kind].color,
        anchor: 'middle',
      }),
    )
    .join('');
}

function yAxis(
  ticks: ReturnType<typeof byteTicks>,
  yOfBytes: (bytes: number) => number,
  plot: { left: number; top: number; height: number },
  theme: RenderTheme,
): string {
  const parts: string[] = [];
  const x = plot.left - 0.5;
  let tickPath = `M${num(x)} ${num(plot.top)}V${num(plot.top + plot.height)}`;
  for (const bytes of ticks.values) {
    const y = Math.round(yOfBytes(bytes)) + 0.5;
    tickPath += `M${num(x - 4)} ${num(y)}h4`;
    parts.push(
      svgText(ticks.format(bytes), { x: x - 7, y: y + 3.5, fill: theme.textMuted, anchor: 'end' }),
    );
  }
  return `<path d="${tickPath}" fill="none" stroke="${theme.axisLine}"/>${parts.join('')}`;
}

function xAxis(
  axis: EventAxis,
  device: DeviceView,
  x0: number,
  x1: number,
  plot: { left: number; top: number; width: number; height: number },
  theme: RenderTheme,
): string {
  const y = plot.top + plot.height + 0.5;
  let values = linearTicks(x0, x1, Math.max(2, Math.floor(plot.width / 110)));
  let format: (value: number) => string;
  if (axis.mode === 'time') {
    const step = values.length > 1 ? values[1]! - values[0]! : x1 - x0;
    const largest = Math.max(Math.abs(values[0] ?? 0), Math.abs(values.at(-1) ?? 0));
    format = timeTickFormatter(step, largest);
  } else {
    values = device.traceLength === 0 ? [] : values.filter((value) => Number.isInteger(value));
    format = formatEventTick;
  }
  const parts: string[] = [];
  let tickPath = `M${num(plot.left)} ${num(y)}h${num(plot.width)}`;
  for (const value of values) {
    const x = Math.round(plot.left + ((value - x0) / (x1 - x0)) * plot.width) + 0.5;
    tickPath += `M${num(x)} ${num(y)}v4`;
    parts.push(svgText(format(value), { x, y: y + 15, fill: theme.textMuted, anchor: 'middle' }));
  }
  const unit = axis.mode === 'time' ? 'time since the first event' : 'event';
  parts.push(
    svgText(unit, {
      x: plot.left + plot.width,
      y: y + 29,
      fill: theme.textMuted,
      anchor: 'end',
    }),
  );
  return `<path d="${tickPath}" fill="none" stroke="${theme.axisLine}"/>${parts.join('')}`;
}

function legend(
  theme: RenderTheme,
  plot: { left: number },
  height: number,
  withSpans: boolean,
): string {
  const y = height - 10;
  const items: { label: string; swatch: (x: number) => string }[] = [
    {
      label: 'allocations (colour = stack)',
      swatch: (x) =>
        [0, 1, 2]
          .map(
            (i) =>
              `<rect x="${num(x + i * 4)}" y="${num(y - 8)}" width="4" height="9" fill="${bandColorHex(i * 5 + 1, theme.bands)}"/>`,
          )
          .join(''),
    },
    {
      label: 'smaller allocations',
      swatch: (x) =>
        `<rect x="${num(x)}" y="${num(y - 8)}" width="12" height="9" fill="${theme.otherFill}"/>`,
    },
    {
      label: 'active',
      swatch: (x) => `<path d="M${num(x)} ${num(y - 3.5)}h12" ${strokeOf(theme.activeLine)}/>`,
    },
    {
      label: 'reserved',
      swatch: (x) =>
        `<rect x="${num(x)}" y="${num(y - 8)}" width="12" height="9" ${fillOf(theme.reservedFill)}/><path d="M${num(x)} ${num(y - 8)}h12" stroke="${theme.reservedLine}" stroke-width="1.5"/>`,
    },
  ];
  if (withSpans) {
    items.push({
      label: 'record_function spans',
      swatch: (x) =>
        `<rect x="${num(x)}" y="${num(y - 5)}" width="12" height="2" ${fillOf(theme.annotationLane)}/>`,
    });
  }
  let x = plot.left;
  const parts: string[] = [];
  for (const item of items) {
    parts.push(item.swatch(x));
    parts.push(svgText(item.label, { x: x + 16, y, fill: theme.textMuted }));
    x += 16 + textWidth(item.label, 11) + 18;
  }
  return `<g class="legend">${parts.join('')}</g>`;
}
