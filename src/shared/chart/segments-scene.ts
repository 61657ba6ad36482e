// The segments picture, laid out once for the page's canvas and the exports' SVG alike: the
// state's segments in group order (segment-order.ts), placed by segments-layout.ts with options for
// the box's size and the chosen scale; segments-paint.ts draws it through either backend.

import { BlockKind, type AllocatorState } from '../state/allocator-state';
import type { SegmentGroup } from './segment-order';
import {
  DEFAULT_LAYOUT_OPTIONS,
  layoutSegments,
  type LayoutSegment,
  type SegmentsLayout,
  type SegmentsLayoutOptions,
} from './segments-layout';

/**
 * 'fit': the whole picture in the view (thin segments drawn a pixel wide); 'detail': small
 * segments and blocks get room, and the picture may scroll.
 */
export type SegmentsScale = 'fit' | 'detail';

/** The scale the segments view opens with. */
export const DEFAULT_SEGMENTS_SCALE: SegmentsScale = 'detail';

/** Room around the picture inside the scroll box. */
export const SEGMENTS_PADDING = { left: 12, right: 12, top: 6 } as const;

export interface SegmentsScene {
  state: AllocatorState;
  layout: SegmentsLayout;
  /** Layout segment index -> index in state.segments. */
  order: number[];
  /** The block outlined as the largest hole (largestFreeBlock), -1 when none is free. */
  largestFreeBlock: number;
}

/** The box a scene is laid out for: the page's scroll box, or the exported picture's. */
export interface SegmentsBox {
  width: number;
  height: number;
  scale: SegmentsScale;
}

/** The layout's input: the groups' segments one group after the other. */
export function layoutInput(
  state: AllocatorState,
  groups: readonly SegmentGroup[],
): { order: number[]; input: LayoutSegment[] } {
  const order: number[] = [];
  const input: LayoutSegment[] = [];
  groups.forEach((group, groupIndex) => {
    for (const segment of group.segments) {
      order.push(segment);
      input.push({ sizeBytes: state.segments[segment]!.sizeBytes, group: groupIndex });
    }
  });
  return { order, input };
}

/** Layout options for a scroll box of viewWidth × viewHeight CSS pixels. */
export function segmentsLayoutOptions(
  scale: SegmentsScale,
  viewWidth: number,
  viewHeight: number,
  groupCount: number,
): SegmentsLayoutOptions {
  const viewportHeight = Math.max(1, viewHeight - SEGMENTS_PADDING.top);
  const options = {
    ...DEFAULT_LAYOUT_OPTIONS,
    width: Math.max(1, viewWidth - SEGMENTS_PADDING.left - SEGMENTS_PADDING.right),
    viewportHeight,
  };
  if (scale === 'fit') {
    // The rows the view holds below the headers: the picture ends where the view does.
    const headers = groupCount * (options.headerHeight + options.groupGap) + options.groupGap;
    const rowStep = options.rowHeight + options.rowGap;
    options.maxRows = Math.max(1, Math.floor((viewportHeight - headers) / rowStep) - 1);
    options.minSegmentPx = 0;
  }
  return options;
}

/** The scene of a state's groups in a scroll box of viewWidth × viewHeight. */
export function layoutScene(
  state: AllocatorState,
  groups: readonly SegmentGroup[],
  scale: SegmentsScale,
  viewWidth: number,
  viewHeight: number,
): SegmentsScene {
  const { order, input } = layoutInput(state, groups);
  const options = segmentsLayoutOptions(scale, viewWidth, viewHeight, groups.length);
  let layout = layoutSegments(input, options);
  if (scale === 'fit') {
    // The scale counts rows as if bars packed them full; wrapping like words leaves room at the
    // ends of rows, so the picture may still overflow: smaller scales until it fits (Fit's
    // promise: everything in view).
    // Gaps and one-pixel bars may never fit: then the lowest picture tried.
    let pixelsPerByte = layout.pixelsPerByte;
    for (let tries = 0; tries < FIT_TRIES && layout.height > options.viewportHeight; tries++) {
      pixelsPerByte *= FIT_STEP;
      const smaller = layoutSegments(input, options, pixelsPerByte);
      if (smaller.height < layout.height) layout = smaller;
    }
  }
  return { state, layout, order, largestFreeBlock: largestFreeBlock(state) };
}

/** The largest free block of the state (the first of equals), -1 when there is none. */
export function largestFreeBlock(state: AllocatorState): number {
  const { blocks } = state;
  let best = -1;
  for (let b = 0; b < blocks.count; b++) {
    if (blocks.kind[b] !== BlockKind.free) continue;
    if (best < 0 || blocks.sizeBytes[b]! > blocks.sizeBytes[best]!) best = b;
  }
  return best;
}

/** How Fit shrinks a picture that overflows: by this factor, at most this many times. */
const FIT_STEP = 0.85;
const FIT_TRIES = 24;
