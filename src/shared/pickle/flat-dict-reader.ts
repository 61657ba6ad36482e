// The fast path for the one record a snapshot has millions of: a trace entry, pickled as
//   EMPTY_DICT MEMOIZE MARK (key value)* SETITEMS
// with string keys and values that are numbers, short strings or references to memoized objects
// (the shared frames list). Reading it straight from the bytes into reusable slots avoids the
// generic machinery (a dict object, a boxed number per field, stack traffic) that dominates
// decoding otherwise. Anything unexpected makes it give up without side effects, and the
// generic path decodes the same bytes instead.

import { Op } from './opcodes';
import { decodeLong } from './long-decoder';
import { MemoCode, type Memo } from './memo';
import type { PickleStringDecoder } from './string-decoder';
import type { ItemBudget } from './item-budget';

/** What a slot holds after a read: nothing, numbers[slot], values[slot], or a handle in numbers[slot]. */
export const SlotKind = { absent: 0, number: 1, value: 2, handle: 3 } as const;

export interface FlatDictConsumer {
  /** Key names of interest; a key's index here is its slot. Other keys are read and skipped. */
  readonly flatDictKeys: readonly string[];
  /** A dict without this slot is not the consumer's (the reader then gives up on it). */
  readonly flatDictRequiredSlot: number;
  /** The one slot whose value may be a new list of memoized objects (a trace entry's frames). */
  readonly flatDictListSlot: number;
  /**
   * A new list of memoized objects was read for the list slot, as the memo indexes of its items:
   * returns a handle (>= 0) that stands for it in the memo and in the slot, or -1 to give up.
   */
  internFlatDictList(
    itemMemoIndexes: Int32Array,
    count: number,
    memoIndexHash: number,
    memo: Memo,
  ): number;
  /** The value a handle stands for, when generic code reads it from the memo. */
  materializeHandle(handle: number): unknown;
  /**
   * A slot whose value may be a new list of strings (a trace entry's `forward_frames`), or -1.
   * Read like the list slot; its items are memoized strings, new or referenced.
   */
  readonly flatDictStringListSlot: number;
  /** As internFlatDictList, for the string list slot; -1 gives up. */
  internFlatDictStringList(
    itemMemoIndexes: Int32Array,
    count: number,
    memoIndexHash: number,
    memo: Memo,
  ): number;
  /** A slot whose value may be a new tuple of up to 3 integers (a `pool_id`), or -1. */
  readonly flatDictTupleSlot: number;
  /** The value standing for a tuple of integers items[0..count): one object per distinct tuple. */
  internFlatDictTuple(items: Float64Array, count: number): unknown;
  /** Keys of a dict the consumer took that are not among flatDictKeys (reported once each at least). */
  noteUnknownKeys(names: readonly string[]): void;
  /** A dict was read: numbers[slot] or values[slot] per kinds[slot]. Returns false to decline. */
  consumeFlatDict(
    numbers: Float64Array,
    values: unknown[],
    kinds: Uint8Array,
    offset: number,
  ): boolean;
}

/** Returned by read() when the bytes are not a flat dict it can take (or not all there yet). */
export const NOT_FLAT = -1;

const LIST_PLACEHOLDER = Symbol('list placeholder');
const SKIP_SLOT = -1;
const UNKNOWN_SLOT = -2;
// Keys that are none of the consumer's are cached as FIRST_OTHER_KEY - (their index in
// otherKeyNames), so a dict the consumer takes can name them without comparing strings.
const FIRST_OTHER_KEY = -3;
const SLOT_CACHE_SIZE = 1 << 16;

export class FlatDictReader {
  private readonly consumer: FlatDictConsumer;
  private readonly strings: PickleStringDecoder;
  private readonly numbers: Float64Array;
  private readonly values: unknown[];
  private readonly kinds: Uint8Array;
  /** The same bytes as kinds (padded to whole words): cleared four slots per write. */
  private readonly kindWords: Uint32Array;
  private listItems = new Int32Array(1024);
  private readonly slotByName: Map<string, number>;
  /** Slot of the key string memoized at each index (keys are memoized once, early in the file). */
  private readonly slotByMemoIndex = new Int32Array(SLOT_CACHE_SIZE).fill(UNKNOWN_SLOT);
  private readonly otherKeyNames: string[] = [];
  private readonly otherKeyCode = new Map<string, number>();
  /** Other keys of the dict being read (codes), and how many. */
  private otherKeys = new Int32Array(8);
  private otherKeyCount = 0;
  private readonly tupleItems = new Float64Array(3);
  /**
   * The unpickler's budget of list, dict and tuple items: the lists and tuples read here count
   * where the generic path would count them (at each APPEND, APPENDS and TUPLE opcode), and are
   * kept (committed) only with the dict.
   */
  private readonly items: ItemBudget;
  /** Items of the lists and tuples read so far in the current dict. */
  private pendingItems = 0;

  constructor(consumer: FlatDictConsumer, strings: PickleStringDecoder, items: ItemBudget) {
    this.consumer = consumer;
    this.strings = strings;
    this.items = items;
    const slots = consumer.flatDictKeys.length;
    this.numbers = new Float64Array(slots);
    this.values = new Array<unknown>(slots).fill(undefined);
    this.kindWords = new Uint32Array(Math.ceil(slots / 4));
    this.kinds = new Uint8Array(this.kindWords.buffer, 0, slots);
    this.slotByName = new Map(consumer.flatDictKeys.map((name, slot) => [name, slot]));
  }

  /**
   * Tries to read a flat dict whose EMPTY_DICT opcode ends at `pos`. On success the dict's memo
   * slot is marked consumed, and it returns the position after SETITEMS; otherwise NOT_FLAT, with
   * the memo as it was.
   */
  read(buffer: Uint8Array, view: DataView, pos: number, memo: Memo, offsetBase: number): number {
    const memoLength = memo.length;
    const after = this.readDict(buffer, view, pos, memo, memoLength, offsetBase);
    if (after === NOT_FLAT) {
      memo.truncate(memoLength);
      this.clearValues();
    }
    return after;
  }

  // Every way of giving up returns NOT_FLAT from here, and read() undoes the memo pushes in one
  // place. (One giveUp() call per exit made each exit a separate call site: the first time a
  // chunk boundary cut an entry at a new one, the optimized code had no feedback for it and was
  // thrown away, several times per file.)
  private readDict(
    buffer: Uint8Array,
    view: DataView,
    pos: number,
    memo: Memo,
    memoLength: number,
    offsetBase: number,
  ): number {
    const end = buffer.length;
    const kinds = this.kinds;
    // SlotKind.absent is 0: a trace entry has 15 slots, cleared in 4 writes instead of 15.
    const kindWords = this.kindWords;
    for (let word = 0; word < kindWords.length; word++) kindWords[word] = 0;
    // The dict's own memo entry.
    if (pos >= end) return NOT_FLAT;
    let op = buffer[pos]!;
    if (op === Op.MEMOIZE) {
      memo.pushConsumed();
      pos += 1;
    } else if (op === Op.BINPUT) {
      if (pos + 2 > end || buffer[pos + 1]! !== memoLength) return NOT_FLAT;
      memo.pushConsumed();
      pos += 2;
    } else if (op === Op.LONG_BINPUT) {
      if (pos + 5 > end || view.getUint32(pos + 1, true) !== memoLength) return NOT_FLAT;
      memo.pushConsumed();
      pos += 5;
    }
    if (pos >= end || buffer[pos] !== Op.MARK) return NOT_FLAT;
    pos += 1;
    const numbers = this.numbers;
    const values = this.values;
    for (;;) {
      if (pos >= end) return NOT_FLAT;
      // Key: a string, new or memoized.
      op = buffer[pos]!;
      let slot: number;
      if (op === Op.SETITEMS) {
        pos += 1;
        break;
      } else if (op === Op.BINGET || op === Op.LONG_BINGET) {
        let index: number;
        if (op === Op.BINGET) {
          if (pos + 2 > end) return NOT_FLAT;
          index = buffer[pos + 1]!;
          pos += 2;
        } else {
          if (pos + 5 > end) return NOT_FLAT;
          index = view.getUint32(pos + 1, true);
          pos += 5;
        }
        slot = index < SLOT_CACHE_SIZE ? this.slotByMemoIndex[index]! : UNKNOWN_SLOT;
        if (slot === UNKNOWN_SLOT) {
          const key = memo.get(index);
          if (typeof key !== 'string') return NOT_FLAT;
          slot = this.slotOfName(key);
          if (index < SLOT_CACHE_SIZE) this.slotByMemoIndex[index] = slot;
        }
      } else if (op === Op.SHORT_BINUNICODE) {
        if (pos + 2 > end) return NOT_FLAT;
        const length = buffer[pos + 1]!;
        if (pos + 2 + length > end) return NOT_FLAT;
        const key = this.strings.decode(buffer, pos + 2, length);
        pos += 2 + length;
        const after = this.memoize(buffer, view, pos, memo, key);
        if (after < 0) return NOT_FLAT;
        slot = this.slotOfName(key);
        if (after > pos && memo.length - 1 < SLOT_CACHE_SIZE)
          this.slotByMemoIndex[memo.length - 1] = slot;
        pos = after;
      } else {
        return NOT_FLAT;
      }
      if (slot <= FIRST_OTHER_KEY) this.noteOtherKey(slot);
      // Value: a scalar, a short string, or a memoized object.
      if (pos >= end) return NOT_FLAT;
      op = buffer[pos]!;
      if (
        slot === this.consumer.flatDictTupleSlot &&
        slot >= 0 &&
        op !== Op.BINGET &&
        op !== Op.LONG_BINGET
      ) {
        const after = this.readIntTuple(buffer, view, pos, memo, slot, offsetBase);
        if (after < 0) return NOT_FLAT;
        pos = after;
        continue;
      }
      switch (op) {
        case Op.BINGET:
        case Op.LONG_BINGET: {
          let index: number;
          if (op === Op.BINGET) {
            if (pos + 2 > end) return NOT_FLAT;
            index = buffer[pos + 1]!;
            pos += 2;
          } else {
            if (pos + 5 > end) return NOT_FLAT;
            index = view.getUint32(pos + 1, true);
            pos += 5;
          }
          const code = memo.code(index);
          if (code >= 0) {
            if (slot >= 0) {
              numbers[slot] = code;
              kinds[slot] = SlotKind.handle;
            }
          } else if (code <= MemoCode.firstObject) {
            if (slot >= 0) {
              values[slot] = memo.objectOf(code);
              kinds[slot] = SlotKind.value;
            }
          } else {
            return NOT_FLAT;
          }
          break;
        }
        case Op.BININT1:
          if (pos + 2 > end) return NOT_FLAT;
          if (slot >= 0) {
            numbers[slot] = buffer[pos + 1]!;
            kinds[slot] = SlotKind.number;
          }
          pos += 2;
          break;
        case Op.BININT2:
          if (pos + 3 > end) return NOT_FLAT;
          if (slot >= 0) {
            numbers[slot] = buffer[pos + 1]! | (buffer[pos + 2]! << 8);
            kinds[slot] = SlotKind.number;
          }
          pos += 3;
          break;
        case Op.BININT:
          if (pos + 5 > end) return NOT_FLAT;
          if (slot >= 0) {
            numbers[slot] = view.getInt32(pos + 1, true);
            kinds[slot] = SlotKind.number;
          }
          pos += 5;
          break;
        case Op.LONG1: {
          if (pos + 2 > end) return NOT_FLAT;
          const length = buffer[pos + 1]!;
          if (pos + 2 + length > end) return NOT_FLAT;
          const at = pos + 2;
          let value: number | bigint;
          // Addresses and time_us: 5-7 non-negative bytes, decoded inline (no call, no loop).
          if (length === 7 && buffer[at + 6]! < 0x20) {
            value =
              view.getUint32(at, true) +
              view.getUint16(at + 4, true) * 4294967296 +
              buffer[at + 6]! * 281474976710656;
          } else if (length === 6 && buffer[at + 5]! < 0x80) {
            value = view.getUint32(at, true) + view.getUint16(at + 4, true) * 4294967296;
          } else {
            value = decodeLong(buffer, at, length);
            if (typeof value !== 'number') return NOT_FLAT;
          }
          if (slot >= 0) {
            numbers[slot] = value;
            kinds[slot] = SlotKind.number;
          }
          pos += 2 + length;
          break;
        }
        case Op.BINFLOAT:
          if (pos + 9 > end) return NOT_FLAT;
          if (slot >= 0) {
            numbers[slot] = view.getFloat64(pos + 1, false);
            kinds[slot] = SlotKind.number;
          }
          pos += 9;
          break;
        case Op.SHORT_BINUNICODE: {
          if (pos + 2 > end) return NOT_FLAT;
          const length = buffer[pos + 1]!;
          if (pos + 2 + length > end) return NOT_FLAT;
          const text = this.strings.decode(buffer, pos + 2, length);
          const after = this.memoize(buffer, view, pos + 2 + length, memo, text);
          if (after < 0) return NOT_FLAT;
          if (slot >= 0) {
            values[slot] = text;
            kinds[slot] = SlotKind.value;
          }
          pos = after;
          break;
        }
        case Op.NONE:
        case Op.NEWTRUE:
        case Op.NEWFALSE:
          if (slot >= 0) {
            values[slot] = op === Op.NONE ? null : op === Op.NEWTRUE;
            kinds[slot] = SlotKind.value;
          }
          pos += 1;
          break;
        case Op.EMPTY_LIST: {
          if (slot === this.consumer.flatDictStringListSlot && slot >= 0) {
            const after = this.readStringList(buffer, view, pos + 1, memo, offsetBase);
            if (after < 0) return NOT_FLAT;
            kinds[slot] = SlotKind.handle;
            pos = after;
            break;
          }
          if (slot !== this.consumer.flatDictListSlot) return NOT_FLAT;
          // Read now, made into a value only once the dict proves to be the consumer's.
          const after = this.readList(buffer, view, pos + 1, memo, offsetBase);
          if (after < 0) return NOT_FLAT;
          kinds[slot] = SlotKind.handle;
          pos = after;
          break;
        }
        default:
          // Tuples, nested dicts, lists holding new objects (a pool id, a stack with a frame never
          // seen before): the generic path.
          return NOT_FLAT;
      }
    }
    if (kinds[this.consumer.flatDictRequiredSlot] === SlotKind.absent) return NOT_FLAT;
    if (this.listCount >= 0) {
      const handle = this.consumer.internFlatDictList(
        this.listItems,
        this.listCount,
        this.listHash,
        memo,
      );
      if (handle < 0) return NOT_FLAT;
      if (this.listMemoIndex >= 0) memo.setHandle(this.listMemoIndex, handle);
      numbers[this.consumer.flatDictListSlot] = handle;
    }
    if (this.stringListCount >= 0) {
      const handle = this.consumer.internFlatDictStringList(
        this.stringListItems,
        this.stringListCount,
        this.stringListHash,
        memo,
      );
      if (handle < 0) return NOT_FLAT;
      if (this.stringListMemoIndex >= 0) memo.setHandle(this.stringListMemoIndex, handle);
      numbers[this.consumer.flatDictStringListSlot] = handle;
    }
    // The offset of SETITEMS, as the generic path reports it: the same messages either way.
    if (!this.consumer.consumeFlatDict(numbers, values, kinds, offsetBase + pos - 1)) {
      return NOT_FLAT;
    }
    if (this.otherKeyCount > 0) this.reportOtherKeys();
    this.readNewList = this.listCount >= 0 || this.stringListCount >= 0;
    this.items.commit(this.pendingItems);
    this.clearValues();
    return pos;
  }

  /** The slot of a key name: the consumer's, or a code for another key (FIRST_OTHER_KEY - i). */
  private slotOfName(key: string): number {
    const slot = this.slotByName.get(key);
    if (slot !== undefined) return slot;
    let code = this.otherKeyCode.get(key);
    if (code === undefined) {
      // Bounded: past a few hundred distinct names, further ones are skipped unnamed.
      if (this.otherKeyNames.length >= 256) return SKIP_SLOT;
      code = FIRST_OTHER_KEY - this.otherKeyNames.length;
      this.otherKeyNames.push(key);
      this.otherKeyCode.set(key, code);
    }
    return code;
  }

  private noteOtherKey(code: number): void {
    if (this.otherKeyCount === this.otherKeys.length) {
      const grown = new Int32Array(this.otherKeys.length * 2);
      grown.set(this.otherKeys);
      this.otherKeys = grown;
    }
    this.otherKeys[this.otherKeyCount++] = code;
  }

  private reportOtherKeys(): void {
    const names: string[] = [];
    for (let i = 0; i < this.otherKeyCount; i++) {
      names.push(this.otherKeyNames[FIRST_OTHER_KEY - this.otherKeys[i]!]!);
    }
    this.consumer.noteUnknownKeys(names);
  }

  /**
   * A tuple of up to three integers (a pool id: `(0, 0)`) whose first item starts at `pos`:
   *   (BININT1 | BININT2 | BININT | LONG1)* (EMPTY_TUPLE | TUPLE1 | TUPLE2 | TUPLE3) [memo op]
   * into the slot as the consumer's object for it; returns the position after, or -1.
   */
  private readIntTuple(
    buffer: Uint8Array,
    view: DataView,
    pos: number,
    memo: Memo,
    slot: number,
    offsetBase: number,
  ): number {
    const end = buffer.length;
    const items = this.tupleItems;
    let count = 0;
    for (;;) {
      if (pos >= end) return -1;
      const op = buffer[pos]!;
      let expected = -1;
      if (op === Op.EMPTY_TUPLE) expected = 0;
      else if (op === Op.TUPLE1) expected = 1;
      else if (op === Op.TUPLE2) expected = 2;
      else if (op === Op.TUPLE3) expected = 3;
      if (expected >= 0) {
        if (expected !== count) return -1;
        pos += 1;
        this.pendingItems += count;
        this.items.check(this.pendingItems, offsetBase + pos);
        break;
      }
      if (count === 3) return -1;
      if (op === Op.BININT1) {
        if (pos + 2 > end) return -1;
        items[count++] = buffer[pos + 1]!;
        pos += 2;
      } else if (op === Op.BININT2) {
        if (pos + 3 > end) return -1;
        items[count++] = buffer[pos + 1]! | (buffer[pos + 2]! << 8);
        pos += 3;
      } else if (op === Op.BININT) {
        if (pos + 5 > end) return -1;
        items[count++] = view.getInt32(pos + 1, true);
        pos += 5;
      } else if (op === Op.LONG1) {
        if (pos + 2 > end) return -1;
        const length = buffer[pos + 1]!;
        if (pos + 2 + length > end) return -1;
        const value = decodeLong(buffer, pos + 2, length);
        if (typeof value !== 'number') return -1;
        items[count++] = value;
        pos += 2 + length;
      } else {
        return -1;
      }
    }
    const value = this.consumer.internFlatDictTuple(items, count);
    const after = this.memoize(buffer, view, pos, memo, value);
    if (after < 0) return -1;
    this.values[slot] = value;
    this.kinds[slot] = SlotKind.value;
    return after;
  }

  /** The string list read in the current dict (see readStringList); -1: none. */
  private stringListCount = -1;
  private stringListMemoIndex = -1;
  private stringListHash = 0;
  private stringListItems = new Int32Array(64);

  /**
   * Reads a list of strings whose EMPTY_LIST ends at `pos`: items are references to memoized
   * objects, or new strings (SHORT_BINUNICODE / BINUNICODE) that are memoized at once:
   *   [memo op] (MARK item+ APPENDS | item APPEND)*
   * into stringListItems as memo indexes; returns the position after, or -1.
   */
  private readStringList(
    buffer: Uint8Array,
    view: DataView,
    pos: number,
    memo: Memo,
    offsetBase: number,
  ): number {
    if (this.stringListCount >= 0) return -1;
    const end = buffer.length;
    const memoIndex = memo.length;
    const afterMemo = this.memoize(buffer, view, pos, memo, LIST_PLACEHOLDER);
    if (afterMemo < 0) return -1;
    const memoized = afterMemo > pos;
    pos = afterMemo;
    let count = 0;
    let hash = 0x811c9dc5;
    let batch = false;
    for (;;) {
      if (pos >= end) return -1;
      const op = buffer[pos]!;
      if (op === Op.MARK && !batch) {
        batch = true;
        pos += 1;
        continue;
      }
      if (op === Op.APPENDS && batch) {
        batch = false;
        pos += 1;
        this.items.check(this.pendingItems + count, offsetBase + pos);
        continue;
      }
      const itemStart = pos;
      const memoBefore = memo.length;
      let item: number;
      if (op === Op.BINGET || op === Op.LONG_BINGET) {
        item = this.readReference(buffer, view, pos);
        if (item < 0 || item >= memo.length) return -1;
        pos = this.afterReference;
      } else if (op === Op.SHORT_BINUNICODE || op === Op.BINUNICODE) {
        const header = op === Op.SHORT_BINUNICODE ? 2 : 5;
        if (pos + header > end) return -1;
        const length =
          op === Op.SHORT_BINUNICODE ? buffer[pos + 1]! : view.getUint32(pos + 1, true);
        if (pos + header + length > end) return -1;
        const text = this.strings.decode(buffer, pos + header, length);
        const after = this.memoize(buffer, view, pos + header + length, memo, text);
        // A string that is not memoized has no index to stand for it: the generic path reads it.
        if (after <= pos + header + length) return -1;
        item = memo.length - 1;
        pos = after;
      } else if (batch) {
        return -1;
      } else {
        break;
      }
      if (!batch) {
        // One item outside a batch is `item APPEND`; anything else means the list ended and
        // this was the dict's next key.
        if (pos >= end) return -1;
        if (buffer[pos] !== Op.APPEND) {
          memo.truncate(memoBefore);
          pos = itemStart;
          break;
        }
        pos += 1;
      }
      if (count === this.stringListItems.length) {
        const grown = new Int32Array(count * 2);
        grown.set(this.stringListItems);
        this.stringListItems = grown;
      }
      this.stringListItems[count++] = item;
      hash = Math.imul(hash ^ item, 0x01000193);
      if (!batch) this.items.check(this.pendingItems + count, offsetBase + pos);
    }
    this.pendingItems += count;
    this.stringListCount = count;
    this.stringListHash = hash;
    this.stringListMemoIndex = memoized ? memoIndex : -1;
    return pos;
  }

  /** Whether the last dict read held a new list (not a reference to one already read). */
  readNewList = false;

  /** The list read in the current dict: items[0..listCount) (-1: none) and its memo index (-1: none). */
  private listCount = -1;
  private listMemoIndex = -1;

  /**
   * Reads a list of memo references whose EMPTY_LIST ends at `pos`:
   *   [memo op] (MARK (BINGET | LONG_BINGET)+ APPENDS | (BINGET | LONG_BINGET) APPEND)*
   * into listItems; returns the position after, or -1.
   */
  private readList(
    buffer: Uint8Array,
    view: DataView,
    pos: number,
    memo: Memo,
    offsetBase: number,
  ): number {
    const end = buffer.length;
    const memoIndex = memo.length;
    const afterMemo = this.memoize(buffer, view, pos, memo, LIST_PLACEHOLDER);
    if (afterMemo < 0) return -1;
    const memoized = afterMemo > pos;
    pos = afterMemo;
    // Items may only name slots already written (a local: this is the hottest loop).
    const memoLength = memo.length;
    // The hot loop of a snapshot (a trace entry names 20-50 frames): items, hash and position
    // stay in locals.
    let items: Int32Array = this.listItems;
    let count = 0;
    let hash = 0x811c9dc5;
    for (;;) {
      if (pos >= end) return -1;
      const op = buffer[pos]!;
      if (op === Op.MARK) {
        pos += 1;
        for (;;) {
          if (pos >= end) return -1;
          const itemOp = buffer[pos]!;
          let item: number;
          if (itemOp === Op.BINGET) {
            if (pos + 2 > end) return -1;
            item = buffer[pos + 1]!;
            pos += 2;
          } else if (itemOp === Op.LONG_BINGET) {
            if (pos + 5 > end) return -1;
            item = view.getUint32(pos + 1, true);
            pos += 5;
          } else if (itemOp === Op.APPENDS) {
            pos += 1;
            this.items.check(this.pendingItems + count, offsetBase + pos);
            break;
          } else {
            return -1;
          }
          // A reference to nothing yet: the generic path says what is wrong with it.
          if (item >= memoLength) return -1;
          if (count === items.length) items = this.growListItems();
          items[count++] = item;
          hash = Math.imul(hash ^ item, 0x01000193);
        }
      } else if (op === Op.BINGET || op === Op.LONG_BINGET) {
        // One item is written as `item APPEND`; anything else after a reference is the dict's next key.
        const item = this.readReference(buffer, view, pos);
        if (item < 0) return -1;
        if (this.afterReference >= end) return -1;
        if (buffer[this.afterReference] !== Op.APPEND) break;
        if (item >= memoLength) return -1;
        if (count === items.length) items = this.growListItems();
        items[count++] = item;
        hash = Math.imul(hash ^ item, 0x01000193);
        pos = this.afterReference + 1;
        this.items.check(this.pendingItems + count, offsetBase + pos);
      } else {
        break;
      }
    }
    if (this.listCount >= 0) return -1; // a second list: not a trace entry
    this.pendingItems += count;
    this.listCount = count;
    this.listHash = hash;
    this.listMemoIndex = memoized ? memoIndex : -1;
    return pos;
  }

  private afterReference = 0;

  /** FNV-1a over the memo indexes of the list's items, computed as they are read. */
  private listHash = 0;

  private growListItems(): Int32Array {
    const grown = new Int32Array(this.listItems.length * 2);
    grown.set(this.listItems);
    this.listItems = grown;
    return grown;
  }

  /** The memo index a BINGET / LONG_BINGET at `pos` names, or -1 (afterReference: where it ends). */
  private readReference(buffer: Uint8Array, view: DataView, pos: number): number {
    const op = buffer[pos];
    if (op === Op.BINGET) {
      if (pos + 2 > buffer.length) return -1;
      this.afterReference = pos + 2;
      return buffer[pos + 1]!;
    }
    if (op === Op.LONG_BINGET) {
      if (pos + 5 > buffer.length) return -1;
      this.afterReference = pos + 5;
      return view.getUint32(pos + 1, true);
    }
    return -1;
  }

  /** Applies the memo opcode CPython writes after a new object (LIST_PLACEHOLDER: reserve the slot); -1 if it cannot. */
  private memoize(
    buffer: Uint8Array,
    view: DataView,
    pos: number,
    memo: Memo,
    value: unknown,
  ): number {
    if (pos >= buffer.length) return -1;
    const op = buffer[pos]!;
    let after: number;
    if (op === Op.MEMOIZE) {
      after = pos + 1;
    } else if (op === Op.BINPUT) {
      if (pos + 2 > buffer.length || buffer[pos + 1]! !== memo.length) return -1;
      after = pos + 2;
    } else if (op === Op.LONG_BINPUT) {
      if (pos + 5 > buffer.length || view.getUint32(pos + 1, true) !== memo.length) return -1;
      after = pos + 5;
    } else {
      return pos;
    }
    if (value === LIST_PLACEHOLDER) memo.pushEmpty();
    else memo.push(value);
    return after;
  }

  /**
   * Ends a dict. Values are not cleared per dict (that cost 5% of decoding): a slot's value is
   * read only where its kind says so, and the kinds are cleared when the next dict starts. The few
   * references left are dropped by dropValues() when the file is done.
   */
  private clearValues(): void {
    this.pendingItems = 0;
    this.listCount = -1;
    this.stringListCount = -1;
    this.otherKeyCount = 0;
  }

  /** Drops the references the last dict left in the slots. */
  dropValues(): void {
    this.values.fill(undefined);
  }
}
