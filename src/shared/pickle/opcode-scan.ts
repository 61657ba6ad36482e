// Steps through pickle opcodes without decoding them: only each opcode's length is read. A
// parallel decode needs two things from the bytes before any worker decodes them: where a part
// may begin (trace-split-plan.ts), and how many memo entries the parts before it create (the
// memo is numbered in file order, so a part's first MEMOIZE is the sum of the earlier parts'
// counts). Both are read here, at a fraction of the cost of decoding.
//
// Any opcode a snapshot never holds (code loading, sets, text protocols), or a declared length
// the bytes cannot hold, stops the scan: the caller then decodes on one worker, and the serial
// decoder says what is wrong with the file in its usual words.

import type { ByteSource } from './byte-source';
import { concatBytes } from './concat-bytes';
import { Op } from './opcodes';

/** Returned by opcodeEnd() for an opcode the scan does not step over (or one cut by the end). */
export const NOT_SCANNED = -1;

// Length of the argument of each fixed-size opcode (index: the opcode byte); -1: not fixed-size.
const FIXED_ARGUMENT = new Int8Array(256).fill(-1);
for (const op of [
  Op.MARK,
  Op.STOP,
  Op.POP,
  Op.POP_MARK,
  Op.DUP,
  Op.NONE,
  Op.APPEND,
  Op.APPENDS,
  Op.DICT,
  Op.EMPTY_DICT,
  Op.LIST,
  Op.EMPTY_LIST,
  Op.SETITEM,
  Op.SETITEMS,
  Op.TUPLE,
  Op.EMPTY_TUPLE,
  Op.TUPLE1,
  Op.TUPLE2,
  Op.TUPLE3,
  Op.NEWTRUE,
  Op.NEWFALSE,
  Op.MEMOIZE,
]) {
  FIXED_ARGUMENT[op] = 0;
}
FIXED_ARGUMENT[Op.BININT1] = 1;
FIXED_ARGUMENT[Op.BINGET] = 1;
FIXED_ARGUMENT[Op.BINPUT] = 1;
FIXED_ARGUMENT[Op.PROTO] = 1;
FIXED_ARGUMENT[Op.BININT2] = 2;
FIXED_ARGUMENT[Op.BININT] = 4;
FIXED_ARGUMENT[Op.LONG_BINGET] = 4;
FIXED_ARGUMENT[Op.LONG_BINPUT] = 4;
FIXED_ARGUMENT[Op.BINFLOAT] = 8;
FIXED_ARGUMENT[Op.FRAME] = 8;

/** The position after the opcode at `pos`, or NOT_SCANNED (unknown opcode, or cut at `end`). */
export function opcodeEnd(bytes: Uint8Array, view: DataView, pos: number, end: number): number {
  const op = bytes[pos]!;
  const fixed = FIXED_ARGUMENT[op]!;
  let after: number;
  if (fixed >= 0) {
    after = pos + 1 + fixed;
  } else {
    switch (op) {
      case Op.SHORT_BINUNICODE:
      case Op.SHORT_BINBYTES:
      case Op.LONG1:
        if (pos + 2 > end) return NOT_SCANNED;
        after = pos + 2 + bytes[pos + 1]!;
        break;
      case Op.BINUNICODE:
      case Op.BINBYTES:
      case Op.LONG4:
        if (pos + 5 > end) return NOT_SCANNED;
        after = pos + 5 + view.getUint32(pos + 1, true);
        break;
      case Op.BINUNICODE8:
      case Op.BINBYTES8:
      case Op.BYTEARRAY8: {
        if (pos + 9 > end) return NOT_SCANNED;
        const high = view.getUint32(pos + 5, true);
        if (high !== 0) return NOT_SCANNED;
        after = pos + 9 + view.getUint32(pos + 1, true);
        break;
      }
      default:
        return NOT_SCANNED;
    }
  }
  return after <= end ? after : NOT_SCANNED;
}

export interface MemoCount {
  /** MEMOIZE opcodes in the range. */
  memoized: number;
  /**
   * Where the scan stopped: `to` when every opcode was stepped over and the last one ends there;
   * else the start of the opcode it could not step over (or that `to` cuts).
   */
  stoppedAt: number;
  /** Whether a STOP opcode was stepped over (the pickle ends inside the range). */
  sawStop: boolean;
}

/**
 * Counts the MEMOIZE opcodes of bytes[from..to), `from` being an opcode boundary. The scan stops
 * early (stoppedAt < to) at an opcode it does not step over, at BINPUT / LONG_BINPUT (protocol
 * 2-3 numbering: no count from the bytes alone can be trusted to match), and after STOP.
 */
export function countMemoized(bytes: Uint8Array, from: number, to: number): MemoCount {
  const counter = new MemoCounter(from, Number.MAX_SAFE_INTEGER);
  const step = counter.step(bytes, 0, from, Math.min(to, bytes.length));
  return { memoized: counter.memoized, stoppedAt: step.stoppedAt, sawStop: step.sawStop };
}

/**
 * MEMOIZE opcodes between two checkpoints of a memo count: where each object of a block starts is
 * found again, when a later part names one of them, by scanning that block alone (blockStarts).
 * About 90 kB of a real snapshot's trace.
 */
export const MEMO_BLOCK = 1024;

export interface MemoCheckpoints extends MemoCount {
  /** MEMOIZE opcodes per block. */
  block: number;
  /**
   * Where block b + 1 begins, relative to `from`: just after the ((b + 1) * block)-th MEMOIZE of
   * the range (block 0 begins at `from`).
   */
  checkpoints: Uint32Array;
}

/** A range counted (countMemoCheckpoints), from its first byte `from`: what blockStarts reads. */
export interface CountedRange extends Pick<
  MemoCheckpoints,
  'memoized' | 'block' | 'checkpoints' | 'stoppedAt'
> {
  from: number;
}

/**
 * countMemoized over a ByteSource read window by window, with a checkpoint every `block` MEMOIZE
 * opcodes: what a part's thread sends the later ones instead of every object's start, since
 * counting costs about 0.6 of finding each object's start (2.0-2.5 against 3.6-4.2 ms/MB:
 * docs/parallel-decode.md) and a later part names only a few hundred objects of the parts before.
 */
export function countMemoCheckpoints(
  source: ByteSource,
  from: number,
  to: number,
  block = MEMO_BLOCK,
  windowBytes = SCAN_WINDOW_BYTES,
): MemoCheckpoints {
  const counter = new MemoCounter(from, block);
  const end = scanInWindows(source, from, to, windowBytes, counter);
  return counter.result(end.stoppedAt, end.sawStop);
}

/**
 * countMemoCheckpoints from the source's chunks where it reads ahead (ByteSource.chunks: the
 * page), the same answer: an opcode cut by a chunk's end is scanned again with the chunks after.
 */
export async function countMemoCheckpointsAhead(
  source: ByteSource,
  from: number,
  to: number,
  block = MEMO_BLOCK,
): Promise<MemoCheckpoints> {
  if (source.chunks === undefined) return countMemoCheckpoints(source, from, to, block);
  const counter = new MemoCounter(from, block);
  const end = Math.min(to, source.size);
  // Chunks not yet scanned, from `pos` on; `need`: bytes to gather before the next step (an
  // opcode longer than what is held waits for twice as much: no chunk is copied more than twice
  // on average).
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let need = 0;
  let pos = from;
  if (from >= end) return counter.result(from, false);
  for await (const chunk of source.chunks(from, end)) {
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes < need) continue;
    const bytes = pending.length === 1 ? pending[0]! : concatBytes(pending, pendingBytes);
    const bytesEnd = pos + bytes.length;
    const step = counter.step(bytes, pos, pos, bytesEnd);
    const stoppedEarly = !step.cut && step.stoppedAt < bytesEnd;
    if (step.sawStop || stoppedEarly) return counter.result(step.stoppedAt, step.sawStop);
    if (step.stoppedAt === pos && bytes.length >= MAX_SCAN_WINDOW_BYTES)
      return counter.result(pos, false);
    need = step.stoppedAt === pos ? bytes.length * 2 : 0;
    const rest = bytes.subarray(step.stoppedAt - pos);
    pending = rest.length === 0 ? [] : [rest];
    pendingBytes = rest.length;
    pos = step.stoppedAt;
  }
  if (pendingBytes > 0) {
    // The range's end (or a long opcode gathered past `need`) with bytes left: scan them, then
    // an opcode cut there stops the count where it begins, as countMemoCheckpoints does.
    const bytes = concatBytes(pending, pendingBytes);
    const step = counter.step(bytes, pos, pos, pos + bytes.length);
    return counter.result(step.stoppedAt, step.sawStop);
  }
  return counter.result(pos, false);
}

/**
 * Where each object of block `index` of a counted range starts (relative to the range's `from`,
 * as scanMemoObjects gives them), by scanning that block alone; null where the block does not
 * hold the MEMOIZE opcodes the count found there (the bytes changed). A scan begun just after a
 * MEMOIZE finds the starts a scan of the whole range finds: no object whose start it cannot see
 * (a tuple whose items began before) has one in either, since a MEMOIZE is not one of its items.
 */
export function blockStarts(
  source: ByteSource,
  counted: CountedRange,
  index: number,
): Uint32Array | null {
  const { from, block, checkpoints } = counted;
  const first = index * block;
  if (index < 0 || first >= counted.memoized) return null;
  const begin = index === 0 ? from : from + checkpoints[index - 1]!;
  const end = index < checkpoints.length ? from + checkpoints[index]! : counted.stoppedAt;
  const scanned = scanMemoObjectsFrom(source, begin, end, BLOCK_WINDOW_BYTES, from);
  const expected = Math.min(block, counted.memoized - first);
  return scanned.stoppedAt === end && scanned.memoized === expected ? scanned.starts : null;
}

/**
 * Bytes a block's scan reads at a time (a block is about 90 kB): small reads, which a page's
 * windowed source serves from 1 MiB windows that the objects read next to them share, where a
 * larger read would load 8 MiB for each block (COSTLY_READ_WINDOWS in ./byte-source.ts).
 */
const BLOCK_WINDOW_BYTES = 32 << 10;

/** In MemoObjects.starts: a memo entry whose object cannot be read again from its bytes alone. */
export const NO_START = 0xffffffff;

export interface MemoObjects extends MemoCount {
  /**
   * Per MEMOIZE of the range, in order: where the memoized object's first opcode is, relative to
   * `from` (NO_START when it is not a string, bytes, dict, list or small tuple of scalars).
   */
  starts: Uint32Array;
}

// Opcodes that push one plain value and take nothing: the items of a tuple read again by itself.
const SCALAR = new Uint8Array(256);
for (const op of [
  Op.BININT,
  Op.BININT1,
  Op.BININT2,
  Op.LONG1,
  Op.LONG4,
  Op.BINFLOAT,
  Op.NONE,
  Op.NEWTRUE,
  Op.NEWFALSE,
  Op.SHORT_BINUNICODE,
  Op.BINUNICODE,
  Op.BINUNICODE8,
  Op.BINGET,
  Op.LONG_BINGET,
]) {
  SCALAR[op] = 1;
}

// Opcodes whose value MEMOIZE stores is made by that opcode alone.
const SELF_MADE = new Uint8Array(256);
for (const op of [
  Op.EMPTY_DICT,
  Op.EMPTY_LIST,
  Op.EMPTY_TUPLE,
  Op.SHORT_BINUNICODE,
  Op.BINUNICODE,
  Op.BINUNICODE8,
  Op.SHORT_BINBYTES,
  Op.BINBYTES,
  Op.BINBYTES8,
  Op.BYTEARRAY8,
]) {
  SELF_MADE[op] = 1;
}

/**
 * As countMemoized, and where each memoized object starts: a part of a parallel decode reads an
 * object that an earlier part memoized (a frame dict, a frames list, a string) again from the
 * bytes (see foreign-memo.ts), knowing only its memo index. Starts are relative to `relativeTo`
 * (by default `from`); parts are < 4 GiB (Uint32 offsets).
 */
export function scanMemoObjects(
  bytes: Uint8Array,
  from: number,
  to: number,
  relativeTo = from,
): MemoObjects {
  const scan = new MemoScan(relativeTo);
  const end = Math.min(to, bytes.length);
  const step = scan.step(bytes, 0, from, end);
  return scan.result(step.stoppedAt, step.sawStop);
}

/** Bytes a windowed memo scan reads at a time (scanMemoObjectsFrom). */
const SCAN_WINDOW_BYTES = 8 << 20;
/** The longest single opcode a windowed scan grows its window to (a long string). */
const MAX_SCAN_WINDOW_BYTES = 256 << 20;

/**
 * scanMemoObjects over a ByteSource read window by window (a thread that does not hold the file):
 * the same answer, the scan's state carried from one window to the next.
 */
export function scanMemoObjectsFrom(
  source: ByteSource,
  from: number,
  to: number,
  windowBytes = SCAN_WINDOW_BYTES,
  relativeTo = from,
): MemoObjects {
  if (source.whole !== undefined) return scanMemoObjects(source.whole, from, to, relativeTo);
  const scan = new MemoScan(relativeTo);
  const end = scanInWindows(source, from, to, windowBytes, scan);
  return scan.result(end.stoppedAt, end.sawStop);
}

/**
 * Where a scan of one window stopped (absolute), whether at STOP, and whether the opcode there is
 * one the scan knows, cut by the window's end (it may be whole in a longer window).
 */
interface ScanStop {
  stoppedAt: number;
  sawStop: boolean;
  cut: boolean;
}

/** A scan whose state carries from one window of the input to the next. */
interface WindowedScan {
  /** Scans `bytes` (holding the input from offset `origin`) from the absolute `begin` to `end`. */
  step(bytes: Uint8Array, origin: number, begin: number, end: number): ScanStop;
}

/** Runs `scan` over [from, to) of `source`, a window at a time; where and how it stopped. */
function scanInWindows(
  source: ByteSource,
  from: number,
  to: number,
  windowBytes: number,
  scan: WindowedScan,
): { stoppedAt: number; sawStop: boolean } {
  const end = Math.min(to, source.size);
  if (source.whole !== undefined) return scan.step(source.whole, 0, from, end);
  let pos = from;
  let size = windowBytes;
  for (;;) {
    const window = source.read(pos, Math.min(size, end - pos));
    const windowEnd = pos + window.length;
    const step = scan.step(window, pos, pos, windowEnd);
    // The window's end (not the range's) reached, or an opcode cut by it: read on from there.
    const windowDone = step.cut || (step.stoppedAt === windowEnd && !step.sawStop);
    if (windowDone && windowEnd < end) {
      if (step.stoppedAt === pos) {
        if (size >= MAX_SCAN_WINDOW_BYTES) return { stoppedAt: pos, sawStop: false };
        size *= 2;
      } else {
        size = windowBytes;
      }
      pos = step.stoppedAt;
      continue;
    }
    return step;
  }
}

/**
 * Whether the opcode at `pos`, which opcodeEnd could not step within `end`, is a known one cut
 * there (not an opcode the scan does not know, nor a length past 2^32).
 */
function cutByEnd(bytes: Uint8Array, view: DataView, pos: number, end: number): boolean {
  const op = bytes[pos]!;
  if (FIXED_ARGUMENT[op]! >= 0) return true;
  if (!VARIABLE_LENGTH.has(op)) return false;
  // Its header is cut, or it declares more bytes than are left.
  if (pos + 9 > end) return true;
  return opcodeEnd(bytes, view, pos, Number.MAX_SAFE_INTEGER) !== NOT_SCANNED;
}

const VARIABLE_LENGTH = new Set<number>([
  Op.SHORT_BINUNICODE,
  Op.SHORT_BINBYTES,
  Op.LONG1,
  Op.BINUNICODE,
  Op.BINBYTES,
  Op.LONG4,
  Op.BINUNICODE8,
  Op.BINBYTES8,
  Op.BYTEARRAY8,
]);

/** A memo scan's state, carried across the windows of one range. */
class MemoScan implements WindowedScan {
  private starts = new Uint32Array(1 << 12);
  private memoized = 0;
  // Starts (absolute) and opcodes of the last four opcodes (a TUPLE3's items and the tuple).
  private readonly lastStarts = [-1, -1, -1, -1];
  private readonly lastOps = [-1, -1, -1, -1];

  /** `from`: what the starts are relative to. */
  constructor(private readonly from: number) {}

  step(bytes: Uint8Array, origin: number, begin: number, end: number): ScanStop {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const localEnd = end - origin;
    const from = this.from;
    let starts = this.starts;
    let memoized = this.memoized;
    let [start1, start2, start3, start4] = this.lastStarts as [number, number, number, number];
    let [op1, op2, op3, op4] = this.lastOps as [number, number, number, number];
    let pos = begin - origin;
    let stoppedAt = -1;
    let sawStop = false;
    let cut = false;
    while (pos < localEnd) {
      const op = bytes[pos]!;
      if (op === Op.MEMOIZE) {
        let start = NO_START;
        if (SELF_MADE[op1] === 1) start = start1 - from;
        else if (op1 === Op.TUPLE1 && SCALAR[op2] === 1) start = start2 - from;
        else if (op1 === Op.TUPLE2 && SCALAR[op2] === 1 && SCALAR[op3] === 1) start = start3 - from;
        else if (op1 === Op.TUPLE3 && SCALAR[op2] === 1 && SCALAR[op3] === 1 && SCALAR[op4] === 1)
          start = start4 - from;
        if (memoized === starts.length) {
          const grown = new Uint32Array(starts.length * 2);
          grown.set(starts);
          starts = grown;
        }
        starts[memoized++] = start;
      } else if (op === Op.STOP) {
        stoppedAt = pos + 1;
        sawStop = true;
        break;
      } else if (op === Op.BINPUT || op === Op.LONG_BINPUT) {
        stoppedAt = pos;
        break;
      }
      const after = opcodeEnd(bytes, view, pos, localEnd);
      if (after === NOT_SCANNED) {
        stoppedAt = pos;
        cut = cutByEnd(bytes, view, pos, localEnd);
        break;
      }
      start4 = start3;
      start3 = start2;
      start2 = start1;
      start1 = origin + pos;
      op4 = op3;
      op3 = op2;
      op2 = op1;
      op1 = op;
      pos = after;
    }
    this.starts = starts;
    this.memoized = memoized;
    this.lastStarts.splice(0, 4, start1, start2, start3, start4);
    this.lastOps.splice(0, 4, op1, op2, op3, op4);
    return { stoppedAt: origin + (stoppedAt >= 0 ? stoppedAt : pos), sawStop, cut };
  }

  result(stoppedAt: number, sawStop: boolean): MemoObjects {
    return {
      memoized: this.memoized,
      starts: this.starts.slice(0, this.memoized),
      stoppedAt,
      sawStop,
    };
  }
}

/**
 * A memo count's state, carried across the windows of one range: the count, and where each block
 * of `block` MEMOIZE opcodes ends (relative to `from`).
 */
class MemoCounter implements WindowedScan {
  memoized = 0;
  checkpoints = new Uint32Array(64);
  checkpointCount = 0;

  constructor(
    private readonly from: number,
    private readonly block: number,
  ) {}

  step(bytes: Uint8Array, origin: number, begin: number, end: number): ScanStop {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const localEnd = end - origin;
    let pos = begin - origin;
    let memoized = this.memoized;
    let nextCheckpoint = (this.checkpointCount + 1) * this.block;
    let opStart = pos;
    try {
      while (pos < localEnd) {
        opStart = pos;
        // The opcodes of a trace entry, inline (this loop runs once per opcode of the file); every
        // step that may pass `end` is checked by the loop's condition, and then the scan stops at
        // the opcode that `end` cuts.
        switch (bytes[pos]!) {
          case Op.MEMOIZE:
            memoized++;
            pos += 1;
            if (memoized === nextCheckpoint) {
              this.checkpoint(origin + pos - this.from);
              nextCheckpoint += this.block;
            }
            continue;
          case Op.MARK:
          case Op.EMPTY_DICT:
          case Op.EMPTY_LIST:
          case Op.SETITEMS:
          case Op.APPENDS:
          case Op.APPEND:
          case Op.TUPLE2:
          case Op.NEWTRUE:
          case Op.NEWFALSE:
          case Op.NONE:
            pos += 1;
            continue;
          case Op.BINGET:
          case Op.BININT1:
            pos += 2;
            continue;
          case Op.BININT2:
            pos += 3;
            continue;
          case Op.LONG_BINGET:
          case Op.BININT:
            pos += 5;
            continue;
          case Op.LONG1:
          case Op.SHORT_BINUNICODE:
            if (pos + 1 >= localEnd) return { stoppedAt: origin + pos, sawStop: false, cut: true };
            pos += 2 + bytes[pos + 1]!;
            continue;
          case Op.STOP:
            return { stoppedAt: origin + pos + 1, sawStop: true, cut: false };
          case Op.BINPUT:
          case Op.LONG_BINPUT:
            return { stoppedAt: origin + pos, sawStop: false, cut: false };
          default: {
            const after = opcodeEnd(bytes, view, pos, localEnd);
            if (after === NOT_SCANNED) {
              const cut = cutByEnd(bytes, view, pos, localEnd);
              return { stoppedAt: origin + pos, sawStop: false, cut };
            }
            pos = after;
          }
        }
      }
      // Past `end`: the last opcode is cut by it, and the scan stopped where that opcode starts.
      if (pos > localEnd) return { stoppedAt: origin + opStart, sawStop: false, cut: true };
      return { stoppedAt: origin + pos, sawStop: false, cut: false };
    } finally {
      this.memoized = memoized;
    }
  }

  result(stoppedAt: number, sawStop: boolean): MemoCheckpoints {
    const checkpoints = this.checkpoints.slice(0, this.checkpointCount);
    return { memoized: this.memoized, stoppedAt, sawStop, block: this.block, checkpoints };
  }

  private checkpoint(offset: number): void {
    if (this.checkpointCount === this.checkpoints.length) {
      const grown = new Uint32Array(this.checkpoints.length * 2);
      grown.set(this.checkpoints);
      this.checkpoints = grown;
    }
    this.checkpoints[this.checkpointCount++] = offset;
  }
}
