// A pickle writer for tests and benchmarks: writes plain data (dict, list, tuple, str, int,
// float, bool, None, bytes) exactly as CPython's C pickler (pickle.dump / pickle.dumps) does,
// for protocols 2-5, so generated snapshots look like real ones down to the opcodes: same
// memo indices, same SETITEMS/APPENDS batching, same frames.
//
// Sharing follows JS identity the way CPython's memo follows id(): an object written twice is
// written once and then fetched with BINGET / LONG_BINGET. Strings are memoized by value, which
// matches real files (keys and repeated values are interned in CPython), not CPython for equal
// but distinct str objects.
//
// Besides dump(), a streaming API writes containers item by item (beginList / value /
// endList, beginDict / key / value / endDict) so that huge lists never exist in memory.

import { PickleOutput, type PickleSink } from './pickle-output';
import { MemoRef, PyFloat, PyTuple, type PickleKey, type PickleValue } from './pickle-values';
import { concatBytes } from '../../src/shared/pickle/concat-bytes';
import { Op } from '../../src/shared/pickle/opcodes';

export type PickleProtocol = 2 | 3 | 4 | 5;

export interface PickleWriterOptions {
  /** Default 4, what Python 3.8-3.13 writes. */
  protocol?: PickleProtocol;
}

/** CPython's BATCHSIZE for SETITEMS / APPENDS. */
const BATCH = 1000;
const TUPLE_OPS = [Op.EMPTY_TUPLE, Op.TUPLE1, Op.TUPLE2, Op.TUPLE3] as const;
const TWO_POW_32 = 4294967296;
const utf8 = new TextEncoder();

/** A container being streamed. CPython writes a one-item list as `item APPEND` (dict:
 *  `key value SETITEM`) and anything longer as `MARK ... APPENDS` batches, so the first item is
 *  held back until the second one (or the end) shows which form applies. */
interface OpenContainer {
  readonly isDict: boolean;
  /** Items complete or held back so far. */
  count: number;
  /** A MARK is written and its APPENDS / SETITEMS not yet. */
  inBatch: boolean;
  batchCount: number;
  /** 0: nothing held; 1: a dict key held (its value not given yet) or a list item held;
   *  2: a dict key and its value held. */
  held: 0 | 1 | 2;
  heldKey: PickleKey;
  heldValue: PickleValue;
  /** Dict only: a key has been given and its value is next. */
  awaitingValue: boolean;
  /** The caller said it has exactly one item: a streamed item then needs no MARK either. */
  oneItem: boolean;
}

export class PickleWriter {
  readonly protocol: PickleProtocol;
  private readonly out: PickleOutput;
  private readonly objectMemo = new Map<object, number>();
  private readonly stringMemo = new Map<string, number>();
  private memoSize = 0;
  private readonly open: OpenContainer[] = [];
  private state: 'new' | 'started' | 'written' | 'finished' = 'new';

  /** The sink receives the bytes in order; each chunk is only valid during the call. */
  constructor(sink: PickleSink, options: PickleWriterOptions = {}) {
    const protocol = options.protocol ?? 4;
    if (![2, 3, 4, 5].includes(protocol)) throw new RangeError(`protocol ${protocol} is not 2-5`);
    this.protocol = protocol;
    this.out = new PickleOutput(sink);
  }

  /** Bytes produced so far. */
  get bytesWritten(): number {
    return this.out.totalBytes;
  }

  /** Number of memo entries so far (the index the next memoized object gets). */
  get memoCount(): number {
    return this.memoSize;
  }

  /** The memo index of an object or string already written, if any. */
  memoIndexOf(value: object | string): number | undefined {
    return typeof value === 'string' ? this.stringMemo.get(value) : this.objectMemo.get(value);
  }

  /** Writes a whole pickle: PROTO, the value, STOP. */
  dump(value: PickleValue): void {
    this.start();
    this.value(value);
    this.finish();
  }

  /** Writes PROTO; then give exactly one top-level value (value() or a streamed container). */
  start(): void {
    if (this.state !== 'new') throw new Error('start() called twice');
    this.out.byteArg1(Op.PROTO, this.protocol);
    if (this.protocol >= 4) this.out.enableFraming();
    this.state = 'started';
  }

  /** Writes STOP and hands the last bytes to the sink. */
  finish(): void {
    if (this.open.length > 0)
      throw new Error(`finish() with ${this.open.length} open container(s)`);
    if (this.state !== 'written') throw new Error('finish() before a top-level value was written');
    this.out.byte(Op.STOP);
    this.out.finish();
    this.state = 'finished';
  }

  /** Writes a complete value: the top-level value, the next list item, or the value of the dict
   *  key just given with key(). */
  value(v: PickleValue): void {
    const c = this.open[this.open.length - 1];
    if (c === undefined) {
      this.beforeTopLevel();
      this.save(v);
      this.state = 'written';
      return;
    }
    if (c.isDict) {
      if (!c.awaitingValue) throw new Error('value() in a dict without key()');
      c.awaitingValue = false;
      if (c.held === 1) {
        c.heldValue = v;
        c.held = 2;
        c.count = 1;
        return;
      }
      this.save(v);
      this.closeItem(c);
      return;
    }
    if (c.count === 0) {
      c.heldValue = v;
      c.held = 1;
      c.count = 1;
      return;
    }
    this.openItem(c);
    this.save(v);
    this.closeItem(c);
  }

  /** Alias of value() that reads better inside a streamed list. */
  appendItem(v: PickleValue): void {
    this.value(v);
  }

  /** Gives the next key of the innermost streamed dict; its value follows (value() or a
   *  streamed container). */
  key(k: PickleKey): void {
    const c = this.open[this.open.length - 1];
    if (c === undefined || !c.isDict) throw new Error('key() outside a streamed dict');
    if (c.awaitingValue) throw new Error('key() twice without a value');
    c.awaitingValue = true;
    if (c.count === 0) {
      // Held until its value shows whether this is a one-item dict (counted once complete).
      c.heldKey = k;
      c.held = 1;
      return;
    }
    this.openItem(c);
    this.save(k);
  }

  setItem(k: PickleKey, v: PickleValue): void {
    this.key(k);
    this.value(v);
  }

  /** Starts a streamed list in the current position; returns its memo index (usable later
   *  with `value(new MemoRef(index))`). `length`, when known, only matters for a list of one
   *  streamed item, which CPython writes without MARK. */
  beginList(length?: number): number {
    this.beforeStreamedChild();
    this.out.boundary();
    this.out.byte(Op.EMPTY_LIST);
    return this.pushOpen(false, length === 1);
  }

  endList(): void {
    const c = this.popOpen(false);
    if (c.held === 1) {
      this.save(c.heldValue);
      this.out.byte(Op.APPEND);
    } else if (c.oneItem && c.count === 1 && !c.inBatch) {
      this.out.byte(Op.APPEND);
    } else if (c.inBatch) {
      this.out.byte(Op.APPENDS);
    }
    this.afterStreamedChild();
  }

  /** Writes `items` as a new list in the current position, like beginList() + value() per item
   *  + endList() but faster, and returns its memo index. The array's identity is neither looked
   *  up nor remembered: for lists built per use (a frames list per trace entry) that should not
   *  stay alive in the memo. */
  newList(items: readonly PickleValue[]): number {
    this.beforeStreamedChild();
    this.out.boundary();
    this.out.byte(Op.EMPTY_LIST);
    const index = this.memoPut(null);
    this.listItems(items);
    this.afterStreamedChild();
    return index;
  }

  /** Starts a streamed dict in the current position; returns its memo index. `size`: as
   *  `length` for beginList(). */
  beginDict(size?: number): number {
    this.beforeStreamedChild();
    this.out.boundary();
    this.out.byte(Op.EMPTY_DICT);
    return this.pushOpen(true, size === 1);
  }

  endDict(): void {
    const c = this.popOpen(true);
    if (c.awaitingValue) throw new Error('endDict() right after key()');
    if (c.held === 2) {
      this.save(c.heldKey);
      this.save(c.heldValue);
      this.out.byte(Op.SETITEM);
    } else if (c.oneItem && c.count === 1 && !c.inBatch) {
      this.out.byte(Op.SETITEM);
    } else if (c.inBatch) {
      this.out.byte(Op.SETITEMS);
    } else if (c.count > 0) {
      // CPython's batch_dict_exact loops while the last batch was full, so a dict whose size is a
      // multiple of 1000 ends with an empty MARK SETITEMS.
      this.out.byte(Op.MARK);
      this.out.byte(Op.SETITEMS);
    }
    this.afterStreamedChild();
  }

  // ---- streaming bookkeeping ----

  private beforeTopLevel(): void {
    if (this.state === 'new') throw new Error('call start() first (or use dump())');
    if (this.state !== 'started') throw new Error('only one top-level value per pickle');
  }

  private pushOpen(isDict: boolean, oneItem: boolean): number {
    const index = this.memoPut(null);
    this.open.push({
      isDict,
      count: 0,
      inBatch: false,
      batchCount: 0,
      held: 0,
      heldKey: null,
      heldValue: null,
      awaitingValue: false,
      oneItem,
    });
    return index;
  }

  private popOpen(isDict: boolean): OpenContainer {
    const c = this.open.pop();
    if (c === undefined || c.isDict !== isDict) {
      throw new Error(`end${isDict ? 'Dict' : 'List'}() does not match the open container`);
    }
    return c;
  }

  /** A streamed child cannot be held back, so its parent commits to the MARK form now, unless
   *  told it has one item. (Without that hint, a list whose only item is streamed ends
   *  `MARK item APPENDS` where CPython writes `item APPEND`: still valid, only not identical.) */
  private beforeStreamedChild(): void {
    const c = this.open[this.open.length - 1];
    if (c === undefined) {
      this.beforeTopLevel();
      return;
    }
    if (c.oneItem && c.count > 0)
      throw new Error('a second item in a container announced with one');
    if (c.isDict) {
      if (!c.awaitingValue) throw new Error('streamed value in a dict without key()');
      if (c.held === 1) {
        if (!c.oneItem) {
          this.out.byte(Op.MARK);
          c.inBatch = true;
          c.batchCount = 0;
        }
        c.held = 0;
        this.save(c.heldKey);
      }
      return;
    }
    if (!c.oneItem) this.openItem(c);
  }

  private afterStreamedChild(): void {
    const c = this.open[this.open.length - 1];
    if (c === undefined) {
      this.state = 'written';
      return;
    }
    if (c.isDict) c.awaitingValue = false;
    this.closeItem(c);
  }

  /** Before writing an item for real: releases a held first item and opens a batch. */
  private openItem(c: OpenContainer): void {
    if (c.oneItem) throw new Error('a second item in a container announced with one');
    if (c.held !== 0) {
      this.out.byte(Op.MARK);
      c.inBatch = true;
      if (c.isDict) {
        this.save(c.heldKey);
        this.save(c.heldValue);
      } else {
        this.save(c.heldValue);
      }
      c.held = 0;
      c.heldValue = null;
      c.batchCount = 1;
    } else if (!c.inBatch) {
      this.out.byte(Op.MARK);
      c.inBatch = true;
      c.batchCount = 0;
    }
  }

  private closeItem(c: OpenContainer): void {
    c.count++;
    if (++c.batchCount === BATCH) {
      this.out.byte(c.isDict ? Op.SETITEMS : Op.APPENDS);
      c.inBatch = false;
      c.batchCount = 0;
    }
  }

  // ---- CPython's save() ----

  private save(v: PickleValue): void {
    this.out.boundary();
    if (v === null) {
      this.out.byte(Op.NONE);
    } else if (typeof v === 'number') {
      if (Number.isInteger(v)) this.saveInt(v);
      else this.out.byteFloat64(Op.BINFLOAT, v);
    } else if (typeof v === 'string') {
      const index = this.stringMemo.get(v);
      if (index !== undefined) this.saveGet(index);
      else this.saveString(v);
    } else if (typeof v === 'boolean') {
      this.out.byte(v ? Op.NEWTRUE : Op.NEWFALSE);
    } else if (typeof v === 'bigint') {
      this.saveBigInt(v);
    } else if (v instanceof MemoRef) {
      if (!(v.index >= 0 && v.index < this.memoSize))
        throw new RangeError(`no memo entry ${v.index}`);
      this.saveGet(v.index);
    } else if (v instanceof PyFloat) {
      this.out.byteFloat64(Op.BINFLOAT, v.value);
    } else if (typeof v === 'object') {
      const index = this.objectMemo.get(v);
      if (index !== undefined) this.saveGet(index);
      else if (Array.isArray(v)) this.saveList(v);
      else if (v instanceof PyTuple) this.saveTuple(v);
      else if (v instanceof Map) this.saveMap(v);
      else if (v instanceof Uint8Array) this.saveBytes(v);
      else this.saveObjectDict(v as { readonly [key: string]: PickleValue });
    } else {
      throw new TypeError(`cannot pickle a value of type ${typeof v}`);
    }
  }

  private saveGet(index: number): void {
    if (index < 256) this.out.byteArg1(Op.BINGET, index);
    else this.out.byteArg4(Op.LONG_BINGET, index);
  }

  /** Gives the next memo index to `obj` (null: a streamed container, never looked up). */
  private memoPut(obj: object | string | null): number {
    const index = this.memoSize++;
    if (this.protocol >= 4) this.out.byte(Op.MEMOIZE);
    else if (index < 256) this.out.byteArg1(Op.BINPUT, index);
    else this.out.byteArg4(Op.LONG_BINPUT, index);
    if (typeof obj === 'string') this.stringMemo.set(obj, index);
    else if (obj !== null) this.objectMemo.set(obj, index);
    return index;
  }

  private saveInt(n: number): void {
    const out = this.out;
    if (n >= 0) {
      if (n <= 0xff) return out.byteArg1(Op.BININT1, n);
      if (n <= 0xffff) {
        out.reserve(3);
        out.buf[out.pos] = Op.BININT2;
        out.buf[out.pos + 1] = n & 0xff;
        out.buf[out.pos + 2] = n >>> 8;
        out.pos += 3;
        return;
      }
      if (n <= 0x7fffffff) return out.byteArg4(Op.BININT, n);
      if (n <= Number.MAX_SAFE_INTEGER) return this.saveLong1Positive(n);
    } else if (n >= -0x80000000) {
      return out.byteArg4(Op.BININT, n);
    }
    this.saveBigInt(BigInt(n));
  }

  /** LONG1 for 2^31 <= n < 2^53 without BigInt: the hot case (addresses, time_us). */
  private saveLong1Positive(n: number): void {
    const high = Math.floor(n / TWO_POW_32);
    const bitLength = high > 0 ? 64 - Math.clz32(high) : 32 - Math.clz32(n >>> 0);
    // Python: nbytes = bit_length // 8 + 1 (room for the sign bit).
    const nbytes = (bitLength >> 3) + 1;
    const out = this.out;
    out.reserve(2 + nbytes);
    const buf = out.buf;
    let p = out.pos;
    buf[p++] = Op.LONG1;
    buf[p++] = nbytes;
    let rest = n;
    for (let i = 0; i < nbytes; i++) {
      buf[p++] = rest % 256;
      rest = Math.floor(rest / 256);
    }
    out.pos = p;
  }

  private saveBigInt(x: bigint): void {
    if (x >= -0x80000000n && x <= 0xffffffffn) return this.saveInt(Number(x));
    const magnitude = x < 0n ? -x : x;
    let nbytes = (magnitude.toString(2).length >> 3) + 1;
    let rest = BigInt.asUintN(nbytes * 8, x); // two's complement over nbytes
    const data = new Uint8Array(nbytes);
    for (let i = 0; i < nbytes; i++) {
      data[i] = Number(rest & 0xffn);
      rest >>= 8n;
    }
    // Like CPython's encode_long: drop a redundant 0xff sign byte of a negative number.
    if (x < 0n && nbytes > 1 && data[nbytes - 1] === 0xff && (data[nbytes - 2]! & 0x80) !== 0) {
      nbytes--;
    }
    if (nbytes < 256) {
      this.out.byteArg1(Op.LONG1, nbytes);
    } else {
      this.out.byteArg4(Op.LONG4, nbytes);
    }
    this.out.bytes(data.subarray(0, nbytes));
  }

  private saveString(s: string): void {
    const data = utf8.encode(s);
    const n = data.length;
    let header: Uint8Array;
    if (n <= 0xff && this.protocol >= 4) {
      header = Uint8Array.of(Op.SHORT_BINUNICODE, n);
    } else if (n <= 0xffffffff) {
      header = lengthHeader(Op.BINUNICODE, n, 4);
    } else {
      header = lengthHeader(Op.BINUNICODE8, n, 8);
    }
    this.out.headerAndPayload(header, data);
    this.memoPut(s);
  }

  private saveBytes(data: Uint8Array): void {
    if (this.protocol < 3) throw new TypeError('bytes need protocol 3 or later');
    const n = data.length;
    let header: Uint8Array;
    if (n <= 0xff) header = Uint8Array.of(Op.SHORT_BINBYTES, n);
    else if (n <= 0xffffffff) header = lengthHeader(Op.BINBYTES, n, 4);
    else header = lengthHeader(Op.BINBYTES8, n, 8);
    this.out.headerAndPayload(header, data);
    this.memoPut(data);
  }

  private saveList(items: readonly PickleValue[]): void {
    this.out.byte(Op.EMPTY_LIST);
    this.memoPut(items);
    this.listItems(items);
  }

  /** CPython's batch_list_exact. */
  private listItems(items: readonly PickleValue[]): void {
    const n = items.length;
    if (n === 0) return;
    if (n === 1) {
      this.save(items[0]!);
      this.out.byte(Op.APPEND);
      return;
    }
    let i = 0;
    do {
      this.out.byte(Op.MARK);
      const end = Math.min(n, i + BATCH);
      for (; i < end; i++) this.save(items[i]!);
      this.out.byte(Op.APPENDS);
    } while (i < n);
  }

  private saveTuple(t: PyTuple): void {
    const n = t.items.length;
    if (n === 0) {
      // The empty tuple is not memoized by CPython.
      this.out.byte(Op.EMPTY_TUPLE);
      return;
    }
    if (n <= 3) {
      for (const item of t.items) this.save(item);
      this.out.byte(TUPLE_OPS[n]!);
    } else {
      this.out.byte(Op.MARK);
      for (const item of t.items) this.save(item);
      this.out.byte(Op.TUPLE);
    }
    this.memoPut(t);
  }

  private saveObjectDict(d: { readonly [key: string]: PickleValue }): void {
    const keys = Object.keys(d);
    this.saveDictItems(d, keys.length, keys, (k) => d[k]!);
  }

  private saveMap(m: ReadonlyMap<PickleKey, PickleValue>): void {
    this.saveDictItems(m, m.size, m.keys(), (k) => m.get(k)!);
  }

  /** CPython's save_dict + batch_dict_exact, quirks included. */
  private saveDictItems<K extends PickleKey>(
    dict: object,
    size: number,
    keys: Iterable<K>,
    get: (key: K) => PickleValue,
  ): void {
    this.out.byte(Op.EMPTY_DICT);
    this.memoPut(dict);
    if (size === 0) return;
    const it = keys[Symbol.iterator]();
    if (size === 1) {
      const k = it.next().value as K;
      this.save(k);
      this.save(get(k));
      this.out.byte(Op.SETITEM);
      return;
    }
    let batch: number;
    do {
      batch = 0;
      this.out.byte(Op.MARK);
      while (batch < BATCH) {
        const r = it.next();
        if (r.done === true) break;
        this.save(r.value);
        this.save(get(r.value));
        batch++;
      }
      this.out.byte(Op.SETITEMS);
    } while (batch === BATCH);
  }
}

function lengthHeader(op: number, length: number, width: 4 | 8): Uint8Array {
  const header = new Uint8Array(1 + width);
  const view = new DataView(header.buffer);
  header[0] = op;
  view.setUint32(1, length % TWO_POW_32, true);
  if (width === 8) view.setUint32(5, Math.floor(length / TWO_POW_32), true);
  return header;
}

/** Pickles a value in memory (tests). */
export function dumpToBytes(value: PickleValue, options: PickleWriterOptions = {}): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const writer = new PickleWriter((chunk) => {
    chunks.push(chunk.slice());
    total += chunk.length;
  }, options);
  writer.dump(value);
  return concatBytes(chunks, total);
}
