// What the exported segments picture draws, gathered from an allocator state: the segments of
// each pool, stream and size class (largest first) with the group's title and figures, each
// segment's free bytes, and the largest free block.

import { BlockKind, type AllocatorState, type StateSegment } from '../state/allocator-state';
import type { GroupFigures } from '../state/memory-figures';
import { sameSegmentGroup, segmentGroupTitle } from '../state/segment-groups';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';

export interface SvgSegmentGroup {
  figures: GroupFigures;
  title: string;
  /** Largest first; equal sizes by address. */
  segments: StateSegment[];
}

/** One group per entry of `figures`, in its order (figuresByGroup: the one order of groups). */
export function svgSegmentGroups(
  view: AnalyzedSnapshot,
  state: AllocatorState,
  figures: GroupFigures[],
): SvgSegmentGroup[] {
  return figures.map((group) => {
    const segments = state.segments
      .filter((segment) => sameSegmentGroup(segment, group))
      .sort((a, b) => b.sizeBytes - a.sizeBytes || a.address - b.address);
    return { figures: group, title: segmentGroupTitle(view, group), segments };
  });
}

export function freeBytesBySegment(state: AllocatorState): Map<StateSegment, number> {
  const free = new Map<StateSegment, number>();
  for (const segment of state.segments) {
    let bytes = 0;
    for (let b = segment.firstBlock; b < segment.endBlock; b++)
      if (state.blocks.kind[b] === BlockKind.free) bytes += state.blocks.sizeBytes[b]!;
    free.set(segment, bytes);
  }
  return free;
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
