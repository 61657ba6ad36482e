// The timeline's input: the pointer over the plot (hover, click, drag to pan), the wheel (zoom
// about the pointer, pan with Shift or a horizontal scroll) and the timeline's keyboard shortcuts
// wherever the page has the focus (the 'chart' scope of state/keyboard-shortcuts.ts: + - W S
// zoom, A D and Ctrl+← → pan, 0 shows everything, Esc clears the selection). The arrows alone
// step the selected moment (the page's keys), never the view. Moves go to the TimelineWindow;
// what a click hits is the chart's to decide.

import type { ChartListeners } from '../canvas/canvas-host';
import { acceptsShortcut, commandOf } from '../state/keyboard-shortcuts';
import type { PlotPoint } from './timeline-hit';
import type { TimelineWindow } from './timeline-window';
import { panBy, wheelZoomFactor, type XDomain } from './viewport';

const DRAG_THRESHOLD_PX = 3;
const KEY_ZOOM_FACTOR = 1.5;
const KEY_PAN_FRACTION = 0.15;

export interface TimelineInputTarget {
  readonly window: TimelineWindow;
  /** Whether there is data to move about in. */
  hasData(): boolean;
  /** The plot's width in CSS pixels. */
  plotWidth(): number;
  /** x units at a pixel column of the plot as last laid out; null before the first layout. */
  xAtPixel(x: number): number | null;
  /** The pointer moved, left, or started or ended a drag: the hover needs updating. */
  pointerChanged(): void;
  /** A drag began: the tooltip goes. */
  dragStarted(): void;
  /** A click without a drag. */
  click(point: PlotPoint): void;
  /** Esc: clears the selection; false when there was none (the key is not used then). */
  clearSelection(): boolean;
}

interface DragState {
  pointerId: number;
  startX: number;
  startDomain: XDomain;
  moved: boolean;
}

export class TimelineInput {
  private readonly canvas: HTMLCanvasElement;
  private readonly root: HTMLElement;
  private readonly target: TimelineInputTarget;
  private drag: DragState | null = null;
  private position: PlotPoint | null = null;

  constructor(
    listeners: ChartListeners,
    elements: { root: HTMLElement; canvas: HTMLCanvasElement },
    target: TimelineInputTarget,
  ) {
    this.canvas = elements.canvas;
    this.root = elements.root;
    this.target = target;
    const canvas = elements.canvas;
    listeners.listen(canvas, 'pointerdown', (event) => this.onPointerDown(event));
    listeners.listen(canvas, 'pointermove', (event) => this.onPointerMove(event));
    listeners.listen(canvas, 'pointerup', (event) => this.onPointerUp(event));
    listeners.listen(canvas, 'pointercancel', () => this.endDrag());
    listeners.listen(canvas, 'pointerleave', () => this.onPointerLeave());
    listeners.listen(canvas, 'wheel', (event) => this.onWheel(event), { passive: false });
    // On the document, not the chart: the keys work wherever the focus is (text fields aside).
    const page = elements.root.ownerDocument.documentElement;
    listeners.listen(page, 'keydown', (event) => this.onKeyDown(event));
  }

  /** The pointer over the plot, unless it is dragging the view (no hover, no crosshair then). */
  hoverPoint(): PlotPoint | null {
    return this.drag?.moved === true ? null : this.position;
  }

  /** Whether the pointer is over the plot and no button is down (the hover follows relayouts). */
  hoveringIdle(): boolean {
    return this.position !== null && this.drag === null;
  }

  private canvasPoint(event: MouseEvent): PlotPoint {
    const rect = this.canvasRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  /** The canvas's box, read once a frame: a wheel sends several events a frame, and each read
   *  after the page changed would lay the page out again. */
  private canvasRect(): DOMRect {
    if (this.rect === null) {
      this.rect = this.canvas.getBoundingClientRect();
      requestAnimationFrame(() => (this.rect = null));
    }
    return this.rect;
  }

  private rect: DOMRect | null = null;

  private onPointerDown(event: PointerEvent): void {
    if (event.button !== 0 || !this.target.hasData()) return;
    const point = this.canvasPoint(event);
    this.drag = {
      pointerId: event.pointerId,
      startX: point.x,
      startDomain: { ...this.target.window.domain },
      moved: false,
    };
    this.canvas.setPointerCapture(event.pointerId);
    // The chart takes the focus from whatever had it (a select would keep the arrows), without
    // the focus ring a click should not show.
    const focusOptions: FocusOptions & { focusVisible?: boolean } = {
      preventScroll: true,
      focusVisible: false,
    };
    this.root.focus(focusOptions);
    event.preventDefault();
  }

  private onPointerMove(event: PointerEvent): void {
    const point = this.canvasPoint(event);
    const drag = this.drag;
    if (drag !== null && drag.pointerId === event.pointerId) {
      const dx = point.x - drag.startX;
      if (!drag.moved && Math.abs(dx) >= DRAG_THRESHOLD_PX) {
        drag.moved = true;
        this.canvas.style.cursor = 'grabbing';
        this.target.dragStarted();
      }
      if (drag.moved) {
        const window = this.target.window;
        const span = drag.startDomain.x1 - drag.startDomain.x0;
        const delta = (-dx * span) / Math.max(1, this.target.plotWidth());
        window.set(panBy(drag.startDomain, delta, window.bounds()));
      }
    }
    this.position = point;
    this.target.pointerChanged();
  }

  private onPointerUp(event: PointerEvent): void {
    const drag = this.drag;
    if (drag === null || drag.pointerId !== event.pointerId) return;
    this.endDrag();
    if (!drag.moved) this.target.click(this.canvasPoint(event));
    this.position = this.canvasPoint(event);
    this.target.pointerChanged();
  }

  private endDrag(): void {
    const drag = this.drag;
    this.drag = null;
    if (drag !== null && this.canvas.hasPointerCapture(drag.pointerId))
      this.canvas.releasePointerCapture(drag.pointerId);
    this.canvas.style.cursor = '';
  }

  private onPointerLeave(): void {
    if (this.drag !== null) return;
    this.position = null;
    this.target.pointerChanged();
  }

  private onWheel(event: WheelEvent): void {
    const width = this.target.plotWidth();
    if (!this.target.hasData() || width <= 0) return;
    event.preventDefault();
    const window = this.target.window;
    const { x0, x1 } = window.domain;
    const point = this.canvasPoint(event);
    const horizontal = Math.abs(event.deltaX) > Math.abs(event.deltaY);
    if (horizontal || event.shiftKey) {
      const delta = horizontal ? event.deltaX : event.deltaY;
      window.set(panBy(window.domain, (delta * (x1 - x0)) / width, window.bounds()));
      return;
    }
    const factor = wheelZoomFactor(event.deltaY, event.deltaMode, event.ctrlKey);
    const anchor = this.target.xAtPixel(Math.max(0, Math.min(width, point.x)));
    if (anchor !== null) window.zoomBy(factor, anchor);
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (!this.target.hasData() || !acceptsShortcut(event)) return;
    const window = this.target.window;
    switch (commandOf(event, 'chart')) {
      case 'zoom-in':
        window.zoomBy(KEY_ZOOM_FACTOR);
        break;
      case 'zoom-out':
        window.zoomBy(1 / KEY_ZOOM_FACTOR);
        break;
      case 'pan-earlier':
        window.panByFraction(-KEY_PAN_FRACTION);
        break;
      case 'pan-later':
        window.panByFraction(KEY_PAN_FRACTION);
        break;
      case 'zoom-reset':
        window.reset();
        break;
      case 'escape':
        // The selection first; without one, back to the whole trace.
        if (this.target.clearSelection()) break;
        if (window.isFull()) return;
        window.reset();
        break;
      default:
        return;
    }
    event.preventDefault();
  }
}
