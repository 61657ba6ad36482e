// Fragmentation over time, under the timeline and on its x axis (the same margins, window and
// axis): a byte pane with reserved − active (exact, from the curves after every event), the
// largest free block and internal waste (from allocator states at sampled moments), and a share
// pane with the part of reserved memory held in free blocks smaller than a common request. This
// chart supplies the canvas host (../canvas/canvas-host.ts) its two layers and handles the input;
// what is drawn comes from @shared/chart/fragmentation-points.ts and fragmentation-layout.ts
// (shared with the exported SVG), the drawing from fragmentation-draw.ts and fragmentation-axes.ts.

import { scaleLinear, type ScaleLinear } from 'd3';
import {
  createEventAxis,
  eventAtX,
  momentCoordinate,
  type EventAxis,
} from '@shared/chart/event-axis';
import { xAxisTicks } from '@shared/chart/x-axis-ticks';
import { CanvasHost, type CanvasSize, type LayerBox } from '../canvas/canvas-host';
import {
  createFragmentationAxes,
  removeFragmentationAxes,
  renderFragmentationAxes,
} from './fragmentation-axes';
import { sameWindow, visibleDomain } from '@shared/chart/fragmentation-layout';
import { layoutFragmentation, type FragmentationPlot } from '@shared/chart/fragmentation-scene';
import type { FragmentationData, FragmentationWindow } from './fragmentation-data';
import { drawFragmentation, drawFragmentationOverlay } from './fragmentation-draw';
import { fragmentationTheme, type FragmentationTheme } from './fragmentation-theme';
import { TIMELINE_MARGIN } from '../timeline/timeline-plot';

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

type Layer = 'plot' | 'overlay';

export class FragmentationChart {
  private readonly elements: FragmentationChartElements;
  private readonly callbacks: FragmentationChartCallbacks;
  private readonly host: CanvasHost<FragmentationTheme, Layer>;
  private data: FragmentationData | null = null;
  private axis: EventAxis | null = null;
  private window: FragmentationWindow | null = null;
  private xScale: ScaleLinear<number, number> = scaleLinear();
  private pointerX: number | null = null;
  private drawCount = 0;

  constructor(elements: FragmentationChartElements, callbacks: FragmentationChartCallbacks) {
    this.elements = elements;
    this.callbacks = callbacks;
    createFragmentationAxes(elements.axes);
    const host = new CanvasHost<FragmentationTheme, Layer>({
      observe: [elements.stage],
      layers: {
        plot: {
          canvas: elements.canvas,
          draw: (context, size, theme) => this.draw(context, size, theme),
        },
        overlay: {
          canvas: elements.overlay,
          draw: (context, size, theme) => this.drawOverlay(context, size, theme),
        },
      },
      measure: () => this.measure(),
      theme: fragmentationTheme,
      ready: () => {
        const size = this.host.size('plot');
        return this.data !== null && this.axis !== null && size.width > 0 && size.height > 0;
      },
    });
    this.host = host;
    const canvas = elements.overlay;
    host.listen(canvas, 'pointermove', (event) => {
      this.pointerX = this.canvasX(event);
      host.invalidate('overlay');
      const hoverEvent = this.eventAt(this.pointerX);
      if (hoverEvent === null) return;
      this.callbacks.onHover({
        event: hoverEvent,
        x: this.pointerX + FRAGMENTATION_MARGIN.left,
        y: event.clientY - this.elements.stage.getBoundingClientRect().top,
      });
    });
    host.listen(canvas, 'pointerleave', () => {
      this.pointerX = null;
      host.invalidate('overlay');
      this.callbacks.onHover(null);
    });
    host.listen(canvas, 'click', (event) => {
      const clicked = this.eventAt(this.canvasX(event));
      if (clicked !== null) this.callbacks.onMoment(clicked);
    });
  }

  destroy(): void {
    this.host.destroy();
    removeFragmentationAxes(this.elements.axes);
  }

  setData(data: FragmentationData): void {
    const previous = this.data;
    if (previous === null || previous.device !== data.device || previous.mode !== data.mode) {
      this.axis = createEventAxis(data.device, data.mode);
    }
    this.data = data;
    this.host.invalidate('plot', 'overlay');
  }

  /** The timeline's visible window; null (or another axis mode) shows the whole trace. */
  setWindow(window: FragmentationWindow | null): void {
    if (sameWindow(this.window, window)) return;
    this.window = window;
    this.host.invalidate('plot', 'overlay');
  }

  /** Both layers: the plot inside the stage's margins. */
  private measure(): Record<Layer, LayerBox> {
    const stage = this.elements.stage;
    const m = FRAGMENTATION_MARGIN;
    const box = {
      left: m.left,
      top: m.top,
      width: Math.max(0, stage.clientWidth - m.left - m.right),
      height: Math.max(0, stage.clientHeight - m.top - m.bottom),
    };
    return { plot: box, overlay: box };
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
    const width = this.host.size('plot').width;
    return eventAtX(this.axis, this.xScale.invert(Math.max(0, Math.min(width, x))));
  }

  private draw(
    context: CanvasRenderingContext2D,
    plot: CanvasSize,
    theme: FragmentationTheme,
  ): void {
    const data = this.data!;
    const axis = this.axis!;
    const { device } = data;
    const { x0, x1 } = visibleDomain(axis, this.window);
    const width = plot.width;
    this.xScale = scaleLinear().domain([x0, x1]).range([0, width]);
    const laid = fragmentationPlot(data, axis, { x0, x1 }, plot);
    const { points, ticks } = laid;
    drawFragmentation(context, laid, theme);
    const yBytes = scaleLinear()
      .domain([0, laid.topBytes])
      .range([laid.panes.bytesTop + laid.panes.bytesHeight, laid.panes.bytesTop]);
    const yShare = scaleLinear()
      .domain([0, 1])
      .range([laid.panes.shareTop + laid.panes.shareHeight, laid.panes.shareTop]);

    const stage = this.elements.stage;
    const xTicks = this.xScale.ticks(Math.max(2, Math.floor(width / 110)));
    renderFragmentationAxes(
      this.elements.axes,
      { width: stage.clientWidth, height: stage.clientHeight },
      FRAGMENTATION_MARGIN,
      plot.height,
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

  private drawOverlay(
    context: CanvasRenderingContext2D,
    plot: CanvasSize,
    theme: FragmentationTheme,
  ): void {
    drawFragmentationOverlay(
      context,
      plot,
      this.xOfMoment(this.data!.moment),
      this.pointerX,
      theme,
    );
  }
}

/** The plot's scene and scales for the visible domain on a canvas of this size (the moment's line
 * is the overlay's). */
export function fragmentationPlot(
  data: FragmentationData,
  axis: EventAxis,
  domain: { x0: number; x1: number },
  size: CanvasSize,
): FragmentationPlot {
  return layoutFragmentation({
    device: data.device,
    axis,
    samples: data,
    x0: domain.x0,
    x1: domain.x1,
    width: size.width,
    height: size.height,
    devicePixelRatio: size.devicePixelRatio,
    moment: null,
  });
}
