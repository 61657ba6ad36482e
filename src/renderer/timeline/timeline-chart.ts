// The timeline as an imperative chart: owns the canvases, the axes and the overview brush, keeps
// the visible x domain, and redraws on animation frames. React only mounts it and passes state in
// (see views/timeline-view.tsx); mouse moves and zooming never go through React.
//
// Work per kind of change: the window or the size changes -> layoutTimeline (one pass over the
// window's events and the allocation table) and a full redraw; hover, selection or moment ->
// only the overlay canvas. Hover hit-testing reads the current layout, never the trace.

import {
  axisBottom,
  axisLeft,
  brushX,
  pointer,
  scaleLinear,
  select,
  type BrushBehavior,
  type D3BrushEvent,
  type NumberValue,
  type ScaleLinear,
} from 'd3';
import {
  pairAnnotations,
  placeAnnotationSpans,
  spansAt,
  type PlacedSpan,
} from '@shared/chart/annotation-spans';
import { createBandColorCache } from '@shared/chart/band-colors';
import { byteTicks } from '@shared/chart/byte-ticks';
import {
  createEventAxis,
  eventAtX,
  eventWindow,
  momentCoordinate,
  type EventAxis,
  type XMode,
} from '@shared/chart/event-axis';
import {
  hitTestTimeline,
  layoutTimeline,
  stepValueAt,
  type AllocationBand,
  type TimelineHit,
  type TimelineLayout,
} from '@shared/chart/timeline-layout';
import {
  eventMarkers,
  stackLabelRows,
  type EventMarker,
  type MarkerKind,
} from '@shared/chart/timeline-markers';
import { xAxisTicks } from '@shared/chart/x-axis-ticks';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { readChartTheme, type ChartTheme } from '../canvas/chart-theme';
import {
  drawOverlay,
  drawOverview,
  drawTimeline,
  prepareCanvas,
  type PlotCoordinates,
  type PlotSize,
  type VerticalMarker,
} from './timeline-draw';
import {
  clampDomain,
  domainsEqual,
  panBy,
  wheelZoomFactor,
  zoomAround,
  type XBounds,
  type XDomain,
} from './viewport';

export interface TimelineChartElements {
  /** Receives keyboard input and the data-* attributes tests read. */
  root: HTMLElement;
  /** The positioned box the plot, axes and overlay share; its size sets the chart's. */
  stage: HTMLElement;
  canvas: HTMLCanvasElement;
  overlay: HTMLCanvasElement;
  axes: SVGSVGElement;
  overview: HTMLElement;
  overviewCanvas: HTMLCanvasElement;
  overviewBrush: SVGSVGElement;
}

export interface TimelineHover {
  /** Pointer position in CSS pixels relative to the main canvas. */
  x: number;
  y: number;
  /** Where the canvas sits in the stage, and its size. */
  plotLeft: number;
  plotTop: number;
  plotWidth: number;
  plotHeight: number;
  event: number;
  hit: TimelineHit | null;
  activeBytes: number;
  reservedBytes: number;
  annotations: string[];
}

export interface TimelineDomainInfo {
  mode: XMode;
  /** Visible range in x units (events, or microseconds since the first event). */
  x0: number;
  x1: number;
  /** The same range in event coordinates. */
  startEvent: number;
  endEvent: number;
  full: boolean;
}

export interface TimelineChartCallbacks {
  onHover(hover: TimelineHover | null): void;
  onSelectRow(row: number | null): void;
  onMoment(event: number | null): void;
  onDomain(info: TimelineDomainInfo): void;
}

export const TIMELINE_MARGIN = { left: 72, right: 18, top: 42, bottom: 26 } as const;
const MAX_BANDS = 1000;
/** Layout columns per CSS pixel are capped so a 4K screen does not double the envelope work. */
const MAX_COLUMNS = 4096;
const DRAG_THRESHOLD_PX = 3;
const KEY_ZOOM_FACTOR = 1.5;
const KEY_PAN_FRACTION = 0.15;

interface DeviceData {
  view: AnalyzedSnapshot;
  device: AnalyzedDevice;
  axis: EventAxis;
  spans: PlacedSpan[];
  markers: EventMarker[];
}

interface Needs {
  measure: boolean;
  layout: boolean;
  draw: boolean;
  overlay: boolean;
  overview: boolean;
  hover: boolean;
}

const NOTHING_NEEDED: Needs = {
  measure: false,
  layout: false,
  draw: false,
  overlay: false,
  overview: false,
  hover: false,
};

interface DragState {
  pointerId: number;
  startX: number;
  startDomain: XDomain;
  moved: boolean;
}

export class TimelineChart {
  private readonly elements: TimelineChartElements;
  private readonly callbacks: TimelineChartCallbacks;
  private data: DeviceData | null = null;
  private domain: XDomain = { x0: 0, x1: 1 };
  private plot: PlotSize = { width: 0, height: 0, devicePixelRatio: 1 };
  private overviewSize: PlotSize = { width: 0, height: 0, devicePixelRatio: 1 };
  private layout: TimelineLayout | null = null;
  private bandByRow = new Map<number, AllocationBand>();
  private xScale: ScaleLinear<number, number> = scaleLinear();
  private yScale: ScaleLinear<number, number> = scaleLinear();
  private gridBytes: number[] = [];
  private theme: ChartTheme;
  private colorOfStack: (stackId: number) => string;
  private selectedRow: number | null = null;
  private moment: number | null = null;
  private pointerPosition: { x: number; y: number } | null = null;
  private hoverHit: TimelineHit | null = null;
  private drag: DragState | null = null;
  private drawCount = 0;

  private needs: Needs = { ...NOTHING_NEEDED, measure: true, layout: true, overview: true };
  private frameRequest = 0;
  private readonly resizeObserver: ResizeObserver;
  private readonly colorScheme: MediaQueryList;
  private readonly brush: BrushBehavior<unknown>;
  private overviewScale: ScaleLinear<number, number> = scaleLinear();
  private readonly cleanups: (() => void)[] = [];

  constructor(elements: TimelineChartElements, callbacks: TimelineChartCallbacks) {
    this.elements = elements;
    this.callbacks = callbacks;
    this.theme = readChartTheme(elements.root);
    this.colorOfStack = createBandColorCache(this.theme.palette);

    this.resizeObserver = new ResizeObserver(() => this.invalidate('measure'));
    this.resizeObserver.observe(elements.stage);
    this.resizeObserver.observe(elements.overview);

    this.colorScheme = window.matchMedia('(prefers-color-scheme: dark)');
    const onScheme = (): void => this.refreshTheme();
    this.colorScheme.addEventListener('change', onScheme);
    this.cleanups.push(() => this.colorScheme.removeEventListener('change', onScheme));

    const axes = select(elements.axes);
    axes.append('g').attr('class', 'tl-axis tl-axis-y');
    axes.append('g').attr('class', 'tl-axis tl-axis-x');
    axes.append('g').attr('class', 'tl-marker-labels');

    this.brush = brushX<unknown>().on('brush end', (event: D3BrushEvent<unknown>) =>
      this.onBrush(event),
    );
    select(elements.overviewBrush).append('g').attr('class', 'tl-brush');

    this.listen(elements.canvas, 'pointerdown', (event) => this.onPointerDown(event));
    this.listen(elements.canvas, 'pointermove', (event) => this.onPointerMove(event));
    this.listen(elements.canvas, 'pointerup', (event) => this.onPointerUp(event));
    this.listen(elements.canvas, 'pointercancel', () => this.endDrag());
    this.listen(elements.canvas, 'pointerleave', () => this.onPointerLeave());
    this.listen(elements.canvas, 'wheel', (event) => this.onWheel(event), { passive: false });
    this.listen(elements.root, 'keydown', (event) => this.onKeyDown(event));
  }

  destroy(): void {
    if (this.frameRequest !== 0) cancelAnimationFrame(this.frameRequest);
    this.frameRequest = 0;
    this.resizeObserver.disconnect();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.brush.on('brush end', null);
    select(this.elements.axes).selectAll('*').remove();
    select(this.elements.overviewBrush).selectAll('*').remove();
  }

  setData(view: AnalyzedSnapshot, device: AnalyzedDevice, mode: XMode): void {
    const previous = this.data;
    const axis = createEventAxis(device, mode);
    const spans = placeAnnotationSpans(
      pairAnnotations(view.annotations, device.device),
      device.timeUs,
      device.traceLength,
      axis.mode,
    );
    // Without trace entries there is one moment to show; peak lines would only clutter it.
    const markers = device.traceLength === 0 ? [] : eventMarkers(device);
    this.data = { view, device, axis, spans, markers };
    const bounds = this.bounds();
    if (previous !== null && previous.device === device && previous.axis.mode !== axis.mode) {
      // Same device, other axis: keep the same events in view.
      const startEvent = previous.axis.toEvent(this.domain.x0);
      const endEvent = previous.axis.toEvent(this.domain.x1);
      this.domain = clampDomain({ x0: axis.toX(startEvent), x1: axis.toX(endEvent) }, bounds);
    } else if (previous === null || previous.device !== device) {
      this.domain = { x0: bounds.min, x1: bounds.max };
      this.hoverHit = null;
      if (previous !== null) this.callbacks.onHover(null);
    } else {
      this.domain = clampDomain(this.domain, bounds);
    }
    this.elements.root.dataset['device'] = String(device.device);
    this.elements.root.dataset['xMode'] = axis.mode;
    this.invalidate('layout');
    this.invalidate('overview');
    this.domainChanged();
  }

  setSelectedRow(row: number | null): void {
    if (row === this.selectedRow) return;
    this.selectedRow = row;
    this.invalidate('overlay');
  }

  setMoment(event: number | null): void {
    if (event === this.moment) return;
    this.moment = event;
    this.invalidate('overlay');
  }

  /** Zooms about the centre of the view (factor > 1 zooms in). */
  zoomBy(factor: number): void {
    const anchor = (this.domain.x0 + this.domain.x1) / 2;
    this.setDomain(zoomAround(this.domain, anchor, factor, this.bounds()));
  }

  /** Pans by a fraction of the visible span (positive: later). */
  panByFraction(fraction: number): void {
    this.setDomain(panBy(this.domain, fraction * (this.domain.x1 - this.domain.x0), this.bounds()));
  }

  resetZoom(): void {
    const bounds = this.bounds();
    this.setDomain({ x0: bounds.min, x1: bounds.max });
  }

  // ---- state changes -------------------------------------------------------------------------

  private bounds(): XBounds {
    const axis = this.data?.axis;
    if (axis === undefined) return { min: 0, max: 1, minSpan: 1 };
    return { min: axis.minX, max: axis.maxX, minSpan: axis.minSpan };
  }

  private setDomain(domain: XDomain): void {
    const next = clampDomain(domain, this.bounds());
    if (domainsEqual(next, this.domain)) return;
    this.domain = next;
    this.invalidate('layout');
    this.domainChanged();
  }

  private domainChanged(): void {
    const data = this.data;
    if (data === null) return;
    const { axis } = data;
    const bounds = this.bounds();
    // At the ends, the ends of the trace (several events may share the first time stamp).
    const startEvent = this.domain.x0 <= bounds.min ? axis.minEvent : axis.toEvent(this.domain.x0);
    const endEvent = this.domain.x1 >= bounds.max ? axis.maxEvent : axis.toEvent(this.domain.x1);
    const round = (value: number): number => Math.round(value * 100) / 100;
    this.elements.root.dataset['xDomain'] = `${round(startEvent)},${round(endEvent)}`;
    this.callbacks.onDomain({
      mode: axis.mode,
      x0: this.domain.x0,
      x1: this.domain.x1,
      startEvent,
      endEvent,
      full: this.domain.x0 <= bounds.min && this.domain.x1 >= bounds.max,
    });
    this.moveBrush();
  }

  private refreshTheme(): void {
    this.theme = readChartTheme(this.elements.root);
    this.colorOfStack = createBandColorCache(this.theme.palette);
    this.invalidate('draw');
    this.invalidate('overview');
  }

  private invalidate(what: keyof Needs): void {
    this.needs[what] = true;
    if (this.frameRequest === 0) this.frameRequest = requestAnimationFrame(() => this.frame());
  }

  // ---- frame -------------------------------------------------------------------------------------

  private frame(): void {
    this.frameRequest = 0;
    // Taken whole, so anything invalidated while drawing lands in the next frame.
    const needs = this.needs;
    this.needs = { ...NOTHING_NEEDED };
    if (needs.measure && this.measure()) {
      needs.layout = true;
      needs.overview = true;
    }
    if (this.data === null || this.plot.width <= 0 || this.plot.height <= 0) {
      // Nothing to draw into yet: keep the work for when there is.
      this.needs = { ...needs, measure: false };
      return;
    }
    if (needs.layout) {
      this.relayout();
      needs.draw = true;
      // The pointer may now be over something else.
      if (this.pointerPosition !== null && this.drag === null) needs.hover = true;
    }
    if (needs.overview) this.renderOverview();
    if (needs.draw) this.render();
    if (needs.hover) this.updateHover();
    if (needs.overlay || needs.draw || needs.hover) this.renderOverlay();
  }

  /** Reads the stage's size and places the canvases; true when the plot's size changed. */
  private measure(): boolean {
    const { stage, canvas, overlay, overview, overviewCanvas } = this.elements;
    const devicePixelRatio = window.devicePixelRatio || 1;
    const width = Math.max(0, stage.clientWidth - TIMELINE_MARGIN.left - TIMELINE_MARGIN.right);
    const height = Math.max(0, stage.clientHeight - TIMELINE_MARGIN.top - TIMELINE_MARGIN.bottom);
    const overviewHeight = overview.clientHeight;
    const changed =
      width !== this.plot.width ||
      height !== this.plot.height ||
      devicePixelRatio !== this.plot.devicePixelRatio ||
      overviewHeight !== this.overviewSize.height;
    this.plot = { width, height, devicePixelRatio };
    this.overviewSize = { width, height: overviewHeight, devicePixelRatio };
    for (const element of [canvas, overlay]) {
      element.style.left = `${TIMELINE_MARGIN.left}px`;
      element.style.top = `${TIMELINE_MARGIN.top}px`;
      element.style.width = `${width}px`;
      element.style.height = `${height}px`;
    }
    overviewCanvas.style.left = `${TIMELINE_MARGIN.left}px`;
    overviewCanvas.style.width = `${width}px`;
    overviewCanvas.style.height = `${overviewHeight}px`;
    return changed;
  }

  private relayout(): void {
    const data = this.data!;
    const { axis, device } = data;
    const columns = Math.max(
      1,
      Math.min(MAX_COLUMNS, Math.round(this.plot.width * this.plot.devicePixelRatio)),
    );
    const visible = eventWindow(axis, this.domain.x0, this.domain.x1, columns);
    this.layout = layoutTimeline({
      device,
      startEvent: visible.startEvent,
      endEvent: visible.endEvent,
      columnStartEvents: visible.columnStartEvents,
      maxBands: MAX_BANDS,
    });
    this.bandByRow = new Map(this.layout.bands.map((band) => [band.row, band]));
    this.xScale = scaleLinear()
      .domain([this.domain.x0, this.domain.x1])
      .range([0, this.plot.width]);
    const ticks = byteTicks(this.layout.maxBytes, Math.max(2, Math.round(this.plot.height / 45)));
    const top = Math.max(this.layout.maxBytes * 1.06, ticks.values.at(-1) ?? 0, 1);
    this.yScale = scaleLinear().domain([0, top]).range([this.plot.height, 0]);
    this.gridBytes = ticks.values;
    this.renderAxes(ticks.format);
  }

  private coordinates(): PlotCoordinates {
    const axis = this.data!.axis;
    const xScale = this.xScale;
    const yScale = this.yScale;
    return {
      xOfEvent: (eventCoordinate) => xScale(axis.toX(eventCoordinate)),
      yOfBytes: (bytes) => yScale(bytes),
    };
  }

  /** x of the line marking the state after `event`: the event's time, or its slot's middle. */
  private markerX(event: number): number {
    const axis = this.data!.axis;
    return this.xScale(axis.toX(momentCoordinate(axis, event)));
  }

  private render(): void {
    const data = this.data!;
    const layout = this.layout!;
    const context = prepareCanvas(this.elements.canvas, this.plot);
    if (context === null) return;
    const coordinates = this.coordinates();
    const markerStyle: Record<MarkerKind, Omit<VerticalMarker, 'x'>> = {
      'peak-reserved': { color: this.theme.peakReserved, dash: [3, 3], width: 1 },
      'peak-active': { color: this.theme.peakActive, dash: [5, 3], width: 1 },
      oom: { color: this.theme.oom, dash: [], width: 2 },
    };
    const markers = data.markers.map((marker) => ({
      ...markerStyle[marker.kind],
      x: this.markerX(marker.event),
    }));
    const xOfSpan = (x: number): number => this.xScale(x);
    drawTimeline(
      context,
      this.plot,
      coordinates,
      {
        layout,
        stackIdOfRow: data.device.allocations.stackId,
        colorOfStack: this.colorOfStack,
        gridBytes: this.gridBytes,
        spans: data.spans
          .filter((span) => span.x1 >= this.domain.x0 && span.x0 <= this.domain.x1)
          .map((span) => ({ x0: xOfSpan(span.x0), x1: xOfSpan(span.x1), depth: span.depth })),
        markers,
      },
      this.theme,
    );
    this.renderMarkerLabels();
    this.drawCount++;
    const root = this.elements.root;
    root.dataset['drawn'] = String(this.drawCount);
    root.dataset['bands'] = String(layout.bands.length);
    const largest = this.largestBandAtPeak();
    if (largest === null) delete root.dataset['largestBand'];
    else root.dataset['largestBand'] = `${largest.x},${largest.y}`;
  }

  private renderAxes(formatBytesTick: (bytes: number) => string): void {
    const data = this.data!;
    const axes = select(this.elements.axes);
    const stage = this.elements.stage;
    axes.attr('width', stage.clientWidth).attr('height', stage.clientHeight);
    const yAxis = axisLeft(this.yScale)
      .tickValues(this.gridBytes)
      .tickFormat((value: NumberValue) => formatBytesTick(Number(value)))
      .tickSize(4)
      .tickPadding(6);
    axes
      .select<SVGGElement>('g.tl-axis-y')
      .attr('transform', `translate(${TIMELINE_MARGIN.left},${TIMELINE_MARGIN.top})`)
      .call(yAxis);

    const tickCount = Math.max(2, Math.floor(this.plot.width / 110));
    const { values, format } = xAxisTicks(
      data.axis.mode,
      this.xScale.ticks(tickCount),
      this.domain.x0,
      this.domain.x1,
      data.device.traceLength,
    );
    const xAxis = axisBottom(this.xScale)
      .tickValues(values)
      .tickFormat((value: NumberValue) => format(Number(value)))
      .tickSize(4)
      .tickPadding(5);
    axes
      .select<SVGGElement>('g.tl-axis-x')
      .attr(
        'transform',
        `translate(${TIMELINE_MARGIN.left},${TIMELINE_MARGIN.top + this.plot.height})`,
      )
      .call(xAxis);
  }

  private renderMarkerLabels(): void {
    const data = this.data!;
    const labels = data.markers
      .map((marker) => ({ marker, x: this.markerX(marker.event) }))
      .filter(({ x }) => x >= -1 && x <= this.plot.width + 1);
    // Character widths of an 11px UI font average about 6 px; labels only need rough spacing.
    // Centred on the marker where there is room, else pulled inside the plot's edges.
    const left = TIMELINE_MARGIN.left;
    const right = TIMELINE_MARGIN.left + this.plot.width;
    const placed = labels.map(({ marker, x }) => {
      const width = marker.label.length * 6 + 8;
      const half = width / 2;
      return { x: Math.max(left + half - 6, Math.min(right - half + 6, left + x)), width };
    });
    const rows = stackLabelRows(placed, 8, 3);
    const colors: Record<MarkerKind, string> = {
      'peak-active': this.theme.peakActive,
      'peak-reserved': this.theme.peakReserved,
      oom: this.theme.oom,
    };
    select(this.elements.axes)
      .select('g.tl-marker-labels')
      .selectAll<SVGTextElement, (typeof labels)[number]>('text')
      .data(labels)
      .join('text')
      .attr('class', (d) => `tl-marker-label tl-marker-${d.marker.kind}`)
      .attr('fill', (d) => colors[d.marker.kind])
      .attr('text-anchor', 'middle')
      .attr('x', (_d, i) => placed[i]!.x)
      .attr('y', (_d, i) => TIMELINE_MARGIN.top - 6 - rows[i]! * 12)
      .text((d) => d.marker.label);
  }

  /**
   * Where a test (or a tour) can point at the largest band drawn at the active peak: CSS pixels
   * relative to the canvas, checked against the same hit test the pointer uses.
   */
  private largestBandAtPeak(): { x: number; y: number } | null {
    const data = this.data!;
    const layout = this.layout!;
    const peak = data.device.figures.active.peakEventIndex;
    // Zoomed out, an event's slot can be narrower than a pixel: of the pixels around the peak's
    // line, take the one whose hover shows the event nearest to the peak.
    const lineX = Math.floor(this.markerX(peak));
    let x = Math.max(0, Math.min(this.plot.width - 1, lineX));
    let event = this.eventAtPixel(x);
    for (let candidate = lineX - 1; candidate <= lineX + 2; candidate++) {
      if (candidate < 0 || candidate > this.plot.width - 1) continue;
      const candidateEvent = this.eventAtPixel(candidate);
      if (Math.abs(candidateEvent - peak) < Math.abs(event - peak)) {
        x = candidate;
        event = candidateEvent;
      }
    }
    // The pointer lands within half a pixel of x: the band must hold still across that range.
    const first = this.eventAtPixel(Math.max(0, x - 0.49));
    const last = this.eventAtPixel(Math.min(this.plot.width, x + 0.49));
    const table = data.device.allocations;
    let best: AllocationBand | null = null;
    for (const band of layout.bands) {
      if (table.startEvent[band.row]! > first || band.endEvent <= last) continue;
      if (stepValueAt(band, first) !== stepValueAt(band, last)) continue;
      if (best === null || band.sizeBytes > best.sizeBytes) best = band;
    }
    if (best === null) return null;
    const offset = stepValueAt(best, event);
    const y = Math.round(this.yScale(offset + best.sizeBytes / 2));
    return { x, y: Math.max(0, Math.min(this.plot.height - 1, y)) };
  }

  private eventAtPixel(x: number): number {
    const layout = this.layout!;
    const event = eventAtX(this.data!.axis, this.xScale.invert(x));
    return Math.max(layout.startEvent, Math.min(layout.endEvent - 1, event));
  }

  private renderOverview(): void {
    const data = this.data!;
    const { axis, device } = data;
    const size = this.overviewSize;
    const context = prepareCanvas(this.elements.overviewCanvas, size);
    if (context !== null && size.width > 0 && size.height > 0) {
      const columns = Math.max(
        1,
        Math.min(MAX_COLUMNS, Math.round(size.width * size.devicePixelRatio)),
      );
      const all = eventWindow(axis, axis.minX, axis.maxX, columns);
      const whole = layoutTimeline({
        device,
        startEvent: all.startEvent,
        endEvent: all.endEvent,
        columnStartEvents: all.columnStartEvents,
        maxBands: 0,
      });
      const y = scaleLinear()
        .domain([0, Math.max(1, whole.maxBytes * 1.05)])
        .range([size.height, 1]);
      drawOverview(context, size, whole, (bytes) => y(bytes), this.theme);
    }
    this.overviewScale = scaleLinear().domain([axis.minX, axis.maxX]).range([0, size.width]);
    const brushGroup = select(this.elements.overviewBrush)
      .attr('width', this.elements.overview.clientWidth)
      .attr('height', size.height)
      .select<SVGGElement>('g.tl-brush')
      .attr('transform', `translate(${TIMELINE_MARGIN.left},0)`);
    this.brush.extent([
      [0, 0],
      [Math.max(1, size.width), Math.max(1, size.height)],
    ]);
    brushGroup.call(this.brush);
    this.moveBrush();
  }

  private moveBrush(): void {
    if (this.overviewSize.width <= 0) return;
    const group = select(this.elements.overviewBrush).select<SVGGElement>('g.tl-brush');
    if (group.empty()) return;
    const bounds = this.bounds();
    if (this.domain.x0 <= bounds.min && this.domain.x1 >= bounds.max) {
      // Showing everything: no selection, so a drag anywhere on the strip draws a new one.
      group.call(this.brush.move, null);
      return;
    }
    const x0 = this.overviewScale(this.domain.x0);
    const x1 = Math.max(x0 + 1, this.overviewScale(this.domain.x1));
    group.call(this.brush.move, [x0, x1]);
  }

  private onBrush(event: D3BrushEvent<unknown>): void {
    // Programmatic moves (from zooming the main chart) carry no source event.
    if (!event.sourceEvent || this.data === null) return;
    const selection = event.selection as [number, number] | null;
    if (selection !== null) {
      const x0 = this.overviewScale.invert(selection[0]);
      const x1 = this.overviewScale.invert(selection[1]);
      if (x1 > x0) this.setDomain({ x0, x1 });
      return;
    }
    if (event.type === 'end') {
      // A click without a drag recentres the current window there.
      const group = select(this.elements.overviewBrush).select<SVGGElement>('g.tl-brush').node();
      if (group === null) return;
      const [px] = pointer(event.sourceEvent, group);
      const centre = this.overviewScale.invert(px);
      const half = (this.domain.x1 - this.domain.x0) / 2;
      this.setDomain({ x0: centre - half, x1: centre + half });
      this.moveBrush();
    }
  }

  // ---- hover and overlay -------------------------------------------------------------------------

  private updateHover(): void {
    const position = this.pointerPosition;
    const data = this.data;
    const layout = this.layout;
    if (position === null || data === null || layout === null || this.drag?.moved === true) {
      this.hoverHit = null;
      this.callbacks.onHover(null);
      return;
    }
    const { device } = data;
    const event = this.eventAtPixel(position.x);
    const bytes = this.yScale.invert(position.y);
    const hit = hitTestTimeline(layout, device, event, bytes);
    this.hoverHit = hit;
    this.elements.canvas.style.cursor = hit?.kind === 'allocation' ? 'pointer' : 'crosshair';
    const valueAt = (curve: Float64Array, baseline: number): number =>
      event < 0 || curve.length === 0 ? baseline : curve[Math.min(event, curve.length - 1)]!;
    this.callbacks.onHover({
      x: position.x,
      y: position.y,
      plotLeft: TIMELINE_MARGIN.left,
      plotTop: TIMELINE_MARGIN.top,
      plotWidth: this.plot.width,
      plotHeight: this.plot.height,
      event,
      hit,
      activeBytes: valueAt(device.activeBytes, device.figures.active.baselineBytes),
      reservedBytes: valueAt(device.reservedBytes, device.figures.reserved.baselineBytes),
      annotations: spansAt(data.spans, this.xScale.invert(position.x)),
    });
  }

  private renderOverlay(): void {
    const data = this.data;
    if (data === null || this.layout === null) return;
    const context = prepareCanvas(this.elements.overlay, this.plot);
    if (context === null) return;
    const coordinates = this.coordinates();
    const hoverRow = this.hoverHit?.kind === 'allocation' ? this.hoverHit.row : null;
    const selectedBand =
      this.selectedRow === null ? null : (this.bandByRow.get(this.selectedRow) ?? null);
    let selectedSpan: { x0: number; x1: number } | null = null;
    const table = data.device.allocations;
    const root = this.elements.root;
    if (this.selectedRow !== null && selectedBand === null && this.selectedRow < table.count) {
      const { axis } = data;
      const start = Math.max(axis.minEvent, table.startEvent[this.selectedRow]!);
      const end = Math.min(axis.maxEvent, table.endEvent[this.selectedRow]!);
      selectedSpan = { x0: coordinates.xOfEvent(start), x1: coordinates.xOfEvent(end) };
    }
    if (this.selectedRow === null) {
      delete root.dataset['selectedRow'];
      delete root.dataset['selectedDrawn'];
    } else {
      root.dataset['selectedRow'] = String(this.selectedRow);
      root.dataset['selectedDrawn'] = selectedBand !== null ? 'band' : 'outline';
    }
    const showCrosshair = this.pointerPosition !== null && this.drag?.moved !== true;
    drawOverlay(
      context,
      this.plot,
      coordinates,
      {
        crosshairX: showCrosshair ? this.pointerPosition!.x : null,
        hoverBand: hoverRow === null ? null : (this.bandByRow.get(hoverRow) ?? null),
        selectedBand,
        selectedSpan,
        momentX: this.moment === null ? null : this.markerX(this.moment),
      },
      this.theme,
    );
  }

  // ---- input -----------------------------------------------------------------------------------

  private listen<K extends keyof HTMLElementEventMap>(
    target: HTMLElement,
    type: K,
    handler: (event: HTMLElementEventMap[K]) => void,
    options?: AddEventListenerOptions,
  ): void {
    target.addEventListener(type, handler, options);
    this.cleanups.push(() => target.removeEventListener(type, handler, options));
  }

  private canvasPoint(event: MouseEvent): { x: number; y: number } {
    const rect = this.elements.canvas.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  private onPointerDown(event: PointerEvent): void {
    if (event.button !== 0 || this.data === null) return;
    const point = this.canvasPoint(event);
    this.drag = {
      pointerId: event.pointerId,
      startX: point.x,
      startDomain: { ...this.domain },
      moved: false,
    };
    this.elements.canvas.setPointerCapture(event.pointerId);
    // Keyboard zoom works after a click, without the focus ring a click should not show.
    const focusOptions: FocusOptions & { focusVisible?: boolean } = {
      preventScroll: true,
      focusVisible: false,
    };
    this.elements.root.focus(focusOptions);
    event.preventDefault();
  }

  private onPointerMove(event: PointerEvent): void {
    const point = this.canvasPoint(event);
    const drag = this.drag;
    if (drag !== null && drag.pointerId === event.pointerId) {
      const dx = point.x - drag.startX;
      if (!drag.moved && Math.abs(dx) >= DRAG_THRESHOLD_PX) {
        drag.moved = true;
        this.elements.canvas.style.cursor = 'grabbing';
        this.callbacks.onHover(null);
      }
      if (drag.moved) {
        const span = drag.startDomain.x1 - drag.startDomain.x0;
        const delta = (-dx * span) / Math.max(1, this.plot.width);
        this.setDomain(panBy(drag.startDomain, delta, this.bounds()));
      }
    }
    this.pointerPosition = point;
    this.invalidate('hover');
  }

  private onPointerUp(event: PointerEvent): void {
    const drag = this.drag;
    if (drag === null || drag.pointerId !== event.pointerId) return;
    this.endDrag();
    if (!drag.moved) this.click(this.canvasPoint(event));
    this.pointerPosition = this.canvasPoint(event);
    this.invalidate('hover');
  }

  private endDrag(): void {
    const drag = this.drag;
    this.drag = null;
    if (drag !== null && this.elements.canvas.hasPointerCapture(drag.pointerId))
      this.elements.canvas.releasePointerCapture(drag.pointerId);
    this.elements.canvas.style.cursor = '';
  }

  private onPointerLeave(): void {
    if (this.drag !== null) return;
    this.pointerPosition = null;
    this.invalidate('hover');
  }

  private click(point: { x: number; y: number }): void {
    const data = this.data;
    const layout = this.layout;
    if (data === null || layout === null) return;
    const event = this.eventAtPixel(point.x);
    const hit = hitTestTimeline(layout, data.device, event, this.yScale.invert(point.y));
    if (hit?.kind === 'allocation') this.callbacks.onSelectRow(hit.row);
    else this.callbacks.onMoment(event);
  }

  private onWheel(event: WheelEvent): void {
    if (this.data === null || this.plot.width <= 0) return;
    event.preventDefault();
    const point = this.canvasPoint(event);
    const horizontal = Math.abs(event.deltaX) > Math.abs(event.deltaY);
    if (horizontal || event.shiftKey) {
      const delta = horizontal ? event.deltaX : event.deltaY;
      const span = this.domain.x1 - this.domain.x0;
      this.setDomain(panBy(this.domain, (delta * span) / this.plot.width, this.bounds()));
      return;
    }
    const factor = wheelZoomFactor(event.deltaY, event.deltaMode, event.ctrlKey);
    const anchor = this.xScale.invert(Math.max(0, Math.min(this.plot.width, point.x)));
    this.setDomain(zoomAround(this.domain, anchor, factor, this.bounds()));
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.altKey || event.metaKey || event.ctrlKey) return;
    switch (event.key) {
      case '+':
      case '=':
        this.zoomBy(KEY_ZOOM_FACTOR);
        break;
      case '-':
      case '_':
        this.zoomBy(1 / KEY_ZOOM_FACTOR);
        break;
      case 'ArrowLeft':
        this.panByFraction(-(event.shiftKey ? 0.5 : KEY_PAN_FRACTION));
        break;
      case 'ArrowRight':
        this.panByFraction(event.shiftKey ? 0.5 : KEY_PAN_FRACTION);
        break;
      case '0':
        this.resetZoom();
        break;
      case 'Escape':
        if (this.selectedRow === null) return;
        this.callbacks.onSelectRow(null);
        break;
      default:
        return;
    }
    event.preventDefault();
  }
}
