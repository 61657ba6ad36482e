// One part of a parallel decode (issue 25; docs/parallel-decode.md), decoded by the same
// unpickler, trace table and stack interner as a whole file: from a split of the plan
// (trace-split-plan.ts), with the memo numbered from the part's base and the objects of earlier
// parts read again from the bytes (ForeignMemo). Its rows, frames, stacks and strings have ids
// of its own: the merge (next step) maps them to the whole file's.

import type { ForeignMemo } from '../pickle/foreign-memo';
import { PartMemo } from '../pickle/part-memo';
import { CONSUMED_DICT, Unpickler } from '../pickle/unpickler';
import { StackInterner } from './stack-interner';
import { TraceTableBuilder } from './trace-table-builder';

export interface TracePart {
  traceTable: TraceTableBuilder;
  stacks: StackInterner;
  /** Where decoding stopped: `end`, or earlier where the part's trace list ended (see `ended`). */
  stoppedAt: number;
  /**
   * Why it stopped before `end`: an opcode needed more than the part holds (its trace list ended
   * and the bytes go on with the file's structure: the spine decodes from `stoppedAt`), or the
   * bytes are not what the plan assumed. Null when it reached `end`.
   */
  ended: Error | null;
  /** Objects of earlier parts the part read again, by memo index (the merge checks them). */
  foreignRead: ReadonlyMap<number, unknown>;
}

const CHUNK_BYTES = 1 << 20;

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
  let ended: Error | null = null;
  try {
    for (let at = start; at < end; at += CHUNK_BYTES) {
      unpickler.feed(bytes.subarray(at, Math.min(end, at + CHUNK_BYTES)));
    }
  } catch (error) {
    ended = error instanceof Error ? error : new Error(String(error));
  }
  return {
    traceTable,
    stacks,
    stoppedAt: unpickler.bytesDecoded,
    ended,
    foreignRead: memo.foreignRead(),
  };
}
