// One part of a parallel decode (issue 25; docs/parallel-decode.md), decoded by the same
// unpickler, trace table and stack interner as a whole file: from a split of the plan
// (trace-split-plan.ts), with the memo numbered from the part's base and the objects of earlier
// parts read again from the bytes (ForeignMemo). Its rows, frames, stacks and strings have ids
// of its own: the merge (next step) maps them to the whole file's.

import type { ForeignMemo } from '../pickle/foreign-memo';
import { PartMemo } from '../pickle/part-memo';
import { CONSUMED_DICT, Unpickler, type PartState } from '../pickle/unpickler';
import { StackInterner } from './stack-interner';
import { TraceTableBuilder } from './trace-table-builder';

export interface TracePart {
  traceTable: TraceTableBuilder;
  stacks: StackInterner;
  memo: PartMemo;
  /** Where decoding stopped: `end`, or earlier where the part's trace list ended. */
  stoppedAt: number;
  /** Its state there (Unpickler.partState): null when the bytes did not keep to the plan. */
  state: PartState | null;
  /** The error that stopped it (the bytes are not what the plan assumed), or null. */
  error: Error | null;
  /** Objects of earlier parts the part read again, by memo index (the spine checks them). */
  foreignRead: ReadonlyMap<number, unknown>;
}

export function decodeTracePart(
  bytes: Uint8Array,
  start: number,
  end: number,
  memoBase: number,
  foreign: ForeignMemo,
): TracePart {
  const stacks = new StackInterner();
  const traceTable = new TraceTableBuilder(stacks, (end - start) / 24);
  const memo = new PartMemo(memoBase, foreign, {
    consumedValue: CONSUMED_DICT,
    materializeHandle: traceTable.materializeHandle.bind(traceTable),
  });
  const unpickler = new Unpickler({
    interceptor: traceTable,
    flatDictConsumer: traceTable,
    part: { memo, startOffset: start },
  });
  let error: Error | null = null;
  try {
    // One chunk: the part's bytes are in memory, and it stops at an opcode boundary (the next
    // part's start, or where its trace list ended).
    unpickler.feed(bytes.subarray(start, end));
  } catch (caught) {
    error = caught instanceof Error ? caught : new Error(String(caught));
  }
  return {
    traceTable,
    stacks,
    memo,
    stoppedAt: unpickler.bytesDecoded,
    state: error === null ? unpickler.partState() : null,
    error,
    foreignRead: memo.foreignRead(),
  };
}
