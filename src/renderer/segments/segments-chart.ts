// The segments view as an imperative canvas chart: one bar per segment (width ∝ bytes, see
// segments-layout.ts), its blocks coloured by state. The picture can be far taller than the view,
// so the canvas stays put (sticky) at the size of the view and draws only the rows scrolled into
// it; group headers are DOM (views/segments-view.tsx) laid out from the same layout. This class
// owns the frames and the input; geometry is in segments-scene.ts and segments-blocks.ts,
// drawing in segments-draw.ts.

import type { AllocatorState } from '@shared/state/allocator-state';
import { ChartListeners } from '../canvas/chart-listeners';
import type { SegmentGroup } from './segment-groups';
import { blockAtPoint, pointOfLargestBlock, rectsOfBlock } from './segments-blocks';
import { drawSegments, drawSegmentsOverlay } from './segments-draw';
import type { SegmentsLayout } from './segments-layout';
import {
  layoutScene,
  SEGMENTS_PADDING,
  type SegmentsScale,
  type SegmentsScene,
} from './segments-scene';
import { readSegmentsTheme, type SegmentsTheme } from './segments-theme';
import { prepareCanvas, type PlotSize } from '../timeline/timeline-draw';

export interface SegmentsChartElements {
  /** Carries data-* attributes for tests. */
  root: HTMLElement;
  /** The scrolling box; its size is the view's. */
  scroll: HTMLElement;
  canvas: HTMLCanvasElement;
  overlay: HTMLCanvasElement;
}

export interface SegmentsHover {
  /** Block row of the state, and its segment's index in state.segments. */
  block: number;
  segment: number;
  /** Pointer in CSS pixels relative to the scroll box's visible area. */
  x: number;
  y: number;
}

export interface SegmentsChartCallbacks {
  onHover(hover: SegmentsHover | null): void;
  /** A click on a block (null: between bars). */
  onPick(block: number | null): void;
  /** The layout changed: headers follow it. */
  onLayout(layout: SegmentsLayout, padding: { left: number; top: number }): void;
}

export class SegmentsChart {
  private readonly elements: SegmentsChartElements;
  private readonly callbacks: SegmentsChartCallbacks;
  private state: AllocatorState | null = null;
  private groups: SegmentGroup[] = [];
  /** Laid out at the last frame that needed it (the state may have moved on since). */
  private layout: SegmentsLayout | null = null;
  /** Layout segment index -> index in state.segments. */
  private order: number[] = [];
  private size: PlotSize = { width: 0, height: 0, devicePixelRatio: 1 };
  private theme: SegmentsTheme;
  private scaleMode: SegmentsScale = 'detail';
  private hoverBlock: number | null = null;
  private selectedBlock: number | null = null;
  private frameRequest = 0;
  private needs = { measure: true, layout: true, draw: true, overlay: true };
  private drawCount = 0;
  private readonly listeners = new ChartListeners();

  constructor(elements: SegmentsChartElements, callbacks: SegmentsChartCallbacks) {
    this.elements = elements;
    this.callbacks = callbacks;
    this.theme = readSegmentsTheme(elements.root);
    const listeners = this.listeners;
    listeners.onResize(elements.scroll, () => this.invalidate('measure'));
    listeners.onColorSchemeChange(() => {
      this.theme = readSegmentsTheme(this.elements.root);
      this.invalidate('draw');
    });
    listeners.on(elements.scroll, 'scroll', () => {
      this.invalidate('draw');
      this.hover(null);
    });
    listeners.on(elements.scroll, 'pointermove', (event) => this.hover(this.blockAt(event)));
    listeners.on(elements.scroll, 'pointerleave', () => this.hover(null));
    listeners.on(elements.scroll, 'click', (event) => this.onClick(event));
  }

  destroy(): void {
    if (this.frameRequest !== 0) cancelAnimationFrame(this.frameRequest);
    this.frameRequest = 0;
    this.listeners.releaseAll();
  }

  setState(state: AllocatorState, groups: SegmentGroup[]): void {
    if (state === this.state && groups === this.groups) return;
    this.state = state;
    this.groups = groups;
    this.hoverBlock = null;
    this.invalidate('layout');
  }

  setScale(mode: SegmentsScale): void {
    if (mode === this.scaleMode) return;
    this.scaleMode = mode;
    this.elements.scroll.scrollTop = 0;
    this.invalidate('layout');
  }

  setSelectedBlock(block: number | null): void {
    if (block === this.selectedBlock) return;
    this.selectedBlock = block;
    this.invalidate('overlay');
  }

  /** Scrolls so a block is in view (keyboard or a selection made elsewhere). */
  revealBlock(block: number): void {
    const scene = this.scene();
    const rect = scene === null ? undefined : rectsOfBlock(scene, block)[0];
    if (rect === undefined) return;
    const scroll = this.elements.scroll;
    const top = rect.y + SEGMENTS_PADDING.top;
    const height = this.layout?.rowHeight ?? 0;
    if (top < scroll.scrollTop || top + height > scroll.scrollTop + scroll.clientHeight) {
      scroll.scrollTop = Math.max(0, top - scroll.clientHeight / 3);
    }
  }

  /** The current state with the last layout; null before both exist. */
  private scene(): SegmentsScene | null {
    if (this.state === null || this.layout === null) return null;
    return { state: this.state, layout: this.layout, order: this.order };
  }

  // ---- frames ----------------------------------------------------------------------------------

  private invalidate(what: keyof SegmentsChart['needs']): void {
    this.needs[what] = true;
    if (this.frameRequest === 0) this.frameRequest = requestAnimationFrame(() => this.frame());
  }

  private frame(): void {
    this.frameRequest = 0;
    const needs = this.needs;
    this.needs = { measure: false, layout: false, draw: false, overlay: false };
    if (needs.measure && this.measure()) needs.layout = true;
    if (this.state === null || this.size.width <= 0 || this.size.height <= 0) {
      this.needs = { ...needs, measure: false };
      return;
    }
    if (needs.layout) {
      this.relayout(this.state);
      needs.draw = true;
    }
    if (needs.draw) this.draw();
    if (needs.draw || needs.overlay) this.drawOverlay();
  }

  private measure(): boolean {
    const scroll = this.elements.scroll;
    const devicePixelRatio = window.devicePixelRatio || 1;
    const width = scroll.clientWidth;
    const height = scroll.clientHeight;
    const changed =
      width !== this.size.width ||
      height !== this.size.height ||
      devicePixelRatio !== this.size.devicePixelRatio;
    this.size = { width, height, devicePixelRatio };
    for (const canvas of [this.elements.canvas, this.elements.overlay]) {
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
    }
    return changed;
  }

  private relayout(state: AllocatorState): void {
    const { layout, order } = layoutScene(
      state,
      this.groups,
      this.scaleMode,
      this.size.width,
      this.size.height,
    );
    this.layout = layout;
    this.order = order;
    this.elements.root.dataset['scale'] = this.scaleMode;
    this.callbacks.onLayout(layout, { left: SEGMENTS_PADDING.left, top: SEGMENTS_PADDING.top });
  }

  // ---- drawing ---------------------------------------------------------------------------------

  private draw(): void {
    const context = prepareCanvas(this.elements.canvas, this.size);
    const scene = this.scene();
    if (context === null || scene === null) return;
    const { firstRow, endRow, offsetY } = drawSegments(
      context,
      scene,
      this.theme,
      this.size,
      this.elements.scroll.scrollTop,
    );
    this.drawCount++;
    const root = this.elements.root;
    root.dataset['drawn'] = String(this.drawCount);
    const point = pointOfLargestBlock(scene, firstRow, endRow, offsetY, this.size.height);
    if (point === null) delete root.dataset['blockPoint'];
    else root.dataset['blockPoint'] = `${point.x},${point.y}`;
  }

  private drawOverlay(): void {
    const context = prepareCanvas(this.elements.overlay, this.size);
    const scene = this.scene();
    if (context === null || scene === null) return;
    drawSegmentsOverlay(
      context,
      scene,
      this.theme,
      this.elements.scroll.scrollTop,
      this.hoverBlock,
      this.selectedBlock,
    );
    const root = this.elements.root;
    if (this.selectedBlock === null) delete root.dataset['selectedBlock'];
    else root.dataset['selectedBlock'] = String(this.selectedBlock);
  }

  // ---- input -----------------------------------------------------------------------------------

  /** The block under a pointer, with the pointer's position in the visible area. */
  private blockAt(event: MouseEvent): SegmentsHover | null {
    const scene = this.scene();
    if (scene === null) return null;
    const scroll = this.elements.scroll;
    const rect = scroll.getBoundingClientRect();
    const x = event.clientX - rect.left - scroll.clientLeft;
    const y = event.clientY - rect.top - scroll.clientTop;
    const hit = blockAtPoint(
      scene,
      x - SEGMENTS_PADDING.left,
      y + scroll.scrollTop - SEGMENTS_PADDING.top,
    );
    return hit === null ? null : { ...hit, x, y };
  }

  private hover(hover: SegmentsHover | null): void {
    const block = hover?.block ?? null;
    if (block !== this.hoverBlock) {
      this.hoverBlock = block;
      this.invalidate('overlay');
    }
    this.elements.scroll.style.cursor = block === null ? '' : 'pointer';
    this.callbacks.onHover(hover);
  }

  private onClick(event: MouseEvent): void {
    if (event.button !== 0) return;
    const hit = this.blockAt(event);
    this.callbacks.onPick(hit?.block ?? null);
  }
}
