// A streaming unpickler for plain data (protocols 2-5). Bytes arrive in chunks of any size; an
// opcode cut by a chunk boundary is resumed when the next chunk comes. Opcodes that would load
// Python code are refused. The memo is kept as-is, so objects that Python shared (PyTorch's
// frame dicts and stack lists) stay shared: one JS object, referenced many times.
//
// A DictInterceptor can take over dicts as SETITEMS fills them (the snapshot decoder turns trace
// entries into table rows that way), so millions of short-lived records never become objects.

import { groupDigits } from '../errors/unreadable-input';
import {
  containerBudgetAt,
  MAX_NESTING_DEPTH,
  MAX_PAYLOAD_BYTES,
  MIN_CONTAINER_BUDGET,
  nestedTooDeep,
  payloadTooLong,
  tooManyContainers,
} from '../limits/input-limits';
import { CODE_LOADING_OPCODES, Op, UNSUPPORTED_OPCODES } from './opcodes';
import { CodeLoadingRefusedError, PickleError } from './pickle-error';
import { describeProtocol0Or1 } from './text-pickle';
import { decodeLong } from './long-decoder';
import { PickleStringDecoder } from './string-decoder';
import { Memo, type MemoSlots } from './memo';
import { FlatDictReader, NOT_FLAT, type FlatDictConsumer } from './flat-dict-reader';
import { ItemBudget } from './item-budget';

export type PickleValue =
  null | boolean | number | bigint | string | Uint8Array | PickleValue[] | PickleDict;

export interface PickleDict {
  [key: string]: PickleValue;
}

/** Stands on the stack (and in the memo) for a dict that an interceptor consumed. */
/** Where a part of a parallel decode stopped (Unpickler.partState). */
export interface PartState {
  /**
   * The stack above the part's list, all that may be there: null for a consumed trace entry (of
   * an open batch), k for lists[k], a later trace list the part began (a later device's).
   */
  above: (number | null)[];
  lists: unknown[];
  /** Marks, as stack depths counted from the part's list at 0. */
  marks: number[];
  /** The part stopped before its end, where the list of trace lists takes them. */
  listEnded: boolean;
  items: number;
  containers: number;
}

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
  /**
   * Length of the pickle stream when known (an uncompressed file): a declared length that runs
   * past it is refused at once instead of waiting for bytes that never come.
   */
  totalBytes?: number;
  /** Lower limits than the defaults (tests). */
  limits?: { maxStackValues?: number; minItemBudget?: number };
  /** Reads flat dicts (trace entries) straight from the bytes; see flat-dict-reader.ts. */
  flatDictConsumer?: FlatDictConsumer;
  /**
   * Decodes one part of a parallel decode (docs/parallel-decode.md): the bytes fed start at
   * `startOffset` of the file, inside an open batch of a trace list (the stack holds a list
   * below a MARK), with `memo` numbered from the part's base (a PartMemo). Never set otherwise.
   */
  part?: { memo: Memo; startOffset: number };
}

// Enough for any opcode but long strings and bytes.
const BRIDGE_BYTES = 1 << 16;
// An opcode cut by a chunk boundary and longer than this is gathered into a buffer of its declared
// length (each byte copied once) instead of being re-joined with every new chunk.
const GATHER_FROM_BYTES = 1 << 10;

// Limits from what a snapshot can be, so that no declared length, count, index or nesting drives
// work or memory that the bytes read cannot justify. Each is far above what real files hold.
/**
 * Values on the VM's stack at once, trace entries the interceptor consumed aside. Python batches
 * SETITEMS/APPENDS by 1,000; PyTorch's C++ pickler writes a whole list in one batch, so consumed
 * trace entries (one placeholder each) may pile up by the million: they are limited only by
 * MAX_STACK_SLOTS (a trace of 64 M entries would be a file of ~10 GB).
 */
export const MAX_STACK_VALUES = 1 << 22;
const MAX_STACK_SLOTS = 1 << 26;
// Containers per byte read, open MARKs (MAX_NESTING_DEPTH) and one string's length
// (MAX_PAYLOAD_BYTES): the rules every form of a snapshot is read by (../limits/input-limits.ts).
export { MAX_NESTING_DEPTH, MAX_PAYLOAD_BYTES } from '../limits/input-limits';
/** LONG4 integers: a snapshot's fit in 8 bytes; 1 KiB leaves room and keeps decoding cheap. */
const MAX_LONG_BYTES = 1024;

export class Unpickler {
  private readonly interceptor: DictInterceptor | undefined;
  private readonly strings = new PickleStringDecoder();
  private stack: unknown[] = [];
  private marks: number[] = [];
  private readonly memo: Memo;
  private pending: Uint8Array | null = null;
  /** An opcode longer than GATHER_FROM_BYTES being gathered across chunks: gather[0..gathered). */
  private gather: Uint8Array | null = null;
  private gathered = 0;
  private readonly totalBytes: number;
  /**
   * Empty dicts from EMPTY_DICT that the generic path memoized, with their stack position and memo
   * index, so that when the interceptor consumes one its memo slot becomes a tombstone, wherever
   * it is. Positions only increase from bottom to top: an entry at or above a newer one's
   * position is stale (its dict left the stack), so this never holds more than the stack does.
   */
  private readonly openDictPosition: number[] = [];
  private readonly openDict: object[] = [];
  private readonly openDictMemoIndex: number[] = [];
  private lastEmptyDict: object | null = null;
  /** Where the last memo opcode of the generic path ended (absolute). */
  private lastMemoEnd = -1;
  /** Absolute offset of the first byte of `pending` (or of the next chunk when none). */
  private pendingOffset = 0;
  private finished = false;
  private result: unknown = undefined;
  private protocolVersion = -1;

  private readonly flatDicts: FlatDictReader | null;
  /** A part of a parallel decode: the trace list its entries go to (stack[0]); null otherwise. */
  private partList: unknown[] | null = null;
  /**
   * The part stopped where the bytes leave the trace lists: an APPENDS or APPEND that would take
   * the part's list itself (the lists' own list ends there; see partState).
   */
  private partEnded = false;
  /** Items put into lists, dicts and tuples (see item-budget.ts). */
  private readonly items: ItemBudget;

  constructor(options: UnpicklerOptions = {}) {
    this.interceptor = options.interceptor;
    this.totalBytes = options.totalBytes ?? Infinity;
    this.maxStackValues = options.limits?.maxStackValues ?? MAX_STACK_VALUES;
    this.nextStackCheck = this.maxStackValues;
    this.items = new ItemBudget(options.limits?.minItemBudget);
    const materializeHandle = options.flatDictConsumer?.materializeHandle.bind(
      options.flatDictConsumer,
    );
    this.memo =
      options.part?.memo ??
      new Memo({
        consumedValue: CONSUMED_DICT,
        ...(materializeHandle === undefined ? {} : { materializeHandle }),
      });
    if (options.part !== undefined) {
      this.pendingOffset = options.part.startOffset;
      this.partList = [];
      this.stack = [this.partList];
      this.marks = [1];
    }
    this.flatDicts =
      options.flatDictConsumer === undefined
        ? null
        : new FlatDictReader(options.flatDictConsumer, this.strings, this.items);
  }

  /** The protocol from the PROTO opcode, or -1 before it was seen. */
  get protocol(): number {
    return this.protocolVersion;
  }

  get done(): boolean {
    return this.finished || this.partEnded;
  }

  /** Bytes fully decoded so far (excludes an opcode waiting for the next chunk). */
  get bytesDecoded(): number {
    return this.pendingOffset;
  }

  feed(chunk: Uint8Array): void {
    if (this.finished || this.partEnded || chunk.length === 0) return;
    if (
      this.pendingOffset === 0 &&
      this.pending === null &&
      this.gather === null &&
      chunk[0] !== Op.PROTO
    ) {
      throw (
        describeProtocol0Or1(chunk) ??
        new PickleError(
          `not a pickle of protocol 2 to 5: the first byte is 0x${chunk[0]!.toString(16).padStart(2, '0')}, expected 0x80 (PROTO)`,
          0,
        )
      );
    }
    let rest = chunk;
    if (this.gather !== null) {
      const gather = this.gather;
      const taken = Math.min(gather.length - this.gathered, chunk.length);
      gather.set(chunk.subarray(0, taken), this.gathered);
      this.gathered += taken;
      if (this.gathered < gather.length) return;
      // The gathered opcode is complete: run it alone, then go on in the chunk.
      this.gather = null;
      this.run(gather, gather.length);
      this.pendingOffset += gather.length;
      if (this.finished) return this.release();
      rest = chunk.subarray(taken);
      if (rest.length === 0) return;
    } else if (this.pending !== null) {
      // Finish the opcode cut by the chunk boundary on a small joined buffer, then go on in the
      // chunk itself: joining whole chunks would copy every byte of the file once more.
      const pending = this.pending;
      const bridge = joinBytes(pending, chunk.subarray(0, BRIDGE_BYTES));
      const stoppedAt = this.run(bridge, pending.length);
      if (this.finished) return this.release();
      this.pending = null;
      if (stoppedAt > 0) {
        this.pendingOffset += stoppedAt;
        rest = chunk.subarray(stoppedAt - pending.length);
      } else if (bridge.length < pending.length + chunk.length) {
        // One opcode longer than the bridge (a long string): gather it, copying each byte once.
        this.startGather(bridge, this.opcodeLength(bridge));
        return this.feed(chunk.subarray(bridge.length - pending.length));
      } else {
        this.keepPending(bridge);
        return;
      }
    }
    const stoppedAt = this.run(rest, rest.length);
    if (this.finished) return this.release();
    this.pendingOffset += stoppedAt;
    if (this.partEnded) return;
    if (stoppedAt < rest.length) this.keepPending(rest.subarray(stoppedAt));
  }

  /** Keeps the start of an incomplete opcode for the next chunk. */
  private keepPending(tail: Uint8Array): void {
    const length = this.opcodeLength(tail);
    if (length > GATHER_FROM_BYTES) this.startGather(tail, length);
    else this.pending = tail.slice();
  }

  private startGather(head: Uint8Array, length: number): void {
    if (length <= head.length) throw new Error('startGather: the opcode is complete');
    this.gather = new Uint8Array(length);
    this.gather.set(head);
    this.gathered = head.length;
  }

  /**
   * Total length of the opcode at bytes[0] when its header says (strings, bytes, longs), else -1.
   * The declared length was checked against the limits by run() before it stopped there.
   */
  private opcodeLength(bytes: Uint8Array): number {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    switch (bytes[0]) {
      case Op.BINUNICODE:
      case Op.BINBYTES:
        return bytes.length >= 5 ? 5 + view.getUint32(1, true) : -1;
      case Op.LONG4:
        return bytes.length >= 5 ? 5 + view.getInt32(1, true) : -1;
      case Op.BINUNICODE8:
      case Op.BINBYTES8:
      case Op.BYTEARRAY8:
        return bytes.length >= 9
          ? 9 + view.getUint32(1, true) + view.getUint32(5, true) * 2 ** 32
          : -1;
      default:
        return -1;
    }
  }

  private release(): void {
    this.pending = null;
    this.gather = null;
    this.dropOpenDictsFrom(0);
    this.lastEmptyDict = null;
    this.flatDicts?.dropValues();
  }

  /** Call after the last chunk; returns the unpickled value. */
  finish(): unknown {
    if (!this.finished) {
      const waiting = this.gather !== null ? this.gathered : (this.pending?.length ?? 0);
      const offset = this.pendingOffset + waiting;
      if (this.pendingOffset === 0 && waiting === 0) {
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
      if (stack.length >= this.nextStackCheck) this.checkStack(base + opStart);
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
          this.memoize(memo.length, base + opStart, base + pos);
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
          if (this.marks.length >= MAX_NESTING_DEPTH) {
            throw new PickleError(nestedTooDeep('the pickle'), base + opStart);
          }
          this.marks.push(stack.length);
          break;
        case Op.EMPTY_DICT:
          if (this.flatDicts !== null) {
            const after = this.flatDicts.read(buffer, view, pos, memo, base);
            if (after !== NOT_FLAT) {
              stack.push(CONSUMED_DICT);
              pos = after;
              // Its frames list counts as the generic path counts it, so both paths refuse alike.
              if (this.flatDicts.readNewList && ++this.containers > this.containerBudget) {
                this.checkContainers(base + pos);
              }
              break;
            }
          }
          if (++this.containers > this.containerBudget) this.checkContainers(base + pos);
          this.lastEmptyDict = {};
          stack.push(this.lastEmptyDict);
          break;
        case Op.EMPTY_LIST:
          if (++this.containers > this.containerBudget) this.checkContainers(base + pos);
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
          // A part's lists end where the list of lists takes them: its MARK is the spine's.
          if (this.partList !== null && this.marks.length === 0) {
            this.partEnded = true;
            return opStart;
          }
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
          // The list of one trace list takes it with APPEND, its list below the part's.
          if (this.partList !== null && from < 1) {
            this.partEnded = true;
            return opStart;
          }
          if (from < 1 || from - 1 < this.lastMark()) {
            throw new PickleError('APPEND needs a list and an item on the stack', base + opStart);
          }
          this.fillList(from, stack.length, base + opStart);
          stack.length = from;
          break;
        }
        case Op.TUPLE2: {
          if (++this.containers > this.containerBudget) this.checkContainers(base + pos);
          if (stack.length - this.lastMark() < 2) throw this.underflow('TUPLE2', base + opStart);
          this.items.add(2, base + pos);
          const second = stack.pop();
          const first = stack.pop();
          stack.push(Object.freeze([first, second]));
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
          if (pos + 4 + length > end)
            return this.waitForPayload(op, length, base + opStart, opStart);
          stack.push(this.strings.decode(buffer, pos + 4, length));
          pos += 4 + length;
          break;
        }
        case Op.BINUNICODE8: {
          if (pos + 8 > end) return opStart;
          const length = this.readUint64(view, pos, base + opStart);
          if (pos + 8 + length > end)
            return this.waitForPayload(op, length, base + opStart, opStart);
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
          this.memoize(buffer[pos]!, base + opStart, base + pos + 1);
          pos += 1;
          break;
        }
        case Op.LONG_BINPUT: {
          if (pos + 4 > end) return opStart;
          this.memoize(view.getUint32(pos, true), base + opStart, base + pos + 4);
          pos += 4;
          break;
        }
        case Op.LONG4: {
          if (pos + 4 > end) return opStart;
          const length = view.getInt32(pos, true);
          if (length < 0) throw new PickleError('LONG4 with a negative length', base + opStart);
          // Python writes LONG4 only for integers of 256 bytes or more; a snapshot's fit in 8.
          // (Decoding one of N bytes costs N² as a bigint.)
          if (length > MAX_LONG_BYTES) {
            throw new PickleError(
              `an integer of ${groupDigits(length)} bytes; the numbers of a memory snapshot fit in 8`,
              base + opStart,
            );
          }
          if (pos + 4 + length > end)
            return this.waitForPayload(op, length, base + opStart, opStart);
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
          if (pos + 4 + length > end)
            return this.waitForPayload(op, length, base + opStart, opStart);
          stack.push(buffer.slice(pos + 4, pos + 4 + length));
          pos += 4 + length;
          break;
        }
        case Op.BINBYTES8:
        case Op.BYTEARRAY8: {
          if (pos + 8 > end) return opStart;
          const length = this.readUint64(view, pos, base + opStart);
          if (pos + 8 + length > end)
            return this.waitForPayload(op, length, base + opStart, opStart);
          stack.push(buffer.slice(pos + 8, pos + 8 + length));
          pos += 8 + length;
          break;
        }
        case Op.TUPLE1: {
          if (++this.containers > this.containerBudget) this.checkContainers(base + pos);
          if (stack.length - this.lastMark() < 1) throw this.underflow('TUPLE1', base + opStart);
          this.items.add(1, base + pos);
          stack.push(Object.freeze([stack.pop()]));
          break;
        }
        case Op.TUPLE3: {
          if (++this.containers > this.containerBudget) this.checkContainers(base + pos);
          if (stack.length - this.lastMark() < 3) throw this.underflow('TUPLE3', base + opStart);
          this.items.add(3, base + pos);
          const third = stack.pop();
          const second = stack.pop();
          const first = stack.pop();
          stack.push(Object.freeze([first, second, third]));
          break;
        }
        case Op.EMPTY_TUPLE:
          if (++this.containers > this.containerBudget) this.checkContainers(base + pos);
          stack.push(Object.freeze([]));
          break;
        case Op.TUPLE:
        case Op.LIST: {
          if (++this.containers > this.containerBudget) this.checkContainers(base + pos);
          const from = this.popMark(base + opStart);
          this.items.add(stack.length - from, base + pos);
          const items = stack.slice(from);
          stack.length = from;
          // Tuples are frozen: immutable in Python, and how a tuple the fast path read stands.
          stack.push(op === Op.TUPLE ? Object.freeze(items) : items);
          break;
        }
        case Op.DICT: {
          if (++this.containers > this.containerBudget) this.checkContainers(base + pos);
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
        case Op.DUP: {
          const top = this.top(base + opStart);
          if (top === CONSUMED_DICT) throw this.entryReferencedAgain(base + opStart);
          stack.push(top);
          break;
        }
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
      throw new PickleError(
        `memo entry ${groupDigits(index)} is read before it was written`,
        offset,
      );
    }
    if (value === CONSUMED_DICT) throw this.entryReferencedAgain(offset);
    return value;
  }

  private entryReferencedAgain(offset: number): PickleError {
    return new PickleError(
      'a trace entry is referenced again; a memory snapshot never shares trace entries',
      offset,
    );
  }

  /**
   * MEMOIZE / BINPUT / LONG_BINPUT: stores the top of the stack at `index`. Picklers (CPython's,
   * PyTorch's C++ one) number memo entries 0, 1, 2, … as they go and never reuse one, so any other
   * index is refused: the memo never grows sparsely, and a slot never changes once read (the fast
   * path caches what slots hold). A pickler memoizes each object once, right after making it, so
   * a memo opcode right after another (the same object again) is refused too: repeated, a 1-byte
   * MEMOIZE would grow the memo by a slot per byte of file.
   */
  private memoize(index: number, offset: number, end: number): void {
    const memo = this.memo;
    if (index !== memo.length) {
      throw new PickleError(
        index > memo.length
          ? `memo index ${groupDigits(index)} skips ahead of the ${groupDigits(memo.length)} objects stored so far`
          : `memo index ${groupDigits(index)} is written twice`,
        offset,
      );
    }
    if (offset === this.lastMemoEnd) {
      throw new PickleError(
        'the same object is memoized twice in a row; a pickler memoizes each object once',
        offset,
      );
    }
    this.lastMemoEnd = end;
    const value = this.top(offset);
    if (this.lastEmptyDict !== null && value === this.lastEmptyDict) {
      const position = this.stack.length - 1;
      this.dropOpenDictsFrom(position);
      this.openDictPosition.push(position);
      this.openDict.push(value);
      this.openDictMemoIndex.push(index);
    }
    memo.push(value);
  }

  /**
   * Lists, dicts and tuples built (trace entries the interceptor consumed aside). An EMPTY_LIST is
   * one byte of file and ~100 bytes of memory, so their number is held to what the bytes read
   * justify: real snapshots take 16 bytes or more of file per container.
   */
  private containers = 0;
  private containerBudget = MIN_CONTAINER_BUDGET;

  private checkContainers(bytesRead: number): void {
    this.containerBudget = containerBudgetAt(bytesRead);
    if (this.containers <= this.containerBudget) return;
    // No count or offset in the words: the fast path counts a trace entry's frames list at the
    // entry, the generic path at the list, and the verdict must not depend on which one ran.
    throw new PickleError(tooManyContainers('lists, dicts and tuples'), -1);
  }

  private readonly maxStackValues: number;
  /** Stack length at which checkStack() looks again: doubling keeps the counting linear. */
  private nextStackCheck: number;

  private checkStack(offset: number): void {
    const stack = this.stack;
    let values = 0;
    for (let i = 0; i < stack.length; i++) if (stack[i] !== CONSUMED_DICT) values += 1;
    if (values >= this.maxStackValues || stack.length >= MAX_STACK_SLOTS) {
      this.tooManyValues(offset);
    }
    this.nextStackCheck = Math.min(stack.length * 2, MAX_STACK_SLOTS);
  }

  private tooManyValues(offset: number): never {
    throw new PickleError(
      `more than ${groupDigits(this.maxStackValues)} values on the pickle stack at once; a memory snapshot never builds that many before it stores them`,
      offset,
    );
  }

  /**
   * A string, bytes or long opcode whose payload is not all in the buffer: refuses a length that
   * no snapshot has or that the file cannot hold, else waits for more bytes (returns `opStart`).
   */
  private waitForPayload(op: number, length: number, offset: number, opStart: number): number {
    const what =
      op === Op.LONG4
        ? 'an integer'
        : op === Op.BINUNICODE || op === Op.BINUNICODE8
          ? 'a string'
          : 'a bytes value';
    const header = op === Op.BINUNICODE8 || op === Op.BINBYTES8 || op === Op.BYTEARRAY8 ? 9 : 5;
    const left = this.totalBytes - offset - header;
    if (length > left) {
      throw new PickleError(
        `declares ${what} of ${groupDigits(length)} bytes, but the file has only ${groupDigits(Math.max(0, left))} bytes left`,
        offset,
      );
    }
    if (length > MAX_PAYLOAD_BYTES) {
      throw new PickleError(
        `declares ${what} of ${groupDigits(length)} bytes; ${payloadTooLong()}`,
        offset,
      );
    }
    return opStart;
  }

  private top(offset: number): unknown {
    if (this.stack.length === 0 || this.stack.length === this.lastMark()) {
      throw new PickleError('the stack is empty where a value was expected', offset);
    }
    return this.stack[this.stack.length - 1];
  }

  /**
   * Where a part stopped (docs/parallel-decode.md): what is above its trace list and the marks
   * above it, what it counted against the budgets, and whether its list ended. Null when the
   * bytes did not keep to the plan (its list left the stack, an opcode waits for more bytes).
   */
  partState(): PartState | null {
    const list = this.partList;
    if (list === null || this.stack[0] !== list) return null;
    if (this.pending !== null || this.gather !== null || this.finished) return null;
    const above: (number | null)[] = [];
    const lists: unknown[] = [];
    for (let i = 1; i < this.stack.length; i++) {
      const value = this.stack[i];
      if (value === CONSUMED_DICT) above.push(null);
      // A trace list holds no values (its entries are rows): an empty list that is not a tuple.
      else if (Array.isArray(value) && value.length === 0 && !Object.isFrozen(value)) {
        above.push(lists.push(value) - 1);
      } else return null;
    }
    return {
      above,
      lists,
      marks: [...this.marks],
      listEnded: this.partEnded,
      items: this.items.made,
      containers: this.containers,
    };
  }

  /** A part's stand-in for its trace list (the key of its rows' range); null otherwise. */
  partListObject(): unknown {
    return this.partList;
  }

  /**
   * The spine of a parallel decode, at a part's start: the stack depth of the open batch's MARK
   * when the stack holds a trace list below it and only consumed trace entries above it (the
   * state every part assumes), else -1. Never between two chunks' bytes.
   */
  partStartDepth(): number {
    if (this.pending !== null || this.gather !== null || this.finished) return -1;
    const mark = this.marks.length === 0 ? -1 : this.marks[this.marks.length - 1]!;
    if (mark < 1 || mark >= this.stack.length) return -1;
    const list = this.stack[mark - 1];
    if (!Array.isArray(list) || Object.isFrozen(list)) return -1;
    for (let i = mark; i < this.stack.length; i++) if (this.stack[i] !== CONSUMED_DICT) return -1;
    return mark;
  }

  /**
   * The spine of a parallel decode at a part's start (`mark`: partStartDepth()): the entries of
   * the open batch so far go to their list now, so that the part's rows, merged next, follow them.
   */
  endBatchForPart(mark: number, offset: number): PickleValue[] {
    const list = this.stack[mark - 1] as PickleValue[];
    this.fillList(mark, this.stack.length, offset);
    this.stack.length = mark;
    this.marks.pop();
    this.dropOpenDictsFrom(mark);
    return list;
  }

  /** The memo's code at `index` (MemoCode). */
  memoCode(index: number): number {
    return this.memo.code(index);
  }

  /** The memo's value at `index` as a reference to it reads (a parallel decode checks parts' reads). */
  memoValue(index: number): unknown {
    return this.memo.get(index);
  }

  /** Slots in the memo (a parallel decode checks each part's base). */
  get memoLength(): number {
    return this.memo.length;
  }

  /**
   * Then takes the part's effects instead of its bytes (its columns were merged by the caller):
   * its memo slots (handles remapped), the stack and marks above the list, its counts against
   * the budgets; decoding goes on at `stoppedAt`.
   */
  takePart(
    state: PartState,
    mark: number,
    stoppedAt: number,
    partMemo: MemoSlots,
    remapHandle: (handle: number) => number,
  ): void {
    this.memo.appendSlots(partMemo, remapHandle);
    this.lastEmptyDict = null;
    this.lastMemoEnd = -1;
    for (const entry of state.above) {
      this.stack.push(entry === null ? CONSUMED_DICT : state.lists[entry]);
    }
    for (const partMark of state.marks) this.marks.push(partMark + mark - 1);
    this.containers += state.containers;
    if (this.containers > this.containerBudget) this.checkContainers(stoppedAt);
    this.items.add(state.items, stoppedAt);
    this.pendingOffset = stoppedAt;
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
        this.containers -= 1; // a trace entry goes into columns, not into memory as a dict
        this.tombstone(dict, from - 1);
        return;
      }
    }
    // (SETITEM, SETITEMS and DICT are one byte: the opcode ends at offset + 1.)
    this.items.add((to - from) / 2, offset + 1);
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
    // Tuples are frozen arrays (immutable in Python): never a list to append to.
    if (Object.isFrozen(list)) {
      throw new PickleError('APPENDS target is a tuple, not a list', offset);
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
    // (APPEND and APPENDS are one byte: the opcode ends at offset + 1.)
    this.items.add(to - from, offset + 1);
    for (let i = from; i < to; i++) {
      const item = stack[i];
      if (item === CONSUMED_DICT) {
        throw new PickleError('a list mixes trace entries with other values', offset);
      }
      list.push(item);
    }
  }

  /** The consumed dict's memo slot (if it was memoized) now says so, for every later reference. */
  private tombstone(dict: PickleDict, position: number): void {
    this.dropOpenDictsFrom(position + 1);
    const last = this.openDict.length - 1;
    if (last < 0 || this.openDictPosition[last] !== position || this.openDict[last] !== dict)
      return;
    const index = this.openDictMemoIndex[last]!;
    this.dropOpenDictsFrom(position);
    this.memo.setConsumed(index);
  }

  private dropOpenDictsFrom(position: number): void {
    const positions = this.openDictPosition;
    while (positions.length > 0 && positions[positions.length - 1]! >= position) {
      positions.pop();
      this.openDict.pop();
      this.openDictMemoIndex.pop();
    }
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
        `pickle opcode ${unsupported.name} (${unsupported.what}) is not used by memory snapshots`,
        offset,
      );
    }
    return new PickleError(
      `unknown pickle opcode 0x${op.toString(16).padStart(2, '0')}: the file is corrupt, or not a pickle`,
      offset,
    );
  }
}

function joinBytes(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first, 0);
  joined.set(second, first.length);
  return joined;
}

/**
 * A dict the unpickler made: a plain, extensible object. Not a list, bytes, the frozen stand-in
 * for a consumed trace entry, nor a consumer's stand-in for a list it read (a StackRef): what the
 * fast path turned into a handle is a list to the generic path, and must be one here too.
 */
function isDict(value: unknown): value is PickleDict {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Object.isExtensible(value)
  );
}

/**
 * A dict key that is not a string, as the string the dict is keyed by here. Python keys are
 * hashable: numbers, None, and tuples of those; a list or dict (possibly holding itself) as a key
 * is no Python dict, so it is refused rather than walked.
 */
export function dictKeyOf(key: unknown, offset: number): string {
  if (typeof key === 'number' || typeof key === 'bigint' || typeof key === 'boolean')
    return String(key);
  if (key === null) return 'None';
  // Only a tuple (frozen here) is hashable: a list of numbers is no key either (fuzz campaign
  // seed 20261130, case 17047: an empty list as a key passed here, while the fast path, holding
  // it as a frames list, refused it).
  if (Array.isArray(key) && Object.isFrozen(key) && key.every(isScalarKey)) {
    return `(${key.map((item) => (typeof item === 'string' ? JSON.stringify(item) : item === null ? 'None' : String(item))).join(', ')})`;
  }
  // One wording for every container: a frames list may stand here as a list or as the decoder's
  // reference to one, depending on the decode path.
  throw new PickleError(
    `a dict key that is ${typeof key === 'object' ? 'a list, a dict or a tuple of containers' : describe(key)}; a Python dict cannot have one`,
    offset,
  );
}

function isScalarKey(item: unknown): boolean {
  return (
    item === null ||
    typeof item === 'string' ||
    typeof item === 'number' ||
    typeof item === 'bigint' ||
    typeof item === 'boolean'
  );
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'None';
  if (value === CONSUMED_DICT) return 'a trace entry';
  if (value instanceof Uint8Array) return 'bytes';
  if (typeof value !== 'object') return `a ${typeof value}`;
  // Anything but a plain object stands for a list (see isDict).
  return isDict(value) ? 'a dict' : 'a list';
}

/** Decodes a whole pickle held in memory (tests, small files). */
export function unpickle(bytes: Uint8Array, options: UnpicklerOptions = {}): unknown {
  const unpickler = new Unpickler(options);
  unpickler.feed(bytes);
  return unpickler.finish();
}
