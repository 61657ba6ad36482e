// Writes the `frames` value of a trace entry, block or segment. A context's frames list is written
// once and fetched from the memo afterwards (an alloc and the block it left in the final
// segments, a free_requested and its free_completed, share one list, as in PyTorch's
// snapshots); shared contexts use their stack's single list object.

import type { SimContext } from './caching-allocator-sim';
import { MemoRef, type PickleValue } from '../pickle/pickle-values';
import type { PickleWriter } from '../pickle/pickle-writer';

/** How a frames list was written: a new list, or a memo reference to one written before. */
export type FramesWritten = 'new' | 'memo';

/** `written`: memo indices of lists written earlier for contexts of this device, by context id
 *  (the segments are written before the trace that creates their contexts again). */
export function writeContextFrames(
  w: PickleWriter,
  ctx: SimContext | null,
  written: Map<number, number>,
): FramesWritten {
  if (ctx === null) {
    w.newList([]);
    return 'new';
  }
  if (ctx.shared) {
    const frames = ctx.stack.frames as readonly PickleValue[];
    const before = w.memoIndexOf(frames);
    w.value(frames);
    return before === undefined ? 'new' : 'memo';
  }
  if (ctx.memoIndex < 0) {
    const earlier = written.get(ctx.id);
    if (earlier !== undefined) ctx.memoIndex = earlier;
  }
  if (ctx.memoIndex >= 0) {
    w.value(new MemoRef(ctx.memoIndex));
    return 'memo';
  }
  ctx.memoIndex = w.newList(ctx.stack.frames);
  return 'new';
}
