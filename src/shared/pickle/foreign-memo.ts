// Objects memoized by an earlier part of a parallel decode, read again from the bytes. A part
// starts in the middle of a trace list (../snapshot/trace-split-plan.ts) and its entries name,
// by memo index, objects that only an earlier part decoded: frame dicts, frames lists, strings
// (measured on the bench's 100 MB file: ~2.9 M references to ~290 distinct such objects per part).
// Knowing every part's memo base and its memo counted with checkpoints (countMemoCheckpoints in
// ./opcode-scan.ts), a part finds where such an object starts by scanning the one block of the
// count that holds it, and reads it once, itself, without waiting for the part that owns it.
//
// An object is read from its first opcode until the opcodes after it take it into its parent
// rather than fill it (a list or dict is filled in batches: `MARK items APPENDS`, `item APPEND`,
// ...): those are stepped through by their stack effects alone (continues()). Anything outside
// plain data (an opcode a snapshot never holds, a key that is not a string, no answer within
// 1 MiB) makes get() answer undefined: the caller then decodes the file on one worker.

import { sourceOf, type ByteSource } from './byte-source';
import { decodeLong } from './long-decoder';
import { blockStarts, NO_START, NOT_SCANNED, opcodeEnd, type CountedRange } from './opcode-scan';
import { Op } from './opcodes';
import { PickleStringDecoder } from './string-decoder';

/**
 * A part's memo entries: the first one's index, and their count from the part's first byte
 * (`from`) with its checkpoints (countMemoCheckpoints), where each object's start is found again.
 */
export interface MemoPart extends CountedRange {
  base: number;
}

/** How far past an object the opcodes are stepped through to tell whether it goes on. */
const LOOKAHEAD_BYTES = 1 << 20;
/**
 * Windows read for an object where the input is not in memory (ForeignMemo.readAt), each tried
 * where the one before was too short: a frame dict or frames list and the look past it fit in the
 * first; the last reaches as far as any object a snapshot memoizes.
 */
const WINDOW_BYTES = [16 << 10, 2 << 20, 64 << 20];
/** Objects nested in objects read again (a frames list's new frame dicts): a bound on recursion. */
const MAX_DEPTH = 32;

// Opcodes that push one value made of nothing else (a BINGET's value is read separately).
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
  Op.SHORT_BINBYTES,
  Op.BINBYTES,
  Op.BINBYTES8,
  Op.BYTEARRAY8,
  Op.BINGET,
  Op.LONG_BINGET,
]) {
  SCALAR[op] = 1;
}

type Container = Record<string, unknown> | unknown[];

export class ForeignMemo {
  private readonly source: ByteSource;
  // The bytes objects are read from: the whole input, or a window of it beginning at the object
  // (a thread that does not hold the file; see readAt()).
  private bytes: Uint8Array;
  private view: DataView;
  private readonly parts: readonly MemoPart[];
  private readonly strings = new PickleStringDecoder();
  private readonly cache = new Map<number, unknown>();
  // Per part, the starts of each block scanned so far (null: the block was not as counted).
  private readonly blocks: Map<number, Uint32Array | null>[];

  constructor(input: Uint8Array | ByteSource, parts: readonly MemoPart[]) {
    this.source = sourceOf(input);
    this.bytes = this.source.whole ?? new Uint8Array(0);
    this.view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    this.parts = parts;
    this.blocks = parts.map(() => new Map());
  }

  /** The object memoized at `index`, read again from the bytes; undefined when it cannot be. */
  get(index: number): unknown {
    return this.read(index, 0);
  }

  private read(index: number, depth: number): unknown {
    if (this.cache.has(index)) return this.cache.get(index);
    if (depth > MAX_DEPTH) return undefined;
    const start = this.startOf(index);
    const value = start < 0 ? undefined : this.readAt(start, index, depth);
    this.cache.set(index, value);
    return value;
  }

  /**
   * decodeAt on the whole input, or on a window read from `start`: first a small one, then, where
   * the object or the look past it needs more, longer ones (WINDOW_BYTES), so that the answer is
   * the one from the whole input. The window of the object that named this one is put back after.
   */
  private readAt(start: number, index: number, depth: number): unknown {
    if (this.source.whole !== undefined) return this.decodeAt(start, index, depth);
    const saved = { bytes: this.bytes, view: this.view };
    try {
      for (const size of WINDOW_BYTES) {
        this.bytes = this.source.read(start, size);
        this.view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
        const value = this.decodeAt(0, index, depth);
        if (value !== undefined || start + this.bytes.length >= this.source.size) return value;
      }
      return undefined;
    } finally {
      this.bytes = saved.bytes;
      this.view = saved.view;
    }
  }

  private startOf(index: number): number {
    const parts = this.parts;
    let low = 0;
    let high = parts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (parts[middle]!.base <= index) low = middle;
      else high = middle - 1;
    }
    const part = parts[low];
    if (part === undefined || index < part.base || index - part.base >= part.memoized) return -1;
    const local = index - part.base;
    const block = Math.floor(local / part.block);
    const blocks = this.blocks[low]!;
    let starts = blocks.get(block);
    if (starts === undefined) {
      starts = blockStarts(this.source, part, block);
      blocks.set(block, starts);
    }
    const start = starts?.[local - block * part.block];
    return start === undefined || start === NO_START ? -1 : part.from + start;
  }

  /** Runs the opcodes of the object memoized as `index` from `pos`, until CPython ends it. */
  private decodeAt(pos: number, index: number, depth: number): unknown {
    const bytes = this.bytes;
    const view = this.view;
    const end = bytes.length;
    const stack: unknown[] = [];
    const marks: number[] = [];
    // Memo entries made while reading this object: index, index + 1, ...
    const own: unknown[] = [];
    for (;;) {
      if (pos >= end) return undefined;
      if (stack.length === 1 && marks.length === 0 && own.length > 0) {
        const more = this.continues(stack[0], pos);
        if (more === undefined) return undefined;
        if (!more) return stack[0];
      }
      const op = bytes[pos]!;
      const after = opcodeEnd(bytes, view, pos, end);
      if (after === NOT_SCANNED) return undefined;
      switch (op) {
        case Op.FRAME:
          break;
        case Op.MEMOIZE:
          if (stack.length === 0) return undefined;
          own.push(stack[stack.length - 1]);
          break;
        case Op.BINGET:
        case Op.LONG_BINGET: {
          const target = op === Op.BINGET ? bytes[pos + 1]! : view.getUint32(pos + 1, true);
          let value: unknown;
          if (target >= index && target - index < own.length) value = own[target - index];
          else if (target < index) value = this.read(target, depth + 1);
          if (value === undefined) return undefined;
          stack.push(value);
          break;
        }
        case Op.MARK:
          marks.push(stack.length);
          break;
        case Op.EMPTY_DICT:
          stack.push({});
          break;
        case Op.EMPTY_LIST:
          stack.push([]);
          break;
        case Op.EMPTY_TUPLE:
          stack.push(Object.freeze([]));
          break;
        case Op.TUPLE1:
        case Op.TUPLE2:
        case Op.TUPLE3: {
          const count = op - Op.TUPLE1 + 1;
          if (stack.length - (marks.at(-1) ?? 0) < count) return undefined;
          stack.push(Object.freeze(stack.splice(stack.length - count, count)));
          break;
        }
        case Op.TUPLE: {
          const from = marks.pop();
          if (from === undefined) return undefined;
          stack.push(Object.freeze(stack.splice(from, stack.length - from)));
          break;
        }
        case Op.SETITEMS:
        case Op.APPENDS: {
          const from = marks.pop();
          if (from === undefined || from < 1) return undefined;
          const target = stack[from - 1];
          const filled =
            op === Op.SETITEMS
              ? setItems(target, stack, from, stack.length)
              : appendItems(target, stack, from, stack.length);
          if (!filled) return undefined;
          stack.length = from;
          break;
        }
        case Op.SETITEM:
        case Op.APPEND: {
          const pairs = op === Op.SETITEM ? 2 : 1;
          const from = stack.length - pairs;
          if (from < 1 || from - 1 < (marks.at(-1) ?? 0)) return undefined;
          const target = stack[from - 1];
          const filled =
            op === Op.SETITEM
              ? setItems(target, stack, from, stack.length)
              : appendItems(target, stack, from, stack.length);
          if (!filled) return undefined;
          stack.length = from;
          break;
        }
        default: {
          if (SCALAR[op] !== 1) return undefined;
          stack.push(this.scalar(op, pos));
        }
      }
      pos = after;
      // A string or tuple ends with its own MEMOIZE.
      if (
        stack.length === 1 &&
        marks.length === 0 &&
        own.length > 0 &&
        !isOpenContainer(stack[0])
      ) {
        return stack[0];
      }
    }
  }

  /**
   * Whether the opcodes at `pos` go on filling the object: they are stepped through (lengths and
   * stack effects only, never values) until one of them either fills it (true) or takes it into
   * its parent (false). Undefined when no answer comes within LOOKAHEAD_BYTES or the opcodes are
   * not plain data.
   */
  private continues(object: unknown, pos: number): boolean | undefined {
    if (!isOpenContainer(object)) return false;
    // Values pushed above the object, per MARK opened since (levels[0]: right above it).
    const levels = [0];
    const limit = Math.min(this.bytes.length, pos + LOOKAHEAD_BYTES);
    while (pos < limit) {
      const op = this.bytes[pos]!;
      const level = levels.length - 1;
      const top = levels[level]!;
      switch (op) {
        case Op.FRAME:
        case Op.MEMOIZE:
          break;
        case Op.MARK:
          levels.push(0);
          break;
        case Op.EMPTY_DICT:
        case Op.EMPTY_LIST:
        case Op.EMPTY_TUPLE:
          levels[level] = top + 1;
          break;
        case Op.APPEND:
        case Op.SETITEM: {
          const needs = op === Op.APPEND ? 2 : 3;
          if (top >= needs) levels[level] = top - (needs - 1);
          else if (level > 0) return undefined;
          // The target is the object itself, or the object is an item of its parent.
          else return top === needs - 1;
          break;
        }
        case Op.TUPLE1:
        case Op.TUPLE2:
        case Op.TUPLE3: {
          const count = op - Op.TUPLE1 + 1;
          if (top >= count) levels[level] = top - count + 1;
          else if (level > 0) return undefined;
          else return false;
          break;
        }
        case Op.SETITEMS:
        case Op.APPENDS:
          if (level === 0) return false;
          levels.pop();
          // Right above the object, the MARK's target is the object.
          if (level === 1 && levels[0] === 0) return true;
          break;
        case Op.TUPLE:
        case Op.LIST:
        case Op.DICT:
          if (level === 0) return false;
          levels.pop();
          levels[level - 1]! += 1;
          break;
        case Op.STOP:
          return false;
        default:
          if (SCALAR[op] !== 1) return undefined;
          levels[level] = top + 1;
      }
      const next = this.after(pos);
      if (next < 0) return undefined;
      pos = next;
    }
    return undefined;
  }

  private after(pos: number): number {
    return opcodeEnd(this.bytes, this.view, pos, this.bytes.length);
  }

  private scalar(op: number, pos: number): unknown {
    const bytes = this.bytes;
    const view = this.view;
    switch (op) {
      case Op.BININT1:
        return bytes[pos + 1]!;
      case Op.BININT2:
        return bytes[pos + 1]! | (bytes[pos + 2]! << 8);
      case Op.BININT:
        return view.getInt32(pos + 1, true);
      case Op.LONG1:
        return decodeLong(bytes, pos + 2, bytes[pos + 1]!);
      case Op.LONG4:
        return decodeLong(bytes, pos + 5, view.getUint32(pos + 1, true));
      case Op.BINFLOAT:
        return view.getFloat64(pos + 1, false);
      case Op.NONE:
        return null;
      case Op.NEWTRUE:
        return true;
      case Op.NEWFALSE:
        return false;
      case Op.SHORT_BINUNICODE:
        return this.strings.decode(bytes, pos + 2, bytes[pos + 1]!);
      case Op.BINUNICODE:
        return this.strings.decode(bytes, pos + 5, view.getUint32(pos + 1, true));
      case Op.BINUNICODE8:
        return this.strings.decode(bytes, pos + 9, view.getUint32(pos + 1, true));
      case Op.SHORT_BINBYTES:
        return bytes.slice(pos + 2, pos + 2 + bytes[pos + 1]!);
      case Op.BINBYTES:
        return bytes.slice(pos + 5, pos + 5 + view.getUint32(pos + 1, true));
      default:
        // BINBYTES8 / BYTEARRAY8 (lengths below 4 GiB: opcodeEnd refused the others).
        return bytes.slice(pos + 9, pos + 9 + view.getUint32(pos + 1, true));
    }
  }
}

/** A list or dict (tuples are frozen: complete when made). */
function isOpenContainer(value: unknown): value is Container {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.isExtensible(value) &&
    !(value instanceof Uint8Array)
  );
}

function setItems(target: unknown, stack: unknown[], from: number, to: number): boolean {
  if (!isOpenContainer(target) || Array.isArray(target) || (to - from) % 2 !== 0) return false;
  for (let i = from; i < to; i += 2) {
    const key = stack[i];
    // Snapshots key their dicts by strings; other keys are left to the full decoder's rules.
    if (typeof key !== 'string') return false;
    Object.defineProperty(target, key, {
      value: stack[i + 1],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return true;
}

function appendItems(target: unknown, stack: unknown[], from: number, to: number): boolean {
  if (!Array.isArray(target) || !Object.isExtensible(target)) return false;
  for (let i = from; i < to; i++) target.push(stack[i]);
  return true;
}
