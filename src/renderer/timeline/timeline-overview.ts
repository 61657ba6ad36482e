// The overview strip (mini-map) under the timeline: the whole trace's envelopes on a canvas, and a
// d3 brush over it showing the visible window. Brushing picks a new window; a click without a
// drag recentres the current one there.

import { brushX, pointer, scaleLinear, select, type BrushBehavior, type D3BrushEvent } from 'd3';
import { eventWindow } from '@shared/chart/event-axis';
import { layoutTimeline } from '@shared/chart/timeline-layout';
import type { CanvasSize } from '../canvas/canvas-host';
import { drawOverview } from './timeline-draw';
import { layoutColumns, TIMELINE_MARGIN, type TimelineData } from './timeline-plot';
import type { TimelineTheme } from './timeline-theme';
import type { TimelineWindow } from './timeline-window';

export interface TimelineOverviewElements {
  /** The strip; its height sets the overview's. */
  overview: HTMLElement;
  canvas: HTMLCanvasElement;
  brush: SVGSVGElement;
}

export class TimelineOverview {
  private readonly elements: TimelineOverviewElements;
  private readonly window: TimelineWindow;
  private readonly brush: BrushBehavior<unknown>;
  private scale = scaleLinear();
  private width = 0;

  constructor(elements: TimelineOverviewElements, window: TimelineWindow) {
    this.elements = elements;
    this.window = window;
    this.brush = brushX<unknown>().on('brush end', (event: D3BrushEvent<unknown>) =>
      this.onBrush(event),
    );
    select(elements.brush).append('g').attr('class', 'tl-brush');
  }

  destroy(): void {
    this.brush.on('brush end', null);
    select(this.elements.brush).selectAll('*').remove();
  }

  /** Draws the whole trace into the overview's canvas and fits the brush to it. */
  draw(
    context: CanvasRenderingContext2D,
    size: CanvasSize,
    data: TimelineData,
    theme: TimelineTheme,
  ): void {
    const { axis, device } = data;
    if (size.width > 0 && size.height > 0) {
      const all = eventWindow(axis, axis.minX, axis.maxX, layoutColumns(size));
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
      drawOverview(context, size, whole, (bytes) => y(bytes), theme);
    }
    this.width = size.width;
    this.scale = scaleLinear().domain([axis.minX, axis.maxX]).range([0, size.width]);
    const brushGroup = select(this.elements.brush)
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

  /** Shows the window's current domain on the brush. */
  moveBrush(): void {
    if (this.width <= 0) return;
    const group = select(this.elements.brush).select<SVGGElement>('g.tl-brush');
    if (group.empty()) return;
    if (this.window.isFull()) {
      // Showing everything: no selection, so a drag anywhere on the strip draws a new one.
      group.call(this.brush.move, null);
      return;
    }
    const { x0: domainX0, x1: domainX1 } = this.window.domain;
    const x0 = this.scale(domainX0);
    const x1 = Math.max(x0 + 1, this.scale(domainX1));
    group.call(this.brush.move, [x0, x1]);
  }

  private onBrush(event: D3BrushEvent<unknown>): void {
    // Programmatic moves (from zooming the main chart) carry no source event.
    if (!event.sourceEvent || this.width <= 0) return;
    const selection = event.selection as [number, number] | null;
    if (selection !== null) {
      const x0 = this.scale.invert(selection[0]);
      const x1 = this.scale.invert(selection[1]);
      if (x1 > x0) this.window.set({ x0, x1 });
      return;
    }
    if (event.type === 'end') {
      // A click without a drag recentres the current window there.
      const group = select(this.elements.brush).select<SVGGElement>('g.tl-brush').node();
      if (group === null) return;
      const [px] = pointer(event.sourceEvent, group);
      const centre = this.scale.invert(px);
      const { x0, x1 } = this.window.domain;
      const half = (x1 - x0) / 2;
      this.window.set({ x0: centre - half, x1: centre + half });
      this.moveBrush();
    }
  }
}
