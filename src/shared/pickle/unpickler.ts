// A streaming unpickler for plain data (protocols 2-5). Bytes arrive in chunks of any size; an
// opcode cut by a chunk boundary is resumed when the next chunk comes. Opcodes that would load
// Python code are refused. The memo is kept as-is, so objects that Python shared (PyTorch's
// frame dicts and stack lists) stay shared: one JS object, referenced many times.
//
// A DictInterceptor can take over dicts as SETITEMS fills them (the snapshot decoder turns trace
// entries into table rows that way), so millions of short-lived records never become objects.

import { CODE_LOADING_OPCODES, Op, UNSUPPORTED_OPCODES } from './opcodes';
import { CodeLoadingRefusedError, PickleError } from './pickle-error';
import { decodeLong } from './long-decoder';
import { PickleStringDecoder } from './string-decoder';
import { Memo } from './memo';
import { FlatDictReader, NOT_FLAT, type FlatDictConsumer } from './flat-dict-reader';

export type PickleValue =
  null | boolean | number | bigint | string | Uint8Array | PickleValue[] | PickleDict;

export interface PickleDict {
  [key: string]: PickleValue;
}

/** Stands on the stack (and in the memo) for a dict that an interceptor consumed. */
export const CONSUMED_DICT: Readonly<{ consumedDict: true }> = Object.freeze({
  consumedDict: true,
});

export interface DictInterceptor {
  /**
   * Offered every SETITEMS, with the key/value pairs at stack[from..to). Returns true when it took
   * the items; the dict is then replaced by CONSUMED_DICT. It must leave non-empty dicts alone.
   */
  consumeDict(
    dict: PickleDict,
    stack: readonly unknown[],
    from: number,
    to: number,
    offset: number,
  ): boolean;
  /** `count` consumed dicts were appended to `list`; they are the `count` most recently consumed. */
  appendConsumed(list: PickleValue[], count: number, offset: number): void;
}

export interface UnpicklerOptions {
  interceptor?: DictInterceptor;
  /** Reads flat dicts (trace entries) straight from the bytes; see flat-dict-reader.ts. */
  flatDictConsumer?: FlatDictConsumer;
}

// Consumed dicts are looked for this far back in the memo: the dict is memoized right after
// EMPTY_DICT, and only objects first seen inside it come after.
const MEMO_TOMBSTONE_SCAN = 256;
// Enough for any opcode but long strings and bytes.
const BRIDGE_BYTES = 1 << 16;

export class Unpickler {
  private readonly interceptor: DictInterceptor | undefined;
  private readonly strings = new PickleStringDecoder();
  private stack: unknown[] = [];
  private marks: number[] = [];
  private readonly memo: Memo;
  private pending: Uint8Array | null = null;
  /** Absolute offset of the first byte of `pending` (or of the next chunk when none). */
  private pendingOffset = 0;
  private finished = false;
  private result: unknown = undefined;
  private protocolVersion = -1;

  private readonly flatDicts: FlatDictReader | null;

  constructor(options: UnpicklerOptions = {}) {
    this.interceptor = options.interceptor;
    const materializeHandle = options.flatDictConsumer?.materializeHandle.bind(
      options.flatDictConsumer,
    );
    this.memo = new Memo({
      consumedValue: CONSUMED_DICT,
      ...(materializeHandle === undefined ? {} : { materializeHandle }),
    });
    this.flatDicts =
      options.flatDictConsumer === undefined
        ? null
        : new FlatDictReader(options.flatDictConsumer, this.strings);
  }

  /** The protocol from the PROTO opcode, or -1 before it was seen. */
  get protocol(): number {
    return this.protocolVersion;
  }

  get done(): boolean {
    return this.finished;
  }

  /** Bytes fully decoded so far (excludes an opcode waiting for the next chunk). */
  get bytesDecoded(): number {
    return this.pendingOffset;
  }

  feed(chunk: Uint8Array): void {
    if (this.finished || chunk.length === 0) return;
    if (this.pendingOffset === 0 && this.pending === null && chunk[0] !== Op.PROTO) {
      throw new PickleError(
        `not a pickle of protocol 2 to 5: the first byte is 0x${chunk[0]!.toString(16).padStart(2, '0')}, expected 0x80 (PROTO)`,
        0,
      );
    }
    let rest = chunk;
    const pending = this.pending;
    if (pending !== null) {
      // Finish the opcode cut by the chunk boundary on a small joined buffer, then go on in the
      // chunk itself: joining whole chunks would copy every byte of the file once more.
      const bridge = joinBytes(pending, chunk.subarray(0, BRIDGE_BYTES));
      const stoppedAt = this.run(bridge, pending.length);
      if (this.finished) return this.release();
      if (stoppedAt > 0) {
        this.pendingOffset += stoppedAt;
        this.pending = null;
        rest = chunk.subarray(stoppedAt - pending.length);
      } else {
        // One opcode larger than the bridge (a long string): join it all.
        rest = joinBytes(pending, chunk);
        this.pending = null;
      }
    }
    const stoppedAt = this.run(rest, rest.length);
    if (this.finished) return this.release();
    this.pending = stoppedAt < rest.length ? rest.slice(stoppedAt) : null;
    this.pendingOffset += stoppedAt;
  }

  private release(): void {
    this.pending = null;
  }

  /** Call after the last chunk; returns the unpickled value. */
  finish(): unknown {
    if (!this.finished) {
      const offset = this.pendingOffset + (this.pending?.length ?? 0);
      if (this.pendingOffset === 0 && (this.pending?.length ?? 0) === 0) {
        throw new PickleError('empty input: no pickle data', 0);
      }
      throw new PickleError(
        'truncated: the data ends before the pickle is complete (no STOP opcode)',
        offset,
      );
    }
    return this.result;
  }

  /**
   * Runs opcodes from buffer[0] until the first opcode boundary at or past `limit`; returns where
   * it stopped (an incomplete opcode starts there).
   */
  private run(buffer: Uint8Array, limit: number): number {
    const base = this.pendingOffset;
    const end = buffer.length;
    const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    const stack = this.stack;
    const memo = this.memo;
    let pos = 0;

    while (pos < limit) {
      const opStart = pos;
      const op = buffer[pos++]!;
      switch (op) {
        case Op.BINGET: {
          if (pos + 1 > end) return opStart;
          stack.push(this.memoGet(buffer[pos]!, base + opStart));
          pos += 1;
          break;
        }
        case Op.LONG_BINGET: {
          if (pos + 4 > end) return opStart;
          stack.push(this.memoGet(view.getUint32(pos, true), base + opStart));
          pos += 4;
          break;
        }
        case Op.MEMOIZE:
          memo.push(this.top(base + opStart));
          break;
        case Op.BININT1:
          if (pos + 1 > end) return opStart;
          stack.push(buffer[pos]!);
          pos += 1;
          break;
        case Op.BININT2:
          if (pos + 2 > end) return opStart;
          stack.push(buffer[pos]! | (buffer[pos + 1]! << 8));
          pos += 2;
          break;
        case Op.BININT:
          if (pos + 4 > end) return opStart;
          stack.push(view.getInt32(pos, true));
          pos += 4;
          break;
        case Op.LONG1: {
          if (pos + 1 > end) return opStart;
          const length = buffer[pos]!;
          if (pos + 1 + length > end) return opStart;
          stack.push(decodeLong(buffer, pos + 1, length));
          pos += 1 + length;
          break;
        }
        case Op.MARK:
          this.marks.push(stack.length);
          break;
        case Op.EMPTY_DICT:
          if (this.flatDicts !== null) {
            const after = this.flatDicts.read(buffer, view, pos, memo, base);
            if (after !== NOT_FLAT) {
              stack.push(CONSUMED_DICT);
              pos = after;
              break;
            }
          }
          stack.push({});
          break;
        case Op.EMPTY_LIST:
          stack.push([]);
          break;
        case Op.SHORT_BINUNICODE: {
          if (pos + 1 > end) return opStart;
          const length = buffer[pos]!;
          if (pos + 1 + length > end) return opStart;
          stack.push(this.strings.decode(buffer, pos + 1, length));
          pos += 1 + length;
          break;
        }
        case Op.SETITEMS:
          this.setItems(base + opStart);
          break;
        case Op.APPENDS:
          this.appends(base + opStart);
          break;
        case Op.SETITEM: {
          const from = stack.length - 2;
          if (from < 1 || from - 1 < this.lastMark()) {
            throw new PickleError(
              'SETITEM needs a dict, a key and a value on the stack',
              base + opStart,
            );
          }
          this.fillDict(from, stack.length, base + opStart);
          stack.length = from;
          break;
        }
        case Op.APPEND: {
          const from = stack.length - 1;
          if (from < 1 || from - 1 < this.lastMark()) {
            throw new PickleError('APPEND needs a list and an item on the stack', base + opStart);
          }
          this.fillList(from, stack.length, base + opStart);
          stack.length = from;
          break;
        }
        case Op.TUPLE2: {
          if (stack.length - this.lastMark() < 2) throw this.underflow('TUPLE2', base + opStart);
          const second = stack.pop();
          const first = stack.pop();
          stack.push([first, second]);
          break;
        }
        case Op.NEWTRUE:
          stack.push(true);
          break;
        case Op.NEWFALSE:
          stack.push(false);
          break;
        case Op.NONE:
          stack.push(null);
          break;
        case Op.BINUNICODE: {
          if (pos + 4 > end) return opStart;
          const length = view.getUint32(pos, true);
          if (pos + 4 + length > end) return opStart;
          stack.push(this.strings.decode(buffer, pos + 4, length));
          pos += 4 + length;
          break;
        }
        case Op.BINUNICODE8: {
          if (pos + 8 > end) return opStart;
          const length = this.readUint64(view, pos, base + opStart);
          if (pos + 8 + length > end) return opStart;
          stack.push(this.strings.decode(buffer, pos + 8, length));
          pos += 8 + length;
          break;
        }
        case Op.BINFLOAT:
          if (pos + 8 > end) return opStart;
          stack.push(view.getFloat64(pos, false));
          pos += 8;
          break;
        case Op.FRAME:
          // Framing only groups opcodes for buffered reads; the opcodes inside are decoded as usual.
          if (pos + 8 > end) return opStart;
          pos += 8;
          break;
        case Op.BINPUT: {
          if (pos + 1 > end) return opStart;
          memo.set(buffer[pos]!, this.top(base + opStart));
          pos += 1;
          break;
        }
        case Op.LONG_BINPUT: {
          if (pos + 4 > end) return opStart;
          const index = view.getUint32(pos, true);
          if (index > memo.length + 1_000_000) {
            throw new PickleError(`memo index ${index} is implausibly large`, base + opStart);
          }
          memo.set(index, this.top(base + opStart));
          pos += 4;
          break;
        }
        case Op.LONG4: {
          if (pos + 4 > end) return opStart;
          const length = view.getInt32(pos, true);
          if (length < 0) throw new PickleError('LONG4 with a negative length', base + opStart);
          if (pos + 4 + length > end) return opStart;
          stack.push(decodeLong(buffer, pos + 4, length));
          pos += 4 + length;
          break;
        }
        case Op.SHORT_BINBYTES: {
          if (pos + 1 > end) return opStart;
          const length = buffer[pos]!;
          if (pos + 1 + length > end) return opStart;
          stack.push(buffer.slice(pos + 1, pos + 1 + length));
          pos += 1 + length;
          break;
        }
        case Op.BINBYTES: {
          if (pos + 4 > end) return opStart;
          const length = view.getUint32(pos, true);
          if (pos + 4 + length > end) return opStart;
          stack.push(buffer.slice(pos + 4, pos + 4 + length));
          pos += 4 + length;
          break;
        }
        case Op.BINBYTES8:
        case Op.BYTEARRAY8: {
          if (pos + 8 > end) return opStart;
          const length = this.readUint64(view, pos, base + opStart);
          if (pos + 8 + length > end) return opStart;
          stack.push(buffer.slice(pos + 8, pos + 8 + length));
          pos += 8 + length;
          break;
        }
        case Op.TUPLE1: {
          if (stack.length - this.lastMark() < 1) throw this.underflow('TUPLE1', base + opStart);
          stack.push([stack.pop()]);
          break;
        }
        case Op.TUPLE3: {
          if (stack.length - this.lastMark() < 3) throw this.underflow('TUPLE3', base + opStart);
          const third = stack.pop();
          const second = stack.pop();
          const first = stack.pop();
          stack.push([first, second, third]);
          break;
        }
        case Op.EMPTY_TUPLE:
          stack.push([]);
          break;
        case Op.TUPLE:
        case Op.LIST: {
          const from = this.popMark(base + opStart);
          const items = stack.slice(from);
          stack.length = from;
          stack.push(items);
          break;
        }
        case Op.DICT: {
          const from = this.popMark(base + opStart);
          // Same path as SETITEMS: the dict goes just below its items.
          stack.splice(from, 0, {});
          this.fillDict(from + 1, stack.length, base + opStart);
          stack.length = from + 1;
          break;
        }
        case Op.POP:
          if (stack.length === this.lastMark()) {
            this.popMark(base + opStart);
          } else if (stack.length === 0) {
            throw this.underflow('POP', base + opStart);
          } else {
            stack.pop();
          }
          break;
        case Op.POP_MARK:
          stack.length = this.popMark(base + opStart);
          break;
        case Op.DUP:
          stack.push(this.top(base + opStart));
          break;
        case Op.PROTO: {
          if (pos + 1 > end) return opStart;
          const version = buffer[pos]!;
          if (version < 2 || version > 5) {
            throw new PickleError(
              `unsupported pickle protocol ${version} (snapshots use protocols 2 to 5)`,
              base + opStart,
            );
          }
          this.protocolVersion = version;
          pos += 1;
          break;
        }
        case Op.STOP: {
          if (stack.length !== 1 || this.marks.length !== 0) {
            throw new PickleError(
              `STOP with ${stack.length} values and ${this.marks.length} marks left (expected exactly one value)`,
              base + opStart,
            );
          }
          this.result = stack.pop();
          this.finished = true;
          this.memo.clear();
          return end;
        }
        default:
          throw this.badOpcode(op, base + opStart);
      }
    }
    return pos;
  }

  private memoGet(index: number, offset: number): unknown {
    const value = this.memo.get(index);
    if (value === undefined) {
      throw new PickleError(`memo entry ${index} is read before it was written`, offset);
    }
    if (value === CONSUMED_DICT) {
      throw new PickleError(
        'a trace entry is referenced twice; this layout is not supported',
        offset,
      );
    }
    return value;
  }

  private top(offset: number): unknown {
    if (this.stack.length === 0 || this.stack.length === this.lastMark()) {
      throw new PickleError('the stack is empty where a value was expected', offset);
    }
    return this.stack[this.stack.length - 1];
  }

  private lastMark(): number {
    return this.marks.length === 0 ? 0 : this.marks[this.marks.length - 1]!;
  }

  private popMark(offset: number): number {
    const mark = this.marks.pop();
    if (mark === undefined) throw new PickleError('no MARK on the stack', offset);
    return mark;
  }

  private setItems(offset: number): void {
    const from = this.popMark(offset);
    this.fillDict(from, this.stack.length, offset);
    this.stack.length = from;
  }

  private appends(offset: number): void {
    const from = this.popMark(offset);
    this.fillList(from, this.stack.length, offset);
    this.stack.length = from;
  }

  /** Sets stack[from..to) as key/value pairs into the dict at stack[from - 1]. */
  private fillDict(from: number, to: number, offset: number): void {
    const stack = this.stack;
    const dict = stack[from - 1] as PickleDict;
    if (from < 1 || !isDict(dict)) {
      throw new PickleError(`SETITEMS target is ${describe(dict)}, not a dict`, offset);
    }
    if ((to - from) % 2 !== 0)
      throw new PickleError('SETITEMS with an odd number of items', offset);
    if (this.interceptor !== undefined && to > from) {
      if (this.interceptor.consumeDict(dict, stack, from, to, offset)) {
        stack[from - 1] = CONSUMED_DICT;
        this.tombstone(dict);
        return;
      }
    }
    for (let i = from; i < to; i += 2) {
      const key = stack[i];
      const name = typeof key === 'string' ? key : dictKeyOf(key, offset);
      const value = stack[i + 1];
      if (value === CONSUMED_DICT) {
        throw new PickleError('a trace entry stands where only plain values are expected', offset);
      }
      if (name === '__proto__') {
        Object.defineProperty(dict, name, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else {
        dict[name] = value as PickleValue;
      }
    }
  }

  /** Appends stack[from..to) to the list at stack[from - 1]. */
  private fillList(from: number, to: number, offset: number): void {
    const stack = this.stack;
    const list = stack[from - 1];
    if (from < 1 || !Array.isArray(list)) {
      throw new PickleError(`APPENDS target is ${describe(list)}, not a list`, offset);
    }
    if (to === from) return;
    if (stack[from] === CONSUMED_DICT) {
      for (let i = from + 1; i < to; i++) {
        if (stack[i] !== CONSUMED_DICT) {
          throw new PickleError('a list mixes trace entries with other values', offset);
        }
      }
      this.interceptor!.appendConsumed(list as PickleValue[], to - from, offset);
      return;
    }
    for (let i = from; i < to; i++) {
      const item = stack[i];
      if (item === CONSUMED_DICT) {
        throw new PickleError('a list mixes trace entries with other values', offset);
      }
      list.push(item);
    }
  }

  private tombstone(dict: PickleDict): void {
    const index = this.memo.lastIndexOf(dict, MEMO_TOMBSTONE_SCAN);
    if (index >= 0) this.memo.setConsumed(index);
  }

  private readUint64(view: DataView, pos: number, offset: number): number {
    const low = view.getUint32(pos, true);
    const high = view.getUint32(pos + 4, true);
    const value = high * 2 ** 32 + low;
    if (value > Number.MAX_SAFE_INTEGER) throw new PickleError('length field too large', offset);
    return value;
  }

  private underflow(opcode: string, offset: number): PickleError {
    return new PickleError(`${opcode} needs more values on the stack`, offset);
  }

  private badOpcode(op: number, offset: number): Error {
    const codeLoading = CODE_LOADING_OPCODES.get(op);
    if (codeLoading !== undefined) return new CodeLoadingRefusedError(codeLoading, offset);
    const unsupported = UNSUPPORTED_OPCODES.get(op);
    if (unsupported !== undefined) {
      return new PickleError(
        `unsupported pickle opcode ${unsupported} (only protocols 2 to 5 with plain data are read)`,
        offset,
      );
    }
    return new PickleError(`unknown pickle opcode 0x${op.toString(16).padStart(2, '0')}`, offset);
  }
}

function joinBytes(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first, 0);
  joined.set(second, first.length);
  return joined;
}

function isDict(value: unknown): value is PickleDict {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array) &&
    value !== CONSUMED_DICT
  );
}

function dictKeyOf(key: unknown, offset: number): string {
  if (typeof key === 'number' || typeof key === 'bigint' || typeof key === 'boolean')
    return String(key);
  if (key === null) return 'None';
  if (Array.isArray(key))
    return JSON.stringify(key, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  throw new PickleError(`unsupported dict key: ${describe(key)}`, offset);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'None';
  if (value === CONSUMED_DICT) return 'a trace entry';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Uint8Array) return 'bytes';
  return typeof value === 'object' ? 'a dict' : `a ${typeof value}`;
}

/** Decodes a whole pickle held in memory (tests, small files). */
export function unpickle(bytes: Uint8Array, options: UnpicklerOptions = {}): unknown {
  const unpickler = new Unpickler(options);
  unpickler.feed(bytes);
  return unpickler.finish();
}
