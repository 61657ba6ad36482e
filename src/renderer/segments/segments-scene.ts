// What the segments chart lays out and draws: the state's segments in group order, placed by
// segments-layout.ts with options for the view's size and the chosen scale. Pure, so the fit
// rule is unit-tested.

import type { AllocatorState } from '@shared/state/allocator-state';
import type { SegmentGroup } from './segment-groups';
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

/** Room around the picture inside the scroll box. */
export const SEGMENTS_PADDING = { left: 12, right: 12, top: 6 } as const;

export interface SegmentsScene {
  state: AllocatorState;
  layout: SegmentsLayout;
  /** Layout segment index -> index in state.segments. */
  order: number[];
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
  return { state, layout: layoutSegments(input, options), order };
}
