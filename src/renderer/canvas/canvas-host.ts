// The host under every canvas chart (timeline, segments, fragmentation), owning what each chart
// would otherwise repeat:
// - size: the chart's boxes are observed (ResizeObserver) and the device pixel ratio watched;
//   each layer's canvas is placed, sized in CSS pixels and its backing store sized for the ratio;
// - frames: invalidate() marks layers and one requestAnimationFrame draws each marked layer once,
//   however many changes came in between (anything marked while drawing lands in the next frame);
// - theme: the chart's colours are built from the palette once per theme change, and every layer
//   drawn again.
// A chart supplies its layers' draw(context, size, theme), its measure and its input; listeners
// it adds through listen() are released with the host.

import { palette, type Palette } from '@shared/render/palette';
import { currentThemeName, onThemeNameChange } from './color-scheme';
import { onDevicePixelRatioChange } from './device-pixel-ratio';

export interface CanvasSize {
  /** CSS pixels. */
  width: number;
  height: number;
  devicePixelRatio: number;
}

/** Where a layer's canvas sits in its positioned parent (when given) and its size, CSS pixels. */
export interface LayerBox {
  left?: number;
  top?: number;
  width: number;
  height: number;
}

export interface CanvasLayer<Theme> {
  canvas: HTMLCanvasElement;
  /** Draws the whole layer: the context is scaled to CSS pixels and cleared. */
  draw(context: CanvasRenderingContext2D, size: CanvasSize, theme: Theme): void;
}

export interface CanvasChartSpec<Theme, Layer extends string> {
  /** The elements whose size sets the layers': a resize measures again. */
  observe: readonly Element[];
  /** The layers, drawn in this order when marked for the same frame. */
  layers: Record<Layer, CanvasLayer<Theme>>;
  /** Each layer's box, read from the observed elements. */
  measure(): Record<Layer, LayerBox>;
  /** The chart's colours: built at start and once per theme change. */
  theme(palette: Palette): Theme;
  /** False while there is nothing to draw (no data, no room): marked layers wait for it. */
  ready(): boolean;
  /** Some layer's size changed (every layer is then drawn again). */
  resized?(): void;
  /** Before the marked layers draw: brings what they read (layout, hover) up to date. */
  prepare?(): void;
}

/** Adds input listeners that go when the chart does (the host implements it). */
export interface ChartListeners {
  listen<K extends keyof HTMLElementEventMap>(
    target: HTMLElement,
    type: K,
    handler: (event: HTMLElementEventMap[K]) => void,
    options?: AddEventListenerOptions,
  ): void;
}

const EMPTY_SIZE: CanvasSize = { width: 0, height: 0, devicePixelRatio: 1 };

export class CanvasHost<Theme, Layer extends string> implements ChartListeners {
  private readonly spec: CanvasChartSpec<Theme, Layer>;
  private readonly order: Layer[];
  private readonly sizes = new Map<Layer, CanvasSize>();
  private currentTheme: Theme;
  private marked = new Set<Layer>();
  private measureNeeded = true;
  private frameRequest = 0;
  private readonly cleanups: (() => void)[] = [];

  constructor(spec: CanvasChartSpec<Theme, Layer>) {
    this.spec = spec;
    this.order = Object.keys(spec.layers) as Layer[];
    this.currentTheme = spec.theme(palette(currentThemeName()));
    const observer = new ResizeObserver(() => this.remeasure());
    for (const element of spec.observe) observer.observe(element);
    this.cleanups.push(() => observer.disconnect());
    this.cleanups.push(onDevicePixelRatioChange(() => this.remeasure()));
    this.cleanups.push(
      onThemeNameChange((name) => {
        this.currentTheme = spec.theme(palette(name));
        this.invalidate(...this.order);
      }),
    );
    this.invalidate(...this.order);
  }

  /** The chart's colours for the current theme. */
  get theme(): Theme {
    return this.currentTheme;
  }

  /** A layer's size at the last measure. */
  size(layer: Layer): CanvasSize {
    return this.sizes.get(layer) ?? EMPTY_SIZE;
  }

  /** Marks layers to draw on the next animation frame. */
  invalidate(...layers: Layer[]): void {
    for (const layer of layers) this.marked.add(layer);
    this.schedule();
  }

  /** Adds an input listener, removed when the host is destroyed. */
  listen<K extends keyof HTMLElementEventMap>(
    target: HTMLElement,
    type: K,
    handler: (event: HTMLElementEventMap[K]) => void,
    options?: AddEventListenerOptions,
  ): void {
    target.addEventListener(type, handler, options);
    this.cleanups.push(() => target.removeEventListener(type, handler, options));
  }

  destroy(): void {
    if (this.frameRequest !== 0) cancelAnimationFrame(this.frameRequest);
    this.frameRequest = 0;
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }

  private remeasure(): void {
    this.measureNeeded = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.frameRequest === 0) this.frameRequest = requestAnimationFrame(() => this.frame());
  }

  private frame(): void {
    this.frameRequest = 0;
    // Taken whole, so anything marked while drawing lands in the next frame.
    const marked = this.marked;
    this.marked = new Set();
    if (this.measureNeeded) {
      this.measureNeeded = false;
      if (this.measure()) {
        for (const layer of this.order) marked.add(layer);
        this.spec.resized?.();
      }
    }
    if (!this.spec.ready()) {
      // Nothing to draw into yet: keep the work for when there is.
      for (const layer of marked) this.marked.add(layer);
      return;
    }
    if (marked.size === 0) return;
    this.spec.prepare?.();
    for (const layer of this.order) {
      if (marked.has(layer)) this.draw(layer);
    }
  }

  /** Places and sizes every layer's canvas; true when some layer's size changed. */
  private measure(): boolean {
    const devicePixelRatio = window.devicePixelRatio || 1;
    const boxes = this.spec.measure();
    let changed = false;
    for (const layer of this.order) {
      const box = boxes[layer];
      const previous = this.size(layer);
      if (
        box.width !== previous.width ||
        box.height !== previous.height ||
        devicePixelRatio !== previous.devicePixelRatio
      ) {
        changed = true;
      }
      this.sizes.set(layer, { width: box.width, height: box.height, devicePixelRatio });
      const style = this.spec.layers[layer].canvas.style;
      if (box.left !== undefined) style.left = `${box.left}px`;
      if (box.top !== undefined) style.top = `${box.top}px`;
      style.width = `${box.width}px`;
      style.height = `${box.height}px`;
    }
    return changed;
  }

  private draw(layer: Layer): void {
    const size = this.size(layer);
    const context = prepareCanvas(this.spec.layers[layer].canvas, size);
    if (context !== null) this.spec.layers[layer].draw(context, size, this.currentTheme);
  }
}

/** Sizes the canvas backing store for the device pixel ratio; returns its context in CSS pixels. */
export function prepareCanvas(
  canvas: HTMLCanvasElement,
  size: CanvasSize,
): CanvasRenderingContext2D | null {
  const width = Math.max(1, Math.round(size.width * size.devicePixelRatio));
  const height = Math.max(1, Math.round(size.height * size.devicePixelRatio));
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const context = canvas.getContext('2d');
  if (context === null) return null;
  context.setTransform(size.devicePixelRatio, 0, 0, size.devicePixelRatio, 0, 0);
  context.clearRect(0, 0, size.width, size.height);
  return context;
}
