// The segments view as an imperative canvas chart: one bar per segment (width ∝ bytes, see
// segments-layout.ts), its blocks coloured by state. The picture can be far taller than the view,
// so the canvas stays put (sticky) at the size of the view and draws only the rows scrolled into
// it; group headers are DOM (segments-view.tsx) laid out from the same layout. This class gives
// the canvas host (../canvas/canvas-host.ts) its two layers and handles the input; geometry is in
// segments-scene.ts and segments-blocks.ts, drawing in segments-draw.ts.

import type { AllocatorState } from '@shared/state/allocator-state';
import { CanvasHost, type CanvasSize, type LayerBox } from '../canvas/canvas-host';
import type { SegmentGroup } from './segment-groups';
import { blockAtPoint, describePieces, pointOfLargestBlock, rectsOfBlock } from './segments-blocks';
import { drawSegments, drawSegmentsOverlay } from './segments-draw';
import type { SegmentsLayout } from '@shared/chart/segments-layout';
import {
  DEFAULT_SEGMENTS_SCALE,
  layoutScene,
  SEGMENTS_PADDING,
  type SegmentsScale,
  type SegmentsScene,
} from '@shared/chart/segments-scene';
import { segmentsTheme, type SegmentsTheme } from './segments-theme';

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

type Layer = 'plot' | 'overlay';

export class SegmentsChart {
  private readonly elements: SegmentsChartElements;
  private readonly callbacks: SegmentsChartCallbacks;
  private readonly host: CanvasHost<SegmentsTheme, Layer>;
  private state: AllocatorState | null = null;
  private groups: SegmentGroup[] = [];
  /** Laid out at the last frame that needed it (the state may have moved on since). */
  private layout: SegmentsLayout | null = null;
  /** Layout segment index -> index in state.segments. */
  private order: number[] = [];
  private largestFreeBlock = -1;
  private layoutNeeded = true;
  private scaleMode: SegmentsScale = DEFAULT_SEGMENTS_SCALE;
  private hoverBlock: number | null = null;
  private selectedBlock: number | null = null;
  private drawCount = 0;

  constructor(elements: SegmentsChartElements, callbacks: SegmentsChartCallbacks) {
    this.elements = elements;
    this.callbacks = callbacks;
    const host = new CanvasHost<SegmentsTheme, Layer>({
      observe: [elements.scroll],
      layers: {
        plot: {
          canvas: elements.canvas,
          draw: (context, size, theme) => this.draw(context, size, theme),
        },
        overlay: {
          canvas: elements.overlay,
          draw: (context, _size, theme) => this.drawOverlay(context, theme),
        },
      },
      measure: () => this.measure(),
      theme: segmentsTheme,
      ready: () => {
        const size = this.host.size('plot');
        return this.state !== null && size.width > 0 && size.height > 0;
      },
      resized: () => {
        this.layoutNeeded = true;
      },
      prepare: () => {
        if (!this.layoutNeeded) return;
        this.layoutNeeded = false;
        this.relayout(this.state!);
      },
    });
    this.host = host;
    host.listen(elements.scroll, 'scroll', () => {
      host.invalidate('plot', 'overlay');
      this.hover(null);
    });
    host.listen(elements.scroll, 'pointermove', (event) => this.hover(this.blockAt(event)));
    host.listen(elements.scroll, 'pointerleave', () => this.hover(null));
    host.listen(elements.scroll, 'click', (event) => this.onClick(event));
  }

  destroy(): void {
    this.host.destroy();
  }

  setState(state: AllocatorState, groups: SegmentGroup[]): void {
    if (state === this.state && groups === this.groups) return;
    this.state = state;
    this.groups = groups;
    this.hoverBlock = null;
    this.invalidateLayout();
  }

  setScale(mode: SegmentsScale): void {
    if (mode === this.scaleMode) return;
    this.scaleMode = mode;
    this.elements.scroll.scrollTop = 0;
    this.invalidateLayout();
  }

  setSelectedBlock(block: number | null): void {
    if (block === this.selectedBlock) return;
    this.selectedBlock = block;
    this.host.invalidate('overlay');
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
    return {
      state: this.state,
      layout: this.layout,
      order: this.order,
      largestFreeBlock: this.largestFreeBlock,
    };
  }

  private invalidateLayout(): void {
    this.layoutNeeded = true;
    this.host.invalidate('plot', 'overlay');
  }

  // ---- frames ----------------------------------------------------------------------------------

  /** Both canvases fill the scroll box's visible area (they stay put while it scrolls). */
  private measure(): Record<Layer, LayerBox> {
    const scroll = this.elements.scroll;
    const box = { width: scroll.clientWidth, height: scroll.clientHeight };
    return { plot: box, overlay: box };
  }

  private relayout(state: AllocatorState): void {
    const size = this.host.size('plot');
    const { layout, order, largestFreeBlock } = layoutScene(
      state,
      this.groups,
      this.scaleMode,
      size.width,
      size.height,
    );
    this.layout = layout;
    this.order = order;
    this.largestFreeBlock = largestFreeBlock;
    const root = this.elements.root;
    root.dataset['scale'] = this.scaleMode;
    // The box this picture is laid out for: the export lays the same one out (segments-box.ts).
    root.dataset['boxWidth'] = String(size.width);
    root.dataset['boxHeight'] = String(size.height);
    this.callbacks.onLayout(layout, { left: SEGMENTS_PADDING.left, top: SEGMENTS_PADDING.top });
  }

  // ---- drawing ---------------------------------------------------------------------------------

  private draw(context: CanvasRenderingContext2D, size: CanvasSize, theme: SegmentsTheme): void {
    const scene = this.scene();
    if (scene === null) return;
    const { firstRow, endRow, offsetY } = drawSegments(
      context,
      scene,
      theme,
      size,
      this.elements.scroll.scrollTop,
    );
    this.drawCount++;
    const root = this.elements.root;
    root.dataset['drawn'] = String(this.drawCount);
    // What the tests compare with the exported picture: the bars drawn, in order.
    root.dataset['scenePieces'] = describePieces(scene, firstRow, endRow);
    const point = pointOfLargestBlock(scene, firstRow, endRow, offsetY, size.height);
    if (point === null) delete root.dataset['blockPoint'];
    else root.dataset['blockPoint'] = `${point.x},${point.y}`;
  }

  private drawOverlay(context: CanvasRenderingContext2D, theme: SegmentsTheme): void {
    const scene = this.scene();
    if (scene === null) return;
    drawSegmentsOverlay(
      context,
      scene,
      theme,
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
      this.host.invalidate('overlay');
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
