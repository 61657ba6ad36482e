// The segments view as an imperative canvas chart: one bar per segment (width ∝ bytes, see
// segments-layout.ts), its blocks coloured by state. The picture can be far taller than the view,
// so the canvas stays put (sticky) at the size of the view and draws only the rows scrolled into
// it; group headers are DOM (views/segments-view.tsx) laid out from the same layout.

import { BlockKind, type AllocatorState } from '@shared/state/allocator-state';
import type { SegmentGroup } from './segment-groups';
import {
  blockAtAddress,
  DEFAULT_LAYOUT_OPTIONS,
  hitTestSegments,
  layoutSegments,
  rectsOfRange,
  rowsBetween,
  type LayoutSegment,
  type SegmentsLayout,
} from './segments-layout';
import { prepareCanvas, type PlotSize } from './timeline-draw';

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

/**
 * 'fit': the whole picture in the view (thin segments drawn a pixel wide); 'detail': small
 * segments and blocks get room, and the picture may scroll.
 */
export type SegmentsScale = 'fit' | 'detail';

export interface SegmentsTheme {
  allocated: string;
  pendingFree: string;
  free: string;
  outline: string;
  expandable: string;
  hover: string;
  selection: string;
  selectionHalo: string;
}

/** Room around the picture inside the scroll box. */
export const SEGMENTS_PADDING = { left: 12, right: 12, top: 6 } as const;

export function readSegmentsTheme(element: Element): SegmentsTheme {
  const style = getComputedStyle(element);
  const v = (name: string, fallback: string): string => {
    const value = style.getPropertyValue(name).trim();
    return value === '' ? fallback : value;
  };
  return {
    allocated: v('--seg-allocated', '#5b84d6'),
    pendingFree: v('--seg-pending-free', '#e0a23a'),
    free: v('--seg-free', '#dde2ea'),
    outline: v('--seg-outline', 'rgb(28 34 48 / 45%)'),
    expandable: v('--seg-expandable', '#7b61c9'),
    hover: v('--seg-hover', 'rgb(17 24 39 / 80%)'),
    selection: v('--seg-selection', '#111827'),
    selectionHalo: v('--seg-selection-halo', '#ffffff'),
  };
}

export class SegmentsChart {
  private readonly elements: SegmentsChartElements;
  private readonly callbacks: SegmentsChartCallbacks;
  private state: AllocatorState | null = null;
  private groups: SegmentGroup[] = [];
  /** Layout segment index -> index in state.segments. */
  private order: number[] = [];
  private layout: SegmentsLayout | null = null;
  private size: PlotSize = { width: 0, height: 0, devicePixelRatio: 1 };
  private theme: SegmentsTheme;
  private scaleMode: SegmentsScale = 'detail';
  private hoverBlock: number | null = null;
  private selectedBlock: number | null = null;
  private frameRequest = 0;
  private needs = { measure: true, layout: true, draw: true, overlay: true };
  private drawCount = 0;
  private readonly resizeObserver: ResizeObserver;
  private readonly colorScheme: MediaQueryList;
  private readonly cleanups: (() => void)[] = [];

  constructor(elements: SegmentsChartElements, callbacks: SegmentsChartCallbacks) {
    this.elements = elements;
    this.callbacks = callbacks;
    this.theme = readSegmentsTheme(elements.root);
    this.resizeObserver = new ResizeObserver(() => this.invalidate('measure'));
    this.resizeObserver.observe(elements.scroll);
    this.colorScheme = window.matchMedia('(prefers-color-scheme: dark)');
    const onScheme = (): void => {
      this.theme = readSegmentsTheme(this.elements.root);
      this.invalidate('draw');
    };
    this.colorScheme.addEventListener('change', onScheme);
    this.cleanups.push(() => this.colorScheme.removeEventListener('change', onScheme));
    this.listen(elements.scroll, 'scroll', () => {
      this.invalidate('draw');
      this.hover(null);
    });
    this.listen(elements.scroll, 'pointermove', (event) => this.onPointerMove(event));
    this.listen(elements.scroll, 'pointerleave', () => this.hover(null));
    this.listen(elements.scroll, 'click', (event) => this.onClick(event));
  }

  destroy(): void {
    if (this.frameRequest !== 0) cancelAnimationFrame(this.frameRequest);
    this.frameRequest = 0;
    this.resizeObserver.disconnect();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
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
    const rect = this.rectsOfBlock(block)[0];
    if (rect === undefined) return;
    const scroll = this.elements.scroll;
    const top = rect.y + SEGMENTS_PADDING.top;
    const height = this.layout?.rowHeight ?? 0;
    if (top < scroll.scrollTop || top + height > scroll.scrollTop + scroll.clientHeight) {
      scroll.scrollTop = Math.max(0, top - scroll.clientHeight / 3);
    }
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
      this.relayout();
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

  private relayout(): void {
    const state = this.state!;
    const order: number[] = [];
    const input: LayoutSegment[] = [];
    this.groups.forEach((group, groupIndex) => {
      for (const segment of group.segments) {
        order.push(segment);
        input.push({ sizeBytes: state.segments[segment]!.sizeBytes, group: groupIndex });
      }
    });
    this.order = order;
    const viewportHeight = Math.max(1, this.size.height - SEGMENTS_PADDING.top);
    const options = {
      ...DEFAULT_LAYOUT_OPTIONS,
      width: Math.max(1, this.size.width - SEGMENTS_PADDING.left - SEGMENTS_PADDING.right),
      viewportHeight,
    };
    if (this.scaleMode === 'fit') {
      // The rows the view holds below the headers: the picture ends where the view does.
      const headers =
        this.groups.length * (options.headerHeight + options.groupGap) + options.groupGap;
      const rowStep = options.rowHeight + options.rowGap;
      options.maxRows = Math.max(1, Math.floor((viewportHeight - headers) / rowStep) - 1);
      options.minSegmentPx = 0;
    }
    this.layout = layoutSegments(input, options);
    this.elements.root.dataset['scale'] = this.scaleMode;
    this.callbacks.onLayout(this.layout, {
      left: SEGMENTS_PADDING.left,
      top: SEGMENTS_PADDING.top,
    });
  }

  // ---- drawing ---------------------------------------------------------------------------------

  private colorOf(kind: number): string {
    if (kind === BlockKind.allocated) return this.theme.allocated;
    if (kind === BlockKind.pendingFree) return this.theme.pendingFree;
    return this.theme.free;
  }

  private draw(): void {
    const context = prepareCanvas(this.elements.canvas, this.size);
    const layout = this.layout;
    const state = this.state;
    if (context === null || layout === null || state === null) return;
    const scrollTop = this.elements.scroll.scrollTop;
    const offsetY = SEGMENTS_PADDING.top - scrollTop;
    const left = SEGMENTS_PADDING.left;
    const [firstRow, endRow] = rowsBetween(layout, -offsetY, -offsetY + this.size.height);
    const { blocks } = state;
    const scale = layout.pixelsPerByte;
    const height = layout.rowHeight;
    const pixel = 1 / this.size.devicePixelRatio;

    for (let r = firstRow; r < endRow; r++) {
      const row = layout.rows[r]!;
      const y = row.y + offsetY;
      for (let p = row.firstPiece; p < row.endPiece; p++) {
        const piece = layout.pieces[p]!;
        const segment = state.segments[this.order[piece.segment]!]!;
        const x = left + piece.x;
        const base = segment.address;
        // Blocks tile the segment: draw those meeting this piece, each inset by a hairline
        // where it is wide enough to show where one block ends and the next begins.
        let b = blockAtAddress(
          blocks.address,
          blocks.sizeBytes,
          segment.firstBlock,
          segment.endBlock,
          base + piece.byteStart,
        );
        if (b < 0) b = segment.firstBlock;
        if (piece.width < 1) {
          // Narrower than a pixel: the colour of what holds most of it.
          context.fillStyle = this.colorOf(this.dominantKind(segment.firstBlock, segment.endBlock));
          context.fillRect(x, y, 1, height);
          continue;
        }
        for (; b < segment.endBlock; b++) {
          const start = blocks.address[b]! - base;
          if (start >= piece.byteEnd) break;
          const end = start + blocks.sizeBytes[b]!;
          const from = Math.max(start, piece.byteStart);
          const to = Math.min(end, piece.byteEnd);
          if (to <= from) continue;
          const bx = x + (from - piece.byteStart) * scale;
          const width = (to - from) * scale;
          context.fillStyle = this.colorOf(blocks.kind[b]!);
          context.fillRect(bx, y, width >= 4 && to === end ? width - pixel : width, height);
        }
        context.lineWidth = 1;
        context.strokeStyle = segment.isExpandable ? this.theme.expandable : this.theme.outline;
        context.setLineDash(segment.isExpandable ? [3, 2] : []);
        context.strokeRect(x - 0.5, y - 0.5, Math.max(1, piece.width) + 1, height + 1);
      }
    }
    context.setLineDash([]);
    this.drawCount++;
    const root = this.elements.root;
    root.dataset['drawn'] = String(this.drawCount);
    const point = this.pointOfLargestBlock(firstRow, endRow, offsetY);
    if (point === null) delete root.dataset['blockPoint'];
    else root.dataset['blockPoint'] = `${point.x},${point.y}`;
  }

  private dominantKind(first: number, end: number): number {
    const bytes = [0, 0, 0];
    const blocks = this.state!.blocks;
    for (let b = first; b < end; b++) bytes[blocks.kind[b]!]! += blocks.sizeBytes[b]!;
    let best = 0;
    for (let kind = 1; kind < 3; kind++) if (bytes[kind]! > bytes[best]!) best = kind;
    return best;
  }

  /**
   * Where a test (or a tour) can point at a block: the middle of the widest visible piece of the
   * largest allocated block (any block when none is allocated), in CSS pixels of the canvas.
   */
  private pointOfLargestBlock(
    firstRow: number,
    endRow: number,
    offsetY: number,
  ): { x: number; y: number } | null {
    const layout = this.layout!;
    const state = this.state!;
    const { blocks } = state;
    let best: { x: number; y: number; bytes: number; allocated: boolean } | null = null;
    for (let r = firstRow; r < endRow; r++) {
      const row = layout.rows[r]!;
      const y = row.y + offsetY + layout.rowHeight / 2;
      if (y < 2 || y > this.size.height - 2) continue;
      for (let p = row.firstPiece; p < row.endPiece; p++) {
        const piece = layout.pieces[p]!;
        const segment = state.segments[this.order[piece.segment]!]!;
        for (let b = segment.firstBlock; b < segment.endBlock; b++) {
          const start = Math.max(blocks.address[b]! - segment.address, piece.byteStart);
          const end = Math.min(
            blocks.address[b]! - segment.address + blocks.sizeBytes[b]!,
            piece.byteEnd,
          );
          const width = (end - start) * layout.pixelsPerByte;
          if (width < 3) continue;
          const allocated = blocks.kind[b] === BlockKind.allocated;
          const bytes = blocks.sizeBytes[b]!;
          if (
            best === null ||
            (allocated && !best.allocated) ||
            (allocated === best.allocated && bytes > best.bytes)
          ) {
            const x =
              SEGMENTS_PADDING.left + piece.x + (start - piece.byteStart) * layout.pixelsPerByte;
            best = { x: Math.round(x + width / 2), y: Math.round(y), bytes, allocated };
          }
        }
      }
    }
    return best === null ? null : { x: best.x, y: best.y };
  }

  private rectsOfBlock(block: number): { x: number; y: number; width: number }[] {
    const state = this.state;
    const layout = this.layout;
    if (state === null || layout === null || block < 0 || block >= state.blocks.count) return [];
    const segmentIndex = state.segments.findIndex(
      (segment) => segment.firstBlock <= block && block < segment.endBlock,
    );
    if (segmentIndex < 0) return [];
    const layoutIndex = this.order.indexOf(segmentIndex);
    if (layoutIndex < 0) return [];
    const segment = state.segments[segmentIndex]!;
    const start = state.blocks.address[block]! - segment.address;
    return rectsOfRange(layout, layoutIndex, start, start + state.blocks.sizeBytes[block]!);
  }

  private drawOverlay(): void {
    const context = prepareCanvas(this.elements.overlay, this.size);
    if (context === null || this.layout === null) return;
    const offsetY = SEGMENTS_PADDING.top - this.elements.scroll.scrollTop;
    const height = this.layout.rowHeight;
    const outline = (block: number, color: string, width: number): void => {
      context.strokeStyle = color;
      context.lineWidth = width;
      for (const rect of this.rectsOfBlock(block)) {
        const x = SEGMENTS_PADDING.left + rect.x;
        const y = rect.y + offsetY;
        context.strokeRect(
          x - width / 2,
          y - width / 2,
          Math.max(1, rect.width) + width,
          height + width,
        );
      }
    };
    if (this.hoverBlock !== null && this.hoverBlock !== this.selectedBlock) {
      outline(this.hoverBlock, this.theme.hover, 1.5);
    }
    if (this.selectedBlock !== null) {
      outline(this.selectedBlock, this.theme.selectionHalo, 4);
      outline(this.selectedBlock, this.theme.selection, 2);
    }
    const root = this.elements.root;
    if (this.selectedBlock === null) delete root.dataset['selectedBlock'];
    else root.dataset['selectedBlock'] = String(this.selectedBlock);
  }

  // ---- input -----------------------------------------------------------------------------------

  private listen<K extends keyof HTMLElementEventMap>(
    target: HTMLElement,
    type: K,
    handler: (event: HTMLElementEventMap[K]) => void,
  ): void {
    target.addEventListener(type, handler);
    this.cleanups.push(() => target.removeEventListener(type, handler));
  }

  /** The block under a pointer, with the pointer's position in the visible area. */
  private blockAt(
    event: MouseEvent,
  ): { block: number; segment: number; x: number; y: number } | null {
    const state = this.state;
    const layout = this.layout;
    if (state === null || layout === null) return null;
    const scroll = this.elements.scroll;
    const rect = scroll.getBoundingClientRect();
    const x = event.clientX - rect.left - scroll.clientLeft;
    const y = event.clientY - rect.top - scroll.clientTop;
    const hit = hitTestSegments(
      layout,
      x - SEGMENTS_PADDING.left,
      y + scroll.scrollTop - SEGMENTS_PADDING.top,
    );
    if (hit === null) return null;
    const segmentIndex = this.order[hit.segment]!;
    const segment = state.segments[segmentIndex]!;
    const block = blockAtAddress(
      state.blocks.address,
      state.blocks.sizeBytes,
      segment.firstBlock,
      segment.endBlock,
      segment.address + hit.byteOffset,
    );
    return block < 0 ? null : { block, segment: segmentIndex, x, y };
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

  private onPointerMove(event: PointerEvent): void {
    this.hover(this.blockAt(event));
  }

  private onClick(event: MouseEvent): void {
    if (event.button !== 0) return;
    const hit = this.blockAt(event);
    this.callbacks.onPick(hit?.block ?? null);
  }
}
