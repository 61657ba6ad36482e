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
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = Math.min(to, bytes.length);
  let pos = from;
  let memoized = 0;
  let opStart = pos;
  while (pos < end) {
    opStart = pos;
    const op = bytes[pos]!;
    // The opcodes of a trace entry, inline (this loop runs once per opcode of the file); every
    // step that may pass `end` is checked by the final comparison, which stops the scan.
    switch (op) {
      case Op.MEMOIZE:
        memoized++;
        pos += 1;
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
        if (pos + 1 >= end) break;
        pos += 2 + bytes[pos + 1]!;
        continue;
      case Op.STOP:
        return { memoized, stoppedAt: pos + 1, sawStop: true };
      case Op.BINPUT:
      case Op.LONG_BINPUT:
        return { memoized, stoppedAt: pos, sawStop: false };
      default: {
        const after = opcodeEnd(bytes, view, pos, end);
        if (after === NOT_SCANNED) return { memoized, stoppedAt: pos, sawStop: false };
        pos = after;
        continue;
      }
    }
    // An opcode cut by `end`.
    return { memoized, stoppedAt: pos, sawStop: false };
  }
  // Past `end`: the last opcode is cut by it, and the scan stopped where that opcode starts.
  return { memoized, stoppedAt: pos > end ? opStart : pos, sawStop: false };
}

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
 * bytes (see foreign-memo.ts), knowing only its memo index. Parts are < 4 GiB (Uint32 offsets).
 */
export function scanMemoObjects(bytes: Uint8Array, from: number, to: number): MemoObjects {
  const scan = new MemoScan(from);
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
): MemoObjects {
  if (source.whole !== undefined) return scanMemoObjects(source.whole, from, to);
  const end = Math.min(to, source.size);
  const scan = new MemoScan(from);
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
        if (size >= MAX_SCAN_WINDOW_BYTES) return scan.result(pos, false);
        size *= 2;
      } else {
        size = windowBytes;
      }
      pos = step.stoppedAt;
      continue;
    }
    return scan.result(step.stoppedAt, step.sawStop);
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
class MemoScan {
  private starts = new Uint32Array(1 << 12);
  private memoized = 0;
  // Starts (absolute) and opcodes of the last four opcodes (a TUPLE3's items and the tuple).
  private readonly lastStarts = [-1, -1, -1, -1];
  private readonly lastOps = [-1, -1, -1, -1];

  constructor(private readonly from: number) {}

  /**
   * Scans `bytes` (holding the input from offset `origin`) from the absolute offset `begin` up to
   * `end`. stoppedAt: absolute; `cut`: the opcode there is one the scan knows, cut by `end` (it
   * may be whole in a longer window).
   */
  step(
    bytes: Uint8Array,
    origin: number,
    begin: number,
    end: number,
  ): { stoppedAt: number; sawStop: boolean; cut: boolean } {
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
