// The timeline's visible window on its x axis: every way of moving it (wheel, drag, keys, the
// overview brush, the zoom buttons, another device or axis) goes through here, and the rules of
// viewport.ts (never leave the data, never zoom past the smallest span) hold for all of them.

import type { EventAxis, XMode } from '@shared/chart/event-axis';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import {
  clampDomain,
  domainsEqual,
  panBy,
  zoomAround,
  type XBounds,
  type XDomain,
} from './viewport';

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

export class TimelineWindow {
  private axis: EventAxis | null = null;
  private device: AnalyzedDevice | null = null;
  private current: XDomain = { x0: 0, x1: 1 };
  /** Called after the window moved by set() (and its helpers). */
  private readonly onChange: () => void;

  constructor(onChange: () => void) {
    this.onChange = onChange;
  }

  get domain(): XDomain {
    return this.current;
  }

  bounds(): XBounds {
    const axis = this.axis;
    if (axis === null) return { min: 0, max: 1, minSpan: 1 };
    return { min: axis.minX, max: axis.maxX, minSpan: axis.minSpan };
  }

  /**
   * Another device or axis. The same device on the other axis keeps the same events in view;
   * another device shows all of it. Returns true when the device changed. Does not call onChange:
   * the caller reports the new window with the rest of the new data.
   */
  setAxis(device: AnalyzedDevice, axis: EventAxis): boolean {
    const previous = this.axis;
    const sameDevice = this.device === device;
    this.axis = axis;
    this.device = device;
    const bounds = this.bounds();
    if (previous !== null && sameDevice && previous.mode !== axis.mode) {
      const startEvent = previous.toEvent(this.current.x0);
      const endEvent = previous.toEvent(this.current.x1);
      this.current = clampDomain({ x0: axis.toX(startEvent), x1: axis.toX(endEvent) }, bounds);
    } else if (previous === null || !sameDevice) {
      this.current = { x0: bounds.min, x1: bounds.max };
    } else {
      this.current = clampDomain(this.current, bounds);
    }
    return previous !== null && !sameDevice;
  }

  set(domain: XDomain): void {
    const next = clampDomain(domain, this.bounds());
    if (domainsEqual(next, this.current)) return;
    this.current = next;
    this.onChange();
  }

  /** Zooms about `anchor` (x units; default the centre of the view); factor > 1 zooms in. */
  zoomBy(factor: number, anchor = (this.current.x0 + this.current.x1) / 2): void {
    this.set(zoomAround(this.current, anchor, factor, this.bounds()));
  }

  /** Pans by a fraction of the visible span (positive: later). */
  panByFraction(fraction: number): void {
    this.set(panBy(this.current, fraction * (this.current.x1 - this.current.x0), this.bounds()));
  }

  /** Pans the least that brings x into view (a tenth of the span inside it), keeping the zoom. */
  reveal(x: number): void {
    const { x0, x1 } = this.current;
    if (x >= x0 && x <= x1) return;
    const margin = (x1 - x0) / 10;
    this.set(panBy(this.current, x < x0 ? x - x0 - margin : x - x1 + margin, this.bounds()));
  }

  reset(): void {
    const bounds = this.bounds();
    this.set({ x0: bounds.min, x1: bounds.max });
  }

  isFull(): boolean {
    const bounds = this.bounds();
    return this.current.x0 <= bounds.min && this.current.x1 >= bounds.max;
  }

  info(): TimelineDomainInfo | null {
    const axis = this.axis;
    if (axis === null) return null;
    const bounds = this.bounds();
    const { x0, x1 } = this.current;
    // At the ends, the ends of the trace (several events may share the first time stamp).
    const startEvent = x0 <= bounds.min ? axis.minEvent : axis.toEvent(x0);
    const endEvent = x1 >= bounds.max ? axis.maxEvent : axis.toEvent(x1);
    return { mode: axis.mode, x0, x1, startEvent, endEvent, full: this.isFull() };
  }
}
