// First pass of the generator: counts the recorded events and estimates the bytes their pickle
// will take, to decide where the trace ends (and where device 0's OOM goes) before anything is
// written. The estimate follows what PickleWriter emits for a trace entry. Whether a memo
// reference takes 2 bytes (BINGET, memo index < 256) or 5 (LONG_BINGET) matters for the frames
// lists that make up most of the file; that is learnt from a probe (see EntryCosts).

import type { SimContext, TraceAction } from './caching-allocator-sim';
import { StopSimulation, type TraceRecorder } from './device-simulation';
import type { Stack } from './stack-catalog';

/** Where in device 0's trace the OOM happens, as a share of its budget. */
const OOM_AT_SHARE = 0.97;

/** Bytes of an int as PickleWriter writes it. */
export function pickledIntBytes(n: number): number {
  if (n >= 0) {
    if (n <= 0xff) return 2;
    if (n <= 0xffff) return 3;
    if (n <= 0x7fffffff) return 5;
    return 2 + (Math.floor(Math.log2(n) + 1) >> 3) + 1;
  }
  return n >= -0x80000000 ? 5 : 2 + (Math.floor(Math.log2(-n) + 1) >> 3) + 1;
}

export interface EntryCosts {
  /** Bytes of an entry other than addr, size, stream and frames. */
  readonly entryFixedBytes: number;
  /** Bytes of a fresh frames list of this stack. */
  listBytes(stack: Stack): number;
}

/** Costs from the memo indices a probe writer gave to strings and frames. */
export function entryCostsFromMemo(
  memoIndexOf: (value: object | string) => number | undefined,
): EntryCosts {
  const refBytes = (value: object | string): number => {
    const index = memoIndexOf(value);
    return index !== undefined && index < 256 ? 2 : 5;
  };
  const keys = ['action', 'addr', 'size', 'stream', 'time_us', 'compile_context', 'frames'];
  // EMPTY_DICT MEMOIZE MARK, keys, the action and compile_context strings, a 7-byte LONG1
  // time_us, SETITEMS.
  const entryFixedBytes = 3 + keys.reduce((sum, k) => sum + refBytes(k), 0) + 5 + 5 + 9 + 1;
  const lists = new Map<Stack, number>();
  return {
    entryFixedBytes,
    listBytes(stack) {
      let bytes = lists.get(stack);
      if (bytes === undefined) {
        // EMPTY_LIST MEMOIZE MARK ... APPENDS around one reference per frame.
        bytes = 4 + stack.frames.reduce((sum, frame) => sum + refBytes(frame), 0);
        lists.set(stack, bytes);
      }
      return bytes;
    },
  };
}

export class EstimatingRecorder implements TraceRecorder {
  events = 0;
  bytes = 0;
  /** Recorded events before the OOM step's check; -1 when none happened. */
  oomAt = -1;
  private oomRecorded = false;

  /** countedStacks: stacks whose shared list was already counted (shared by all devices). */
  constructor(
    private readonly budgetBytes: number,
    private readonly wantOom: boolean,
    private readonly costs: EntryCosts,
    private readonly countedStacks: Set<Stack>,
  ) {}

  record(action: TraceAction, addr: number, size: number, stream: number, ctx: SimContext): void {
    this.events++;
    if (action === 'oom') this.oomRecorded = true;
    this.bytes +=
      this.costs.entryFixedBytes +
      pickledIntBytes(addr) +
      pickledIntBytes(size) +
      pickledIntBytes(stream) +
      this.framesBytes(ctx);
    // With an OOM wanted, the trace goes on to the `oom` entry itself: the failing call first
    // releases cached segments (segment_free entries), and the trace must not end between.
    if (this.bytes >= this.budgetBytes && (!this.wantOom || this.oomRecorded))
      throw new StopSimulation();
  }

  oomNow(): boolean {
    if (!this.wantOom || this.oomAt >= 0 || this.bytes < OOM_AT_SHARE * this.budgetBytes)
      return false;
    this.oomAt = this.events;
    return true;
  }

  annotate(): void {}

  private framesBytes(ctx: SimContext): number {
    if (ctx.shared) {
      if (this.countedStacks.has(ctx.stack)) return 5;
      this.countedStacks.add(ctx.stack);
      return this.costs.listBytes(ctx.stack);
    }
    if (ctx.counted) return 5;
    ctx.counted = true;
    return this.costs.listBytes(ctx.stack);
  }
}
