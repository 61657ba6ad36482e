// One part of a parallel decode (issue 25; docs/parallel-decode.md), decoded by the same
// unpickler, trace table and stack interner as a whole file: from a split of the plan
// (trace-split-plan.ts), with the memo numbered from the part's base and the objects of earlier
// parts read again from the bytes (ForeignMemo). Its rows, frames, stacks and strings have ids
// of its own: the merge (next step) maps them to the whole file's.

import { feedFrom, feedFromAhead, sourceOf, type ByteSource } from '../pickle/byte-source';
import type { ForeignMemo } from '../pickle/foreign-memo';
import { PartMemo } from '../pickle/part-memo';
import type { MemoSlots } from '../pickle/memo';
import { CONSUMED_DICT, Unpickler, type PartState } from '../pickle/unpickler';
import { StackInterner, type PartStacks } from './stack-interner';
import { TraceTableBuilder, type PartTables } from './trace-table-builder';

/** A decoded part as plain data: what a worker sends to the spine (ids its own). */
export interface TracePart {
  /** Null when its entries went to a list the plan did not expect (then `error` says so). */
  tables: PartTables | null;
  stacks: PartStacks;
  /** The memo slots the part made (from its base on). */
  memo: MemoSlots;
  /** Where decoding stopped: `end`, or earlier where the part's trace list ended. */
  stoppedAt: number;
  /** Its state there (Unpickler.partState): null when the bytes did not keep to the plan. */
  state: PartState | null;
  /** Why it failed (the bytes are not what the plan assumed: the file decodes on one worker). */
  error: string | null;
  /** Objects of earlier parts it read again: memo index, and the string (null: not a string). */
  foreignRead: [number, string | null][];
}

/** Bytes a part is fed at a time. */
const CHUNK_BYTES = 1 << 20;

export function decodeTracePart(
  input: Uint8Array | ByteSource,
  start: number,
  end: number,
  memoBase: number,
  foreign: ForeignMemo,
): TracePart {
  const part = new PartDecode(start, end, memoBase, foreign);
  try {
    // It stops at an opcode boundary: the next part's start, or where its trace list ended.
    feedFrom(part.unpickler, sourceOf(input), start, end, CHUNK_BYTES);
  } catch (caught) {
    return part.result(messageOf(caught));
  }
  return part.result(null);
}

/** decodeTracePart, its bytes read ahead where the source can (ByteSource.chunks: the page). */
export async function decodeTracePartAhead(
  source: ByteSource,
  start: number,
  end: number,
  memoBase: number,
  foreign: ForeignMemo,
): Promise<TracePart> {
  const part = new PartDecode(start, end, memoBase, foreign);
  try {
    await feedFromAhead(part.unpickler, source, start, end, CHUNK_BYTES);
  } catch (caught) {
    return part.result(messageOf(caught));
  }
  return part.result(null);
}

/** A part's decoder, fed by either of the above, and what it made. */
class PartDecode {
  readonly unpickler: Unpickler;
  private readonly stacks = new StackInterner();
  private readonly traceTable: TraceTableBuilder;
  private readonly memo: PartMemo;

  constructor(start: number, end: number, memoBase: number, foreign: ForeignMemo) {
    this.traceTable = new TraceTableBuilder(this.stacks, (end - start) / 24);
    this.memo = new PartMemo(memoBase, foreign, {
      consumedValue: CONSUMED_DICT,
      materializeHandle: this.traceTable.materializeHandle.bind(this.traceTable),
    });
    this.unpickler = new Unpickler({
      interceptor: this.traceTable,
      flatDictConsumer: this.traceTable,
      part: { memo: this.memo, startOffset: start },
    });
  }

  /** The part as plain data; `error`: why the feeding stopped (null: it ended as planned). */
  result(fed: string | null): TracePart {
    const { unpickler, traceTable, stacks, memo } = this;
    let error = fed;
    const state = error === null ? unpickler.partState() : null;
    const tables = traceTable.partTables(unpickler.partListObject(), state?.lists ?? []);
    if (error === null && (state === null || tables === null)) error = 'not as the plan assumed';
    return {
      tables,
      stacks: { frames: stacks.frames, stacks: stacks.table() },
      memo: memo.ownSlots(),
      stoppedAt: unpickler.bytesDecoded,
      state,
      error,
      foreignRead: [...memo.foreignRead()].map(([index, value]) => [
        index,
        typeof value === 'string' ? value : null,
      ]),
    };
  }
}

function messageOf(caught: unknown): string {
  return caught instanceof Error ? caught.message : String(caught);
}
