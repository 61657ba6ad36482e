// The blocks in use of one bar of the exported segments picture, as x runs per state: allocated
// and pending free (cached free is the bar's background). Blocks narrower than a pixel are merged
// per pixel column (the colour of the state holding most of it), so the document's size follows
// the picture's pixels, not the number of blocks.

import { BlockKind, type AllocatorState, type StateSegment } from '../state/allocator-state';

export interface XRun {
  x0: number;
  x1: number;
}

/** Runs of allocated blocks [0] and pending-free blocks [1]. */
export type BarRuns = [XRun[], XRun[]];

export interface BarBox {
  segment: StateSegment;
  x: number;
  width: number;
}

/**
 * Appends the bar's runs to `out` and, to `separators`, the x of each hairline between two
 * neighbouring blocks in use wide enough to tell apart.
 */
export function barRuns(
  state: AllocatorState,
  bar: BarBox,
  out: BarRuns,
  separators: number[],
): void {
  const { blocks } = state;
  const { segment } = bar;
  const scale = bar.width / Math.max(1, segment.sizeBytes);
  const barEnd = bar.x + bar.width;
  let column = -1;
  const cover = [0, 0];
  const emit = (x0: number, x1: number, kind: number): void => {
    const list = out[kind]!;
    const last = list[list.length - 1];
    if (last !== undefined && x0 <= last.x1 + 0.05 && x1 >= last.x0)
      last.x1 = Math.max(last.x1, x1);
    else list.push({ x0, x1 });
  };
  const flush = (): void => {
    if (column >= 0 && cover[0]! + cover[1]! >= 0.35) {
      const kind = cover[0]! >= cover[1]! ? 0 : 1;
      emit(Math.max(bar.x, column), Math.min(barEnd, column + 1), kind);
    }
    column = -1;
    cover[0] = cover[1] = 0;
  };
  let previousWide = false;
  for (let b = segment.firstBlock; b < segment.endBlock; b++) {
    const kind = blocks.kind[b]!;
    const x0 = bar.x + (blocks.address[b]! - segment.address) * scale;
    const x1 = Math.min(barEnd, x0 + blocks.sizeBytes[b]! * scale);
    if (kind === BlockKind.free) {
      previousWide = false;
      continue;
    }
    const wide = x1 - x0 >= 1;
    if (wide) {
      flush();
      // Neighbouring blocks in use, both wide enough to tell apart: a hairline between them.
      if (previousWide && x1 - x0 >= 3 && b > segment.firstBlock) separators.push(x0);
      emit(x0, x1, kind === BlockKind.pendingFree ? 1 : 0);
    } else {
      const at = Math.floor(x0);
      if (at !== column) {
        flush();
        column = at;
      }
      cover[kind === BlockKind.pendingFree ? 1 : 0]! += x1 - x0;
    }
    previousWide = wide && x1 - x0 >= 3;
  }
  flush();
}
