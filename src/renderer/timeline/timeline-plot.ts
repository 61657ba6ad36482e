// The timeline's geometry: the device's data on its x axis (TimelineData, made when the device or
// the axis changes) and, for the visible window at the plot's size, the laid-out window and its
// scales (TimelinePlot, made when the window, the data or the size changes: one pass over the
// window's events and the allocation table). Drawing and hit-testing read these, never the trace.

import { scaleLinear, type ScaleLinear } from 'd3';
import {
  pairAnnotations,
  placeAnnotationSpans,
  type PlacedSpan,
} from '@shared/chart/annotation-spans';
import {
  TIMELINE_MAX_BANDS,
  timelineByteScale,
  timelineColumns,
} from '@shared/chart/timeline-scene';
import {
  createEventAxis,
  eventAtX,
  eventWindow,
  momentCoordinate,
  type EventAxis,
  type XMode,
} from '@shared/chart/event-axis';
import {
  layoutTimeline,
  type AllocationBand,
  type TimelineLayout,
} from '@shared/chart/timeline-layout';
import { eventMarkers, type EventMarker } from '@shared/chart/timeline-markers';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import type { CanvasSize } from '../canvas/canvas-host';
import type { PlotCoordinates } from './timeline-draw';
import type { BandColoring } from '@shared/chart/band-colors';
import type { XDomain } from './viewport';

/** Where the plot sits in the stage: room for the axes and the marker labels. */
export const TIMELINE_MARGIN = { left: 72, right: 18, top: 42, bottom: 26 } as const;

export interface TimelineData {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  axis: EventAxis;
  spans: PlacedSpan[];
  markers: EventMarker[];
}

export function timelineData(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  mode: XMode,
): TimelineData {
  const axis = createEventAxis(device, mode);
  const spans = placeAnnotationSpans(
    pairAnnotations(snapshot.annotations, device.device),
    device.timeUs,
    device.traceLength,
    axis.mode,
  );
  // Without trace entries there is one moment to show; peak lines would only clutter it.
  const markers = device.traceLength === 0 ? [] : eventMarkers(device);
  return { snapshot, device, axis, spans, markers };
}

export interface TimelinePlot {
  data: TimelineData;
  domain: XDomain;
  size: CanvasSize;
  layout: TimelineLayout;
  bandByRow: Map<number, AllocationBand>;
  xScale: ScaleLinear<number, number>;
  yScale: ScaleLinear<number, number>;
  gridBytes: number[];
  formatBytesTick: (bytes: number) => string;
  /** Band colours per colouring, kept while this plot lives (redraws without a new layout). */
  bandColors: WeakMap<BandColoring, Int16Array>;
}

/** Layout columns for a canvas of this size: one per device pixel, capped. */
export function layoutColumns(size: CanvasSize): number {
  return timelineColumns(size.width, size.devicePixelRatio);
}

export function layoutPlot(data: TimelineData, domain: XDomain, size: CanvasSize): TimelinePlot {
  const { axis, device } = data;
  const visible = eventWindow(axis, domain.x0, domain.x1, layoutColumns(size));
  const layout = layoutTimeline({
    device,
    startEvent: visible.startEvent,
    endEvent: visible.endEvent,
    columnStartEvents: visible.columnStartEvents,
    maxBands: TIMELINE_MAX_BANDS,
  });
  const xScale = scaleLinear().domain([domain.x0, domain.x1]).range([0, size.width]);
  const { ticks, topBytes } = timelineByteScale(layout.maxBytes, size.height);
  const yScale = scaleLinear().domain([0, topBytes]).range([size.height, 0]);
  return {
    data,
    domain,
    size,
    layout,
    bandByRow: new Map(layout.bands.map((band) => [band.row, band])),
    xScale,
    yScale,
    gridBytes: ticks.values,
    formatBytesTick: ticks.format,
    bandColors: new WeakMap(),
  };
}

export function plotCoordinates(plot: TimelinePlot): PlotCoordinates {
  const { axis } = plot.data;
  const { xScale, yScale } = plot;
  return {
    xOfEvent: (eventCoordinate) => xScale(axis.toX(eventCoordinate)),
    yOfBytes: (bytes) => yScale(bytes),
  };
}

/** x of the line marking the state after `event`: the event's time, or its slot's middle. */
export function markerX(plot: TimelinePlot, event: number): number {
  const { axis } = plot.data;
  return plot.xScale(axis.toX(momentCoordinate(axis, event)));
}

/** The event shown at a pixel column of the plot, within the laid-out window. */
export function eventAtPixel(plot: TimelinePlot, x: number): number {
  const { layout } = plot;
  const event = eventAtX(plot.data.axis, plot.xScale.invert(x));
  return Math.max(layout.startEvent, Math.min(layout.endEvent - 1, event));
}
