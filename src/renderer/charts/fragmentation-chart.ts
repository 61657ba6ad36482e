// Fragmentation over time, under the timeline and on its x axis (the same margins, window and
// axis): a byte pane with reserved − active (exact, from the curves after every event), the
// largest free block and internal waste (from allocator states at sampled moments), and a share
// pane with the part of reserved memory held in free blocks smaller than a common request.

import { axisBottom, axisLeft, scaleLinear, select, type NumberValue, type ScaleLinear } from 'd3';
import { formatEventTick, timeTickFormatter } from '@shared/chart/axis-format';
import { byteTicks } from '@shared/chart/byte-ticks';
import {
  createEventAxis,
  eventAtX,
  eventWindow,
  type EventAxis,
  type XMode,
} from '@shared/chart/event-axis';
import type { FragmentationSeries } from '@shared/state/fragmentation-series';
import type { MemoryFigures } from '@shared/state/memory-figures';
import type { DeviceView } from '@shared/view/snapshot-view';
import { TIMELINE_MARGIN } from './timeline-chart';
import { drawVerticalMarker, prepareCanvas, type PlotSize } from './timeline-draw';

export interface FragmentationChartElements {
  root: HTMLElement;
  stage: HTMLElement;
  canvas: HTMLCanvasElement;
  overlay: HTMLCanvasElement;
  axes: SVGSVGElement;
}

export interface FragmentationHover {
  event: number;
  /** Pointer in CSS pixels relative to the stage. */
  x: number;
  y: number;
}

export interface FragmentationChartCallbacks {
  onHover(hover: FragmentationHover | null): void;
  onMoment(event: number): void;
}

export interface FragmentationTheme {
  cached: string;
  cachedFill: string;
  largest: string;
  waste: string;
  small: string;
  smallFill: string;
  grid: string;
  moment: string;
  oom: string;
  peak: string;
  crosshair: string;
}

/** The x window to show; null: the whole trace. */
export interface FragmentationWindow {
  mode: XMode;
  x0: number;
  x1: number;
}

export interface FragmentationData {
  device: DeviceView;
  mode: XMode;
  /** Figures at sampled moments over the whole trace (null while computing). */
  series: FragmentationSeries | null;
  /** Finer samples of the visible window, when zoomed in. */
  windowSeries: FragmentationSeries | null;
  /** The moment's own figures, drawn as a point among the samples. */
  moment: number;
  momentFigures: MemoryFigures | null;
}

export const FRAGMENTATION_MARGIN = {
  left: TIMELINE_MARGIN.left,
  right: TIMELINE_MARGIN.right,
  top: 8,
  bottom: 22,
} as const;
/** Gap between the byte pane and the share pane; the share pane's part of the height. */
const PANE_GAP = 12;
const SHARE_PANE = 0.3;
const MAX_COLUMNS = 4096;

export function readFragmentationTheme(element: Element): FragmentationTheme {
  const style = getComputedStyle(element);
  const v = (name: string, fallback: string): string => {
    const value = style.getPropertyValue(name).trim();
    return value === '' ? fallback : value;
  };
  return {
    cached: v('--frag-cached', '#5f74a6'),
    cachedFill: v('--frag-cached-fill', 'rgb(95 116 166 / 14%)'),
    largest: v('--frag-largest', '#2a9d6f'),
    waste: v('--frag-waste', '#c0602f'),
    small: v('--frag-small', '#b04fb0'),
    smallFill: v('--frag-small-fill', 'rgb(176 79 176 / 14%)'),
    grid: v('--tl-grid', 'rgb(28 34 48 / 7%)'),
    moment: v('--tl-moment', '#1c2230'),
    oom: v('--tl-oom', '#d43c3c'),
    peak: v('--tl-peak-active', '#2f6fed'),
    crosshair: v('--tl-crosshair', 'rgb(28 34 48 / 40%)'),
  };
}

interface Panes {
  bytesTop: number;
  bytesHeight: number;
  shareTop: number;
  shareHeight: number;
}

export class FragmentationChart {
  private readonly elements: FragmentationChartElements;
  private readonly callbacks: FragmentationChartCallbacks;
  private data: FragmentationData | null = null;
  private axis: EventAxis | null = null;
  private window: FragmentationWindow | null = null;
  private plot: PlotSize = { width: 0, height: 0, devicePixelRatio: 1 };
  private panes: Panes = { bytesTop: 0, bytesHeight: 0, shareTop: 0, shareHeight: 0 };
  private xScale: ScaleLinear<number, number> = scaleLinear();
  private theme: FragmentationTheme;
  private pointerX: number | null = null;
  private frameRequest = 0;
  private needs = { measure: true, draw: true, overlay: true };
  private drawCount = 0;
  private readonly resizeObserver: ResizeObserver;
  private readonly colorScheme: MediaQueryList;
  private readonly cleanups: (() => void)[] = [];

  constructor(elements: FragmentationChartElements, callbacks: FragmentationChartCallbacks) {
    this.elements = elements;
    this.callbacks = callbacks;
    this.theme = readFragmentationTheme(elements.root);
    this.resizeObserver = new ResizeObserver(() => this.invalidate('measure'));
    this.resizeObserver.observe(elements.stage);
    this.colorScheme = window.matchMedia('(prefers-color-scheme: dark)');
    const onScheme = (): void => {
      this.theme = readFragmentationTheme(this.elements.root);
      this.invalidate('draw');
    };
    this.colorScheme.addEventListener('change', onScheme);
    this.cleanups.push(() => this.colorScheme.removeEventListener('change', onScheme));
    const axes = select(elements.axes);
    axes.append('g').attr('class', 'tl-axis frag-axis-bytes');
    axes.append('g').attr('class', 'tl-axis frag-axis-share');
    axes.append('g').attr('class', 'tl-axis frag-axis-x');
    const canvas = elements.overlay;
    const onMove = (event: PointerEvent): void => {
      this.pointerX = this.canvasX(event);
      this.invalidate('overlay');
      const hoverEvent = this.eventAt(this.pointerX);
      if (hoverEvent === null) return;
      this.callbacks.onHover({
        event: hoverEvent,
        x: this.pointerX + FRAGMENTATION_MARGIN.left,
        y: event.clientY - this.elements.stage.getBoundingClientRect().top,
      });
    };
    const onLeave = (): void => {
      this.pointerX = null;
      this.invalidate('overlay');
      this.callbacks.onHover(null);
    };
    const onClick = (event: MouseEvent): void => {
      const clicked = this.eventAt(this.canvasX(event));
      if (clicked !== null) this.callbacks.onMoment(clicked);
    };
    canvas.addEventListener('pointermove', onMove);
    canvas.addEventListener('pointerleave', onLeave);
    canvas.addEventListener('click', onClick);
    this.cleanups.push(() => {
      canvas.removeEventListener('pointermove', onMove);
      canvas.removeEventListener('pointerleave', onLeave);
      canvas.removeEventListener('click', onClick);
    });
  }

  destroy(): void {
    if (this.frameRequest !== 0) cancelAnimationFrame(this.frameRequest);
    this.frameRequest = 0;
    this.resizeObserver.disconnect();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    select(this.elements.axes).selectAll('*').remove();
  }

  setData(data: FragmentationData): void {
    const previous = this.data;
    if (previous === null || previous.device !== data.device || previous.mode !== data.mode) {
      this.axis = createEventAxis(data.device, data.mode);
    }
    this.data = data;
    this.invalidate('draw');
  }

  /** The timeline's visible window; null (or another axis mode) shows the whole trace. */
  setWindow(window: FragmentationWindow | null): void {
    const current = this.window;
    if (
      current === window ||
      (current !== null &&
        window !== null &&
        current.mode === window.mode &&
        current.x0 === window.x0 &&
        current.x1 === window.x1)
    ) {
      return;
    }
    this.window = window;
    this.invalidate('draw');
  }

  private invalidate(what: keyof FragmentationChart['needs']): void {
    this.needs[what] = true;
    if (this.frameRequest === 0) this.frameRequest = requestAnimationFrame(() => this.frame());
  }

  private frame(): void {
    this.frameRequest = 0;
    const needs = this.needs;
    this.needs = { measure: false, draw: false, overlay: false };
    if (needs.measure && this.measure()) needs.draw = true;
    if (this.data === null || this.axis === null || this.plot.width <= 0 || this.plot.height <= 0) {
      this.needs = { ...needs, measure: false };
      return;
    }
    if (needs.draw) this.draw();
    if (needs.draw || needs.overlay) this.drawOverlay();
  }

  private measure(): boolean {
    const { stage, canvas, overlay } = this.elements;
    const devicePixelRatio = window.devicePixelRatio || 1;
    const m = FRAGMENTATION_MARGIN;
    const width = Math.max(0, stage.clientWidth - m.left - m.right);
    const height = Math.max(0, stage.clientHeight - m.top - m.bottom);
    const changed =
      width !== this.plot.width ||
      height !== this.plot.height ||
      devicePixelRatio !== this.plot.devicePixelRatio;
    this.plot = { width, height, devicePixelRatio };
    for (const element of [canvas, overlay]) {
      element.style.left = `${m.left}px`;
      element.style.top = `${m.top}px`;
      element.style.width = `${width}px`;
      element.style.height = `${height}px`;
    }
    const shareHeight = Math.max(16, Math.round((height - PANE_GAP) * SHARE_PANE));
    const bytesHeight = Math.max(16, height - PANE_GAP - shareHeight);
    this.panes = {
      bytesTop: 0,
      bytesHeight,
      shareTop: bytesHeight + PANE_GAP,
      shareHeight: Math.max(0, height - bytesHeight - PANE_GAP),
    };
    return changed;
  }

  /** The x range shown: the timeline's window when it uses this axis, else everything. */
  private domain(): { x0: number; x1: number } {
    const axis = this.axis!;
    const window = this.window;
    if (window !== null && window.mode === axis.mode && window.x1 > window.x0) {
      return { x0: Math.max(axis.minX, window.x0), x1: Math.min(axis.maxX, window.x1) };
    }
    return { x0: axis.minX, x1: axis.maxX };
  }

  /** x of the state after `event`, as the timeline places its markers. */
  private xOfMoment(event: number): number {
    const axis = this.axis!;
    const clamped = Math.max(axis.minEvent, Math.min(axis.maxEvent - 1, event));
    return this.xScale(axis.toX(axis.mode === 'event' ? clamped + 0.5 : clamped));
  }

  private canvasX(event: MouseEvent): number {
    return event.clientX - this.elements.overlay.getBoundingClientRect().left;
  }

  private eventAt(x: number): number | null {
    if (this.axis === null || this.data === null) return null;
    if (this.data.device.traceLength === 0) return -1;
    return eventAtX(this.axis, this.xScale.invert(Math.max(0, Math.min(this.plot.width, x))));
  }

  private draw(): void {
    const data = this.data!;
    const axis = this.axis!;
    const { device } = data;
    const context = prepareCanvas(this.elements.canvas, this.plot);
    if (context === null) return;
    const { x0, x1 } = this.domain();
    this.xScale = scaleLinear().domain([x0, x1]).range([0, this.plot.width]);
    const columns = Math.max(
      1,
      Math.min(MAX_COLUMNS, Math.round(this.plot.width * this.plot.devicePixelRatio)),
    );
    const columnWidth = this.plot.width / columns;

    // reserved − active after every event, as the maximum over each pixel column.
    const cached = new Float64Array(columns);
    if (device.traceLength > 0) {
      const visible = eventWindow(axis, x0, x1, columns);
      const starts = visible.columnStartEvents;
      let carried = cachedAt(device, visible.startEvent);
      for (let column = 0; column < columns; column++) {
        let max = carried;
        for (let event = starts[column]!; event < starts[column + 1]!; event++) {
          const value = cachedAt(device, event);
          if (value > max) max = value;
          carried = value;
        }
        cached[column] = max;
      }
    } else {
      cached.fill(cachedAt(device, -1));
    }

    const points = this.visiblePoints(x0, x1);
    let maxBytes = 0;
    for (const value of cached) maxBytes = Math.max(maxBytes, value);
    for (const point of points) {
      maxBytes = Math.max(maxBytes, point.largest, point.waste);
    }
    const { bytesTop, bytesHeight, shareTop, shareHeight } = this.panes;
    const ticks = byteTicks(maxBytes, Math.max(2, Math.round(bytesHeight / 32)));
    const top = Math.max(maxBytes * 1.08, ticks.values.at(-1) ?? 0, 1);
    const yBytes = scaleLinear()
      .domain([0, top])
      .range([bytesTop + bytesHeight, bytesTop]);
    const yShare = scaleLinear()
      .domain([0, 1])
      .range([shareTop + shareHeight, shareTop]);
    const theme = this.theme;
    const width = this.plot.width;

    context.save();
    // Grid.
    context.strokeStyle = theme.grid;
    context.lineWidth = 1;
    context.beginPath();
    for (const bytes of ticks.values) {
      const y = Math.round(yBytes(bytes)) + 0.5;
      context.moveTo(0, y);
      context.lineTo(width, y);
    }
    for (const share of [0, 0.5, 1]) {
      const y = Math.round(yShare(share)) + 0.5;
      context.moveTo(0, y);
      context.lineTo(width, y);
    }
    context.stroke();

    // reserved − active: an area with its edge.
    context.fillStyle = theme.cachedFill;
    context.beginPath();
    context.moveTo(0, yBytes(0));
    for (let column = 0; column < columns; column++) {
      const y = yBytes(cached[column]!);
      context.lineTo(column * columnWidth, y);
      context.lineTo((column + 1) * columnWidth, y);
    }
    context.lineTo(width, yBytes(0));
    context.closePath();
    context.fill();
    context.strokeStyle = theme.cached;
    context.lineWidth = 1.25;
    context.beginPath();
    for (let column = 0; column < columns; column++) {
      const y = yBytes(cached[column]!);
      if (column === 0) context.moveTo(0, y);
      else context.lineTo(column * columnWidth, y);
      context.lineTo((column + 1) * columnWidth, y);
    }
    context.stroke();

    // Sampled curves: steps that hold each sample until the next.
    const stepLine = (
      value: (point: SamplePoint) => number,
      y: (value: number) => number,
      color: string,
      fill: string | null,
    ): void => {
      if (points.length === 0) return;
      const xs = points.map((point) => Math.max(-2, Math.min(width + 2, point.x)));
      // The first moment of the trace holds from its left edge.
      if (points[0]!.moment <= Math.max(0, axis.minEvent))
        xs[0] = Math.min(xs[0]!, this.xScale(axis.minX));
      if (fill !== null) {
        context.fillStyle = fill;
        context.beginPath();
        context.moveTo(xs[0]!, y(0));
        points.forEach((point, i) => {
          context.lineTo(xs[i]!, y(value(point)));
          context.lineTo(i + 1 < points.length ? xs[i + 1]! : width, y(value(point)));
        });
        context.lineTo(width, y(0));
        context.closePath();
        context.fill();
      }
      context.strokeStyle = color;
      context.lineWidth = 1.5;
      context.beginPath();
      points.forEach((point, i) => {
        const yValue = y(value(point));
        if (i === 0) context.moveTo(xs[0]!, yValue);
        else context.lineTo(xs[i]!, yValue);
        context.lineTo(i + 1 < points.length ? xs[i + 1]! : width, yValue);
      });
      context.stroke();
    };
    stepLine((point) => point.largest, yBytes, theme.largest, null);
    stepLine((point) => point.waste, yBytes, theme.waste, null);
    stepLine((point) => point.smallShare, yShare, theme.small, theme.smallFill);

    // OOMs and the active peak, as on the timeline.
    const markers: { event: number; color: string; dash: number[]; width: number }[] = [];
    markers.push({
      event: device.summary.active_bytes.peak_event_index,
      color: theme.peak,
      dash: [5, 3],
      width: 1,
    });
    for (const oom of device.ooms)
      markers.push({ event: oom.eventIndex, color: theme.oom, dash: [], width: 2 });
    for (const marker of markers) {
      const x = this.xOfMoment(marker.event);
      if (x < -1 || x > width + 1) continue;
      drawVerticalMarker(context, { ...marker, x }, this.plot.height);
    }
    context.restore();

    this.renderAxes(ticks.values, ticks.format, yBytes, yShare);
    this.drawCount++;
    const root = this.elements.root;
    root.dataset['drawn'] = String(this.drawCount);
    root.dataset['samples'] = String(points.length);
  }

  private visiblePoints(x0: number, x1: number): SamplePoint[] {
    const data = this.data!;
    const zoomed = data.windowSeries;
    const series = zoomed ?? data.series;
    const points: SamplePoint[] = [];
    const add = (moment: number, figures: Omit<SamplePoint, 'x' | 'moment'>): void => {
      points.push({ moment, x: this.xOfMoment(moment), ...figures });
    };
    if (series !== null) {
      for (let i = 0; i < series.moments.length; i++) {
        const reserved = series.reservedBytes[i]!;
        add(series.moments[i]!, {
          largest: series.largestFreeBytes[i]!,
          waste: series.internalWasteBytes[i]!,
          smallShare: reserved > 0 ? series.smallFreeBytes[i]! / reserved : 0,
        });
      }
    }
    const figures = data.momentFigures;
    if (figures !== null) {
      add(data.moment, {
        largest: figures.largestFreeBytes,
        waste: figures.internalWasteBytes,
        smallShare: figures.reservedBytes > 0 ? figures.smallFreeBytes / figures.reservedBytes : 0,
      });
    }
    points.sort((a, b) => a.moment - b.moment);
    // Unique moments; keep one point either side of the window so lines reach its edges.
    const unique = points.filter((point, i) => i === 0 || point.moment !== points[i - 1]!.moment);
    const xLeft = this.xScale(x0);
    const xRight = this.xScale(x1);
    let first = 0;
    while (first + 1 < unique.length && unique[first + 1]!.x <= xLeft) first++;
    let end = unique.length;
    while (end - 1 > first && unique[end - 2]!.x >= xRight) end--;
    return unique.slice(first, end);
  }

  private renderAxes(
    byteValues: number[],
    formatBytesTick: (bytes: number) => string,
    yBytes: ScaleLinear<number, number>,
    yShare: ScaleLinear<number, number>,
  ): void {
    const data = this.data!;
    const axis = this.axis!;
    const stage = this.elements.stage;
    const m = FRAGMENTATION_MARGIN;
    const axes = select(this.elements.axes)
      .attr('width', stage.clientWidth)
      .attr('height', stage.clientHeight);
    axes
      .select<SVGGElement>('g.frag-axis-bytes')
      .attr('transform', `translate(${m.left},${m.top})`)
      .call(
        axisLeft(yBytes)
          .tickValues(byteValues)
          .tickFormat((value: NumberValue) => formatBytesTick(Number(value)))
          .tickSize(4)
          .tickPadding(6),
      );
    axes
      .select<SVGGElement>('g.frag-axis-share')
      .attr('transform', `translate(${m.left},${m.top})`)
      .call(
        axisLeft(yShare)
          .tickValues([0, 0.5, 1])
          .tickFormat((value: NumberValue) => `${Math.round(Number(value) * 100)}%`)
          .tickSize(4)
          .tickPadding(6),
      );
    const tickCount = Math.max(2, Math.floor(this.plot.width / 110));
    let values = this.xScale.ticks(tickCount);
    let format: (value: number) => string;
    if (axis.mode === 'time') {
      const { x0, x1 } = this.domain();
      const step = values.length > 1 ? values[1]! - values[0]! : x1 - x0;
      const largest = Math.max(Math.abs(values[0] ?? 0), Math.abs(values.at(-1) ?? 0));
      format = timeTickFormatter(step, largest);
    } else {
      values =
        data.device.traceLength === 0 ? [] : values.filter((value) => Number.isInteger(value));
      format = formatEventTick;
    }
    axes
      .select<SVGGElement>('g.frag-axis-x')
      .attr('transform', `translate(${m.left},${m.top + this.plot.height})`)
      .call(
        axisBottom(this.xScale)
          .tickValues(values)
          .tickFormat((value: NumberValue) => format(Number(value)))
          .tickSize(4)
          .tickPadding(5),
      );
  }

  private drawOverlay(): void {
    const context = prepareCanvas(this.elements.overlay, this.plot);
    if (context === null || this.data === null) return;
    const moment = this.data.moment;
    drawVerticalMarker(
      context,
      { x: this.xOfMoment(moment), color: this.theme.moment, dash: [], width: 1 },
      this.plot.height,
    );
    if (this.pointerX !== null) {
      drawVerticalMarker(
        context,
        { x: this.pointerX, color: this.theme.crosshair, dash: [2, 3], width: 1 },
        this.plot.height,
      );
    }
  }
}

interface SamplePoint {
  moment: number;
  x: number;
  largest: number;
  waste: number;
  smallShare: number;
}

/** reserved − active after `event` (the baselines before the first entry). */
export function cachedAt(device: DeviceView, event: number): number {
  if (event < 0 || device.traceLength === 0) {
    return Math.max(
      0,
      device.summary.reserved_bytes.baseline - device.summary.active_bytes.baseline,
    );
  }
  const at = Math.min(event, device.traceLength - 1);
  return Math.max(0, device.reservedBytes[at]! - device.activeBytes[at]!);
}
