// Writes the `frames` value of a trace entry, block or segment. A context's frames list is written
// once and fetched from the memo afterwards (an alloc and the block it left in the final
// segments, a free_requested and its free_completed, share one list, as in PyTorch's
// snapshots); shared contexts use their stack's single list object.

import type { SimContext } from './caching-allocator-sim';
import { MemoRef, type PickleValue } from '../pickle/pickle-values';
import type { PickleWriter } from '../pickle/pickle-writer';

/** `written`: memo indices of lists written earlier for contexts of this device, by context id
 *  (the segments are written before the trace that creates their contexts again). */
export function writeContextFrames(
  w: PickleWriter,
  ctx: SimContext | null,
  written: Map<number, number>,
): void {
  if (ctx === null) {
    w.newList([]);
    return;
  }
  if (ctx.shared) {
    w.value(ctx.stack.frames as readonly PickleValue[]);
    return;
  }
  if (ctx.memoIndex < 0) {
    const earlier = written.get(ctx.id);
    if (earlier !== undefined) ctx.memoIndex = earlier;
  }
  if (ctx.memoIndex >= 0) {
    w.value(new MemoRef(ctx.memoIndex));
    return;
  }
  ctx.memoIndex = w.newList(ctx.stack.frames);
}
