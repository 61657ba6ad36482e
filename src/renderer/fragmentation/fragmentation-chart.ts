// Fragmentation over time, under the timeline and on its x axis (the same margins, window and
// axis): a byte pane with reserved − active (exact, from the curves after every event), the
// largest free block and internal waste (from allocator states at sampled moments), and a share
// pane with the part of reserved memory held in free blocks smaller than a common request. This
// class owns the frames and the input; what is drawn comes from fragmentation-data.ts and
// fragmentation-geometry.ts, the drawing from fragmentation-draw.ts and fragmentation-axes.ts.

import { scaleLinear, type ScaleLinear } from 'd3';
import { byteTicks } from '@shared/chart/byte-ticks';
import {
  createEventAxis,
  eventAtX,
  momentCoordinate,
  type EventAxis,
} from '@shared/chart/event-axis';
import { xAxisTicks } from '@shared/chart/x-axis-ticks';
import { ChartListeners } from '../canvas/chart-listeners';
import {
  createFragmentationAxes,
  removeFragmentationAxes,
  renderFragmentationAxes,
} from './fragmentation-axes';
import {
  cachedColumns,
  largestDrawnBytes,
  samplePoints,
  type FragmentationData,
  type FragmentationWindow,
} from './fragmentation-data';
import { drawFragmentation, drawFragmentationOverlay, placeMarkers } from './fragmentation-draw';
import {
  sameWindow,
  splitPanes,
  visibleDomain,
  type FragmentationPanes,
} from './fragmentation-geometry';
import { readFragmentationTheme, type FragmentationTheme } from './fragmentation-theme';
import { TIMELINE_MARGIN } from '../timeline/timeline-chart';
import { prepareCanvas, type PlotSize } from '../timeline/timeline-draw';

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

export const FRAGMENTATION_MARGIN = {
  left: TIMELINE_MARGIN.left,
  right: TIMELINE_MARGIN.right,
  top: 8,
  bottom: 22,
} as const;
const MAX_COLUMNS = 4096;

export class FragmentationChart {
  private readonly elements: FragmentationChartElements;
  private readonly callbacks: FragmentationChartCallbacks;
  private data: FragmentationData | null = null;
  private axis: EventAxis | null = null;
  private window: FragmentationWindow | null = null;
  private plot: PlotSize = { width: 0, height: 0, devicePixelRatio: 1 };
  private panes: FragmentationPanes = { bytesTop: 0, bytesHeight: 0, shareTop: 0, shareHeight: 0 };
  private xScale: ScaleLinear<number, number> = scaleLinear();
  private theme: FragmentationTheme;
  private pointerX: number | null = null;
  private frameRequest = 0;
  private needs = { measure: true, draw: true, overlay: true };
  private drawCount = 0;
  private readonly listeners = new ChartListeners();

  constructor(elements: FragmentationChartElements, callbacks: FragmentationChartCallbacks) {
    this.elements = elements;
    this.callbacks = callbacks;
    this.theme = readFragmentationTheme(elements.root);
    const listeners = this.listeners;
    listeners.onResize(elements.stage, () => this.invalidate('measure'));
    listeners.onColorSchemeChange(() => {
      this.theme = readFragmentationTheme(this.elements.root);
      this.invalidate('draw');
    });
    createFragmentationAxes(elements.axes);
    const canvas = elements.overlay;
    listeners.on(canvas, 'pointermove', (event) => {
      this.pointerX = this.canvasX(event);
      this.invalidate('overlay');
      const hoverEvent = this.eventAt(this.pointerX);
      if (hoverEvent === null) return;
      this.callbacks.onHover({
        event: hoverEvent,
        x: this.pointerX + FRAGMENTATION_MARGIN.left,
        y: event.clientY - this.elements.stage.getBoundingClientRect().top,
      });
    });
    listeners.on(canvas, 'pointerleave', () => {
      this.pointerX = null;
      this.invalidate('overlay');
      this.callbacks.onHover(null);
    });
    listeners.on(canvas, 'click', (event) => {
      const clicked = this.eventAt(this.canvasX(event));
      if (clicked !== null) this.callbacks.onMoment(clicked);
    });
  }

  destroy(): void {
    if (this.frameRequest !== 0) cancelAnimationFrame(this.frameRequest);
    this.frameRequest = 0;
    this.listeners.releaseAll();
    removeFragmentationAxes(this.elements.axes);
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
    if (sameWindow(this.window, window)) return;
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
    if (needs.draw) this.draw(this.data, this.axis);
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
    this.panes = splitPanes(height);
    return changed;
  }

  /** x of the state after `event`, as the timeline places its markers. */
  private xOfMoment(event: number): number {
    const axis = this.axis!;
    return this.xScale(axis.toX(momentCoordinate(axis, event)));
  }

  private canvasX(event: MouseEvent): number {
    return event.clientX - this.elements.overlay.getBoundingClientRect().left;
  }

  private eventAt(x: number): number | null {
    if (this.axis === null || this.data === null) return null;
    if (this.data.device.traceLength === 0) return -1;
    return eventAtX(this.axis, this.xScale.invert(Math.max(0, Math.min(this.plot.width, x))));
  }

  private draw(data: FragmentationData, axis: EventAxis): void {
    const { device } = data;
    const context = prepareCanvas(this.elements.canvas, this.plot);
    if (context === null) return;
    const { x0, x1 } = visibleDomain(axis, this.window);
    const width = this.plot.width;
    this.xScale = scaleLinear().domain([x0, x1]).range([0, width]);
    const columns = Math.max(
      1,
      Math.min(MAX_COLUMNS, Math.round(width * this.plot.devicePixelRatio)),
    );
    const cached = cachedColumns(device, axis, x0, x1, columns);
    const points = samplePoints(
      data,
      (moment) => this.xOfMoment(moment),
      this.xScale(x0),
      this.xScale(x1),
    );
    const maxBytes = largestDrawnBytes(cached, points);
    const { bytesTop, bytesHeight, shareTop, shareHeight } = this.panes;
    const ticks = byteTicks(maxBytes, Math.max(2, Math.round(bytesHeight / 32)));
    const top = Math.max(maxBytes * 1.08, ticks.values.at(-1) ?? 0, 1);
    const yBytes = scaleLinear()
      .domain([0, top])
      .range([bytesTop + bytesHeight, bytesTop]);
    const yShare = scaleLinear()
      .domain([0, 1])
      .range([shareTop + shareHeight, shareTop]);

    drawFragmentation(
      context,
      this.plot,
      {
        cached,
        points,
        gridBytes: ticks.values,
        yBytes,
        yShare,
        traceStart: { moment: Math.max(0, axis.minEvent), x: this.xScale(axis.minX) },
        markers: placeMarkers(device, this.theme, (event) => this.xOfMoment(event), width),
      },
      this.theme,
    );

    const stage = this.elements.stage;
    const xTicks = this.xScale.ticks(Math.max(2, Math.floor(width / 110)));
    renderFragmentationAxes(
      this.elements.axes,
      { width: stage.clientWidth, height: stage.clientHeight },
      FRAGMENTATION_MARGIN,
      this.plot.height,
      { x: this.xScale, yBytes, yShare },
      {
        bytes: ticks,
        x: xAxisTicks(axis.mode, xTicks, x0, x1, device.traceLength),
      },
    );
    this.drawCount++;
    const root = this.elements.root;
    root.dataset['drawn'] = String(this.drawCount);
    root.dataset['samples'] = String(points.length);
  }

  private drawOverlay(): void {
    const context = prepareCanvas(this.elements.overlay, this.plot);
    if (context === null || this.data === null) return;
    drawFragmentationOverlay(
      context,
      this.plot,
      this.xOfMoment(this.data.moment),
      this.pointerX,
      this.theme,
    );
  }
}
