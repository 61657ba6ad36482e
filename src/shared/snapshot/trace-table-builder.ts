// Turns trace-entry dicts into rows of typed-array columns while the pickle streams by, so a
// trace of millions of entries never exists as objects. Rows are numbered in file order; each
// trace list (one per device) is a contiguous range of rows.

import { SlotKind, type FlatDictConsumer } from '../pickle/flat-dict-reader';
import type { Memo } from '../pickle/memo';
import {
  dictKeyOf,
  type DictInterceptor,
  type PickleDict,
  type PickleValue,
} from '../pickle/unpickler';
import {
  ActionCode,
  KNOWN_ACTIONS,
  NO_LIST,
  type DeviceTrace,
  NO_STACK,
  NO_STRING,
  type StringListTable,
} from './model';
import { describeFound, MAX_BYTE_COUNT } from './raw-schema';
import { SnapshotFormatError } from './snapshot-error';
import { NOT_FOUND, SequenceTable } from './sequence-table';
import { StackRef, StringListRef, type StackInterner } from './stack-interner';

/**
 * A trace entry's field that cannot be what it says. The JSON reader names the field by its path
 * (`device_traces[0][12].size`) and its own byte; the pickle's words name the field alone.
 */
export class TraceEntryFieldError extends SnapshotFormatError {
  readonly field: string;
  readonly problem: string;

  constructor(field: string, problem: string, offset: number) {
    super(`not a memory snapshot of a known shape: a trace entry's '${field}': ${problem}`, offset);
    this.field = field;
    this.problem = problem;
  }
}

/** The columns of a part's rows, named as a device's trace names them. */
type PartColumns = Pick<
  DeviceTrace,
  'action' | 'addr' | 'sizeBytes' | 'streamId' | 'timeUs' | 'stackId'
> &
  Required<
    Pick<
      DeviceTrace,
      | 'compileContextId'
      | 'userMetadataId'
      | 'internalMetadataId'
      | 'categoryId'
      | 'poolIndex'
      | 'forwardFramesId'
    >
  >;

/** A part's rows and tables as plain data (TraceTableBuilder.partTables), ids its own. */
export interface PartTables extends PartColumns {
  rows: number;
  consumed: number;
  actionNames: string[];
  streams: number[];
  strings: string[];
  pools: string[];
  stringListOffsets: number[];
  stringListIds: number[];
  deviceFreeBytes: [number, number][];
  annotations: PendingAnnotation[];
  userDefined: PendingUserDefined[];
  unknownActionCounts: [string, number][];
  unknownKeys: string[];
  asideConsumed: number[];
  /** The range of the part's trace list (the spine's open list), null when it has no entries. */
  listRange: RowRange | null;
  /** The ranges of the later trace lists it began (PartState.lists), null where one has none. */
  laterRanges: (RowRange | null)[];
}

export interface RowRange {
  first: number;
  count: number;
  /** The entries (dicts) of the list, rows or not: consumedFirst .. consumedFirst + consumedCount. */
  consumedFirst: number;
  consumedCount: number;
}

/** An `annotate` entry, kept aside (see TraceAnnotation); `consumed` says which list holds it. */
export interface PendingAnnotation {
  consumed: number;
  /** The global row before it (rows - 1 at the time). */
  afterRow: number;
  addr: number;
  textId: number;
  stackId: number;
  timeUs: number;
}

/** A `user_defined` entry (mid-2024 files): an annotation like external_annotations' ones. */
export interface PendingUserDefined {
  consumed: number;
  stage: string;
  name: string;
  timeUs: number;
}

const MIN_CAPACITY = 1 << 12;
const FRAME_CACHE_SIZE = 1 << 16;

/** Trace entry keys, in slot order (FlatDictConsumer.flatDictKeys). */
const TRACE_ENTRY_KEYS = [
  'action',
  'addr',
  'size',
  'stream',
  'time_us',
  'frames',
  'device_free',
  'compile_context',
  'user_metadata',
  'pool_id',
  'internal_metadata',
  'category',
  'forward_frames',
  'name',
  'stage',
] as const;

const ACTION = 0;
const ADDR = 1;
const SIZE = 2;
const STREAM = 3;
const TIME_US = 4;
const FRAMES = 5;
const DEVICE_FREE = 6;
const COMPILE_CONTEXT = 7;
const USER_METADATA = 8;
const POOL_ID = 9;
const INTERNAL_METADATA = 10;
const CATEGORY = 11;
const FORWARD_FRAMES = 12;
const NAME = 13;
const STAGE = 14;
const OTHER_KEY = -1;

/** Actions that are not rows of the trace (they change no figure): annotate, user_defined, unknown. */
const FIRST_ASIDE_ACTION = ActionCode.annotate;

// forward_frames handles are offset so that they never meet stack handles (stack id + 1).
const STRING_LIST_HANDLE_BASE = 1 << 30;
// An empty forward_frames list: no list of the table, as the generic path reads [] (NO_LIST). The
// last handle a memo slot holds (an Int32), far past any list id a file can reach.
const EMPTY_STRING_LIST_HANDLE = 0x7fffffff;

// Actions whose entries must name an address.
const ADDRESSED_ACTIONS = new Set<number>([
  ActionCode.alloc,
  ActionCode.free_requested,
  ActionCode.free_completed,
  ActionCode.free,
  ActionCode.segment_alloc,
  ActionCode.segment_free,
  ActionCode.segment_map,
  ActionCode.segment_unmap,
]);

/** What a numeric field must be: a byte count (whole, 0 to 1 PiB), an integer, a finite time. */
const NumberKind = { byteCount: 0, integer: 1, time: 2 } as const;
type NumberKind = (typeof NumberKind)[keyof typeof NumberKind];
const NUMBER_KIND_NOUNS = ['a byte count', 'an integer', 'a time in microseconds'] as const;
const BYTE_COUNT = NumberKind.byteCount;
const INTEGER = NumberKind.integer;
const FINITE = NumberKind.time;

const SLOT_BY_KEY = new Map<unknown, number>(TRACE_ENTRY_KEYS.map((key, slot) => [key, slot]));

/**
 * The rows decoded so far, as a reader between the chunks fed to the decoder sees them (the
 * curves drawn while a file decodes, analysis/curve-preview.ts). The arrays are replaced as
 * they grow: read them again each time.
 */
export interface TraceRowsSoFar {
  readonly action: Uint8Array;
  readonly sizeBytes: Float64Array;
  /** Each trace list's rows, in the order the lists began (the rows of a list are contiguous). */
  readonly ranges: ReadonlyMap<unknown, { readonly first: number; readonly count: number }>;
}

export class TraceTableBuilder implements DictInterceptor, FlatDictConsumer, TraceRowsSoFar {
  readonly flatDictKeys: readonly string[] = TRACE_ENTRY_KEYS;
  readonly flatDictRequiredSlot = ACTION;
  readonly flatDictListSlot = FRAMES;
  readonly flatDictStringListSlot = FORWARD_FRAMES;
  readonly flatDictTupleSlot = POOL_ID;
  rows = 0;
  /** Trace entries read, rows or not (annotate, user_defined and unknown actions are not rows). */
  consumed = 0;
  action: Uint8Array;
  addr: Float64Array;
  sizeBytes: Float64Array;
  streamId: Uint32Array;
  timeUs: Float64Array;
  stackId: Int32Array;
  compileContextId: Int32Array | null = null;
  userMetadataId: Int32Array | null = null;
  internalMetadataId: Int32Array | null = null;
  categoryId: Int32Array | null = null;
  poolIndex: Int32Array | null = null;
  forwardFramesId: Int32Array | null = null;
  /** Pool ids as written ("0,0"), shared with the segments' pools: index 0 is the default pool. */
  readonly pools: string[] = ['0,0'];
  readonly annotations: PendingAnnotation[] = [];
  readonly userDefined: PendingUserDefined[] = [];
  /** Entries of unknown actions, by name. */
  readonly unknownActionCounts = new Map<string, number>();
  /** Keys of trace entries that are not read. */
  readonly unknownKeys = new Set<string>();
  readonly deviceFreeBytes = new Map<number, number>();
  readonly actionNames: string[] = [...KNOWN_ACTIONS];
  readonly streams: number[] = [];
  readonly strings: string[] = [];
  /** Trace lists found so far, by list object. */
  readonly ranges = new Map<PickleValue[], RowRange>();

  private capacity: number;
  private readonly actionCodeByName = new Map<string, number>(
    KNOWN_ACTIONS.map((name, code) => [name, code]),
  );
  private readonly streamIdByValue = new Map<number, number>();
  private readonly stringIdByValue = new Map<string, number>();
  private readonly poolIndexByValue = new Map<string, number>([['0,0', 0]]);
  private readonly stacks: StackInterner;
  /** Consumed indexes of entries that are not rows, ascending. */
  private readonly asideConsumed: number[] = [];

  constructor(stacks: StackInterner, expectedRows = 0) {
    this.stacks = stacks;
    this.capacity = Math.max(MIN_CAPACITY, Math.ceil(expectedRows));
    this.action = new Uint8Array(this.capacity);
    this.addr = new Float64Array(this.capacity);
    this.sizeBytes = new Float64Array(this.capacity);
    this.streamId = new Uint32Array(this.capacity);
    this.timeUs = new Float64Array(this.capacity);
    this.stackId = new Int32Array(this.capacity);
  }

  /** The generic path: a dict filled by SETITEMS, with its pairs on the VM's stack. */
  consumeDict(
    dict: PickleDict,
    stack: readonly unknown[],
    from: number,
    to: number,
    offset: number,
  ): boolean {
    let isTraceEntry = false;
    for (let i = from, position = 0; i < to; i += 2, position++) {
      if (this.slotOf(stack[i], position) === ACTION) {
        isTraceEntry = true;
        break;
      }
    }
    if (!isTraceEntry || !isEmpty(dict)) return false;
    const { numbers, values, kinds } = this;
    kinds.fill(SlotKind.absent);
    for (let i = from, position = 0; i < to; i += 2, position++) {
      const slot = this.slotOf(stack[i], position);
      if (slot === OTHER_KEY) {
        // Named as a dict names it, and refused as a dict refuses it: a list is no key, whether
        // it stands here as a list (the generic path) or as the fast path's stand-in for one
        // (fuzz campaign seed 20261132, case 11884: a forward_frames list named as a key).
        const key = stack[i];
        this.unknownKeys.add(typeof key === 'string' ? key : dictKeyOf(key, offset));
        continue;
      }
      const value = stack[i + 1];
      if (typeof value === 'number') {
        numbers[slot] = value;
        kinds[slot] = SlotKind.number;
      } else {
        values[slot] = value;
        kinds[slot] = SlotKind.value;
      }
    }
    this.consumeFlatDict(numbers, values, kinds, offset);
    values.fill(undefined);
    return true;
  }

  /** One trace entry, field by field (from the fast path or from consumeDict). */
  consumeFlatDict(
    numbers: Float64Array,
    values: unknown[],
    kinds: Uint8Array,
    offset: number,
  ): boolean {
    // Read by its kind, as every field is: a memoized number stands in values on the fast path
    // and in numbers on the generic one.
    const action = this.actionCode(
      this.slotValue(ACTION, numbers, values, kinds),
      this.rows,
      offset,
    );
    // forward_frames first, on every entry: the fast path interns a new list's strings as it
    // reads the list, before anything else of the entry, and the strings table must come out
    // in the same order either way.
    const forward =
      kinds[FORWARD_FRAMES] === SlotKind.absent
        ? NO_LIST
        : this.forwardFramesOfSlot(numbers, values, kinds);
    if (action >= FIRST_ASIDE_ACTION) {
      this.setAside(action, numbers, values, kinds, offset);
      return true;
    }
    this.consumed++;
    if (this.rows === this.capacity) this.grow();
    const row = this.rows++;
    const addr = this.field(ADDR, numbers, values, kinds, row, offset, BYTE_COUNT);
    if (Number.isNaN(addr) && ADDRESSED_ACTIONS.has(action) && kinds[ADDR] === SlotKind.absent) {
      this.problem(
        row,
        'addr',
        `missing ('${this.actionNames[action]}' entries name an address)`,
        offset,
      );
    }
    this.action[row] = action;
    this.addr[row] = addr;
    const size = this.field(SIZE, numbers, values, kinds, row, offset, BYTE_COUNT);
    this.sizeBytes[row] = Number.isNaN(size) ? 0 : size;
    const stream = this.field(STREAM, numbers, values, kinds, row, offset, INTEGER);
    this.streamId[row] = this.internStream(Number.isNaN(stream) ? 0 : stream);
    this.timeUs[row] = this.field(TIME_US, numbers, values, kinds, row, offset, FINITE);
    this.stackId[row] = this.stackOfSlot(numbers, values, kinds, offset);
    if (kinds[DEVICE_FREE] !== SlotKind.absent) {
      const deviceFree = this.field(DEVICE_FREE, numbers, values, kinds, row, offset, BYTE_COUNT);
      if (!Number.isNaN(deviceFree)) this.deviceFreeBytes.set(row, deviceFree);
    }
    const compileContext =
      kinds[COMPILE_CONTEXT] === SlotKind.value
        ? this.internOptionalString(values[COMPILE_CONTEXT])
        : NO_STRING;
    const userMetadata =
      kinds[USER_METADATA] === SlotKind.value
        ? this.internOptionalString(values[USER_METADATA])
        : NO_STRING;
    // The optional columns exist only once some entry has a value, so most files never pay for them.
    if (compileContext !== NO_STRING || this.compileContextId !== null) {
      this.compileContextId ??= this.optionalColumn(row);
      this.compileContextId[row] = compileContext;
    }
    if (userMetadata !== NO_STRING || this.userMetadataId !== null) {
      this.userMetadataId ??= this.optionalColumn(row);
      this.userMetadataId[row] = userMetadata;
    }
    // The newest fields: one check each when absent.
    if (
      kinds[POOL_ID] !== SlotKind.absent ||
      kinds[INTERNAL_METADATA] !== SlotKind.absent ||
      kinds[CATEGORY] !== SlotKind.absent ||
      kinds[FORWARD_FRAMES] !== SlotKind.absent ||
      this.poolIndex !== null ||
      this.internalMetadataId !== null ||
      this.categoryId !== null ||
      this.forwardFramesId !== null
    ) {
      this.newestFields(row, values, kinds, forward);
    }
    return true;
  }

  /** pool_id, internal_metadata, category, forward_frames of row `row`. */
  private newestFields(row: number, values: unknown[], kinds: Uint8Array, forward: number): void {
    const pool = kinds[POOL_ID] === SlotKind.value ? this.poolIndexOf(values[POOL_ID]) : NO_STRING;
    if (pool !== NO_STRING || this.poolIndex !== null) {
      this.poolIndex ??= this.optionalColumn(row);
      this.poolIndex[row] = pool;
    }
    const internal =
      kinds[INTERNAL_METADATA] === SlotKind.value
        ? this.internOptionalString(values[INTERNAL_METADATA])
        : NO_STRING;
    if (internal !== NO_STRING || this.internalMetadataId !== null) {
      this.internalMetadataId ??= this.optionalColumn(row);
      this.internalMetadataId[row] = internal;
    }
    const category =
      kinds[CATEGORY] === SlotKind.value ? this.internOptionalString(values[CATEGORY]) : NO_STRING;
    if (category !== NO_STRING || this.categoryId !== null) {
      this.categoryId ??= this.optionalColumn(row);
      this.categoryId[row] = category;
    }
    if (forward !== NO_LIST || this.forwardFramesId !== null) {
      this.forwardFramesId ??= this.optionalColumn(row);
      this.forwardFramesId[row] = forward;
    }
  }

  /** The stack of the frames slot (NO_STACK when absent). */
  private stackOfSlot(
    numbers: Float64Array,
    values: unknown[],
    kinds: Uint8Array,
    offset: number,
  ): number {
    const framesKind = kinds[FRAMES];
    if (framesKind === SlotKind.handle) {
      const handle = numbers[FRAMES]!;
      // A forward_frames list named as frames: read as the generic path reads that list.
      if (handle >= STRING_LIST_HANDLE_BASE) {
        return this.stacks.intern(this.materializeHandle(handle), offset);
      }
      return stackOfHandle(handle);
    }
    if (framesKind === SlotKind.absent) return NO_STACK;
    // A number is refused as the generic path refuses it; values[FRAMES] is a reused slot that
    // may still hold an earlier entry's list (fuzz campaign seed 28112026, case 3587).
    if (framesKind === SlotKind.number) return this.stacks.intern(numbers[FRAMES], offset);
    return this.stacks.intern(values[FRAMES], offset);
  }

  /** An entry that is not a row: an annotation kept aside, or an unknown action counted. */
  private setAside(
    action: number,
    numbers: Float64Array,
    values: unknown[],
    kinds: Uint8Array,
    offset: number,
  ): void {
    const consumed = this.consumed++;
    this.asideConsumed.push(consumed);
    // Read leniently: these entries change no figure, so nothing in them refuses the file.
    const time = this.slotValue(TIME_US, numbers, values, kinds);
    const timeUs = typeof time === 'number' && Number.isFinite(time) ? time : NaN;
    // Every aside entry's frames are interned, whatever its action: the fast path interns a
    // frames list as it reads it, before it knows the action, so the stacks table must hold it
    // on the generic path too (fuzz campaign seed 20261129, case 29048: a user_defined entry
    // with frames).
    let stackId = NO_STACK;
    try {
      stackId = this.stackOfSlot(numbers, values, kinds, offset);
    } catch {
      // An aside entry's stack that is not one is dropped, never an error: it changes no figure.
    }
    if (action === ActionCode.annotate) {
      const rawAddr = this.slotValue(ADDR, numbers, values, kinds);
      const addr = typeof rawAddr === 'number' ? rawAddr : NaN;
      let textId =
        kinds[USER_METADATA] === SlotKind.value
          ? this.internOptionalString(values[USER_METADATA])
          : NO_STRING;
      if (textId === NO_STRING && kinds[INTERNAL_METADATA] === SlotKind.value) {
        textId = this.internOptionalString(values[INTERNAL_METADATA]);
      }
      this.annotations.push({
        consumed,
        afterRow: this.rows - 1,
        addr: Number.isSafeInteger(addr) ? addr : NaN,
        textId,
        stackId,
        timeUs,
      });
      return;
    }
    if (action === ActionCode.user_defined) {
      const text = (slot: number): string =>
        kinds[slot] === SlotKind.value && typeof values[slot] === 'string'
          ? (values[slot] as string)
          : '';
      const name = text(NAME) || text(USER_METADATA);
      this.userDefined.push({ consumed, stage: text(STAGE), name, timeUs });
      return;
    }
    const name = this.actionNames[action]!;
    this.unknownActionCounts.set(name, (this.unknownActionCounts.get(name) ?? 0) + 1);
  }

  /** Index into pools of a pool id tuple; NO_STRING when it is not a tuple of integers. */
  private poolIndexOf(value: unknown): number {
    if (value === this.lastPoolValue) return this.lastPoolIndex;
    if (!Array.isArray(value) || value.length > 8) return NO_STRING;
    for (const item of value)
      if (typeof item !== 'number' || !Number.isSafeInteger(item)) return NO_STRING;
    const pool = value.join(',');
    let index = this.poolIndexByValue.get(pool);
    if (index === undefined) {
      index = this.pools.length;
      this.pools.push(pool);
      this.poolIndexByValue.set(pool, index);
    }
    this.lastPoolValue = value;
    this.lastPoolIndex = index;
    return index;
  }

  private lastPoolValue: unknown = undefined;
  private lastPoolIndex = NO_STRING;

  /** Index into pools of a pool id as written ("1,3"), interned like the trace's. */
  internPool(pool: string): number {
    let index = this.poolIndexByValue.get(pool);
    if (index === undefined) {
      index = this.pools.length;
      this.pools.push(pool);
      this.poolIndexByValue.set(pool, index);
    }
    return index;
  }

  private readonly tuplesByKey = new Map<string, readonly number[]>();

  /** One frozen array per distinct tuple of integers the fast path reads (pool ids). */
  internFlatDictTuple(items: Float64Array, count: number): unknown {
    // Pool ids are one or two small integers: a key of their digits, looked up once per entry.
    const key =
      count === 2 ? `${items[0]},${items[1]}` : Array.from(items.subarray(0, count)).join(',');
    let tuple = this.tuplesByKey.get(key);
    if (tuple === undefined) {
      tuple = Object.freeze(Array.from(items.subarray(0, count)));
      this.tuplesByKey.set(key, tuple);
    }
    return tuple;
  }

  noteUnknownKeys(names: readonly string[]): void {
    for (const name of names) this.unknownKeys.add(name);
  }

  // --- forward_frames: lists of strings, interned like stacks --------------------------------

  private readonly stringListOffsets: number[] = [0];
  private stringListIds: number[] = [];
  private readonly stringListsByHash = new Map<number, number | number[]>();
  private readonly stringListsByMemoIndexes = new SequenceTable();
  private readonly stringListRefs: StringListRef[] = [];
  private readonly listIdByObject = new WeakMap<object, number>();

  /** The strings of a forward_frames list the fast path holds as `ref`, as the list holds them. */
  stringsOfList(ref: StringListRef): string[] {
    if (ref.listId < 0) return [];
    const ids = this.stringListIds.slice(
      this.stringListOffsets[ref.listId],
      this.stringListOffsets[ref.listId + 1],
    );
    return ids.map((id) => this.strings[id]!);
  }

  /** The interned forward_frames lists. */
  stringListTable(): StringListTable {
    return {
      offsets: Uint32Array.from(this.stringListOffsets),
      stringIds: Uint32Array.from(this.stringListIds),
    };
  }

  internFlatDictStringList(
    itemMemoIndexes: Int32Array,
    count: number,
    memoIndexHash: number,
    memo: Memo,
  ): number {
    // Interning [] would leave a list in the table that no row names: the generic path reads an
    // empty forward_frames as none (fuzz campaign seed 20261128, case 17827).
    if (count === 0) return EMPTY_STRING_LIST_HANDLE;
    const known = this.stringListsByMemoIndexes.find(memoIndexHash, itemMemoIndexes, count);
    if (known !== NOT_FOUND) return STRING_LIST_HANDLE_BASE + known;
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const item = memo.get(itemMemoIndexes[i]!);
      if (typeof item !== 'string') return -1;
      ids.push(this.internString(item));
    }
    const listId = this.internStringIds(ids);
    this.stringListsByMemoIndexes.add(memoIndexHash, itemMemoIndexes, count, listId);
    return STRING_LIST_HANDLE_BASE + listId;
  }

  /**
   * The list id of a forward_frames value as the generic path holds it (a list of strings, or the
   * fast path's stand-in for one); NO_LIST when absent, empty or not a list of strings.
   */
  internStringList(value: unknown): number {
    if (value instanceof StringListRef) return value.length === 0 ? NO_LIST : value.listId;
    if (!Array.isArray(value) || value.length === 0) return NO_LIST;
    const known = this.listIdByObject.get(value);
    if (known !== undefined) return known;
    const ids: number[] = [];
    for (const item of value) {
      if (typeof item !== 'string') return NO_LIST;
      ids.push(this.internString(item));
    }
    const listId = this.internStringIds(ids);
    this.listIdByObject.set(value, listId);
    return listId;
  }

  private forwardFramesOfSlot(numbers: Float64Array, values: unknown[], kinds: Uint8Array): number {
    const kind = kinds[FORWARD_FRAMES];
    if (kind === SlotKind.absent) return NO_LIST;
    if (kind === SlotKind.handle) {
      const handle = numbers[FORWARD_FRAMES]!;
      // A frames list named as forward_frames is not a list of strings.
      if (handle < STRING_LIST_HANDLE_BASE) return NO_LIST;
      return this.internStringList(this.materializeHandle(handle));
    }
    // Through slotValue: a number in the slot leaves values[] holding an earlier entry's list
    // (fuzz campaign seed 20261131, case 3000: `forward_frames: 0` took the list before it).
    return this.internStringList(this.slotValue(FORWARD_FRAMES, numbers, values, kinds));
  }

  internStringIds(ids: readonly number[]): number {
    const count = ids.length;
    let hash = 0x811c9dc5 ^ count;
    for (const id of ids) hash = Math.imul(hash ^ id, 0x01000193);
    const bucket = this.stringListsByHash.get(hash);
    const candidates = bucket === undefined ? [] : typeof bucket === 'number' ? [bucket] : bucket;
    for (const candidate of candidates) {
      const start = this.stringListOffsets[candidate]!;
      if (this.stringListOffsets[candidate + 1]! - start !== count) continue;
      let same = true;
      for (let i = 0; i < count && same; i++) same = this.stringListIds[start + i] === ids[i];
      if (same) return candidate;
    }
    const listId = this.stringListOffsets.length - 1;
    for (const id of ids) this.stringListIds.push(id);
    this.stringListOffsets.push(this.stringListIds.length);
    if (bucket === undefined) this.stringListsByHash.set(hash, listId);
    else if (typeof bucket === 'number') this.stringListsByHash.set(hash, [bucket, listId]);
    else bucket.push(listId);
    return listId;
  }

  /** Interns any string (forward_frames items: "N/A" and empty ones too). */
  internString(value: string): number {
    let id = this.stringIdByValue.get(value);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(value);
      this.stringIdByValue.set(value, id);
    }
    return id;
  }

  // Every entry of a file has the same keys in the same order, and each key is one memoized string
  // object, so an identity check against the previous entry's key at the same position almost
  // always answers without comparing characters.
  private readonly keyAtPosition: unknown[] = [];
  private readonly slotAtPosition: number[] = [];
  private readonly numbers = new Float64Array(TRACE_ENTRY_KEYS.length);
  private readonly values: unknown[] = new Array<unknown>(TRACE_ENTRY_KEYS.length).fill(undefined);
  private readonly kinds = new Uint8Array(TRACE_ENTRY_KEYS.length);
  // Frame id by the memo index of the frame dict: a direct-mapped cache, since a stack names
  // each of its frames by memo index and a file has few distinct frames.
  private readonly frameCacheMemoIndex = new Int32Array(FRAME_CACHE_SIZE).fill(-1);
  private readonly frameCacheId = new Uint32Array(FRAME_CACHE_SIZE);
  private readonly stacksByMemoIndexes = new SequenceTable();

  /**
   * A frames list read by the fast path: interned at once, and only its stack id is kept. A list
   * naming the same frame dicts (same memo indexes) as one seen before is the same stack; that is
   * checked first, on the memo indexes themselves, before any frame is looked at.
   */
  internFlatDictList(
    itemMemoIndexes: Int32Array,
    count: number,
    memoIndexHash: number,
    memo: Memo,
  ): number {
    const known = this.stacksByMemoIndexes.find(memoIndexHash, itemMemoIndexes, count);
    if (known !== NOT_FOUND) return handleOfStack(known);
    const ids = this.stacks.frameIdScratch(count);
    for (let i = 0; i < count; i++) {
      const memoIndex = itemMemoIndexes[i]!;
      const slot = memoIndex & (FRAME_CACHE_SIZE - 1);
      if (this.frameCacheMemoIndex[slot] === memoIndex) {
        ids[i] = this.frameCacheId[slot]!;
        continue;
      }
      const frameId = this.stacks.frameIdOf(memo.get(memoIndex));
      if (frameId < 0) return -1;
      this.frameCacheMemoIndex[slot] = memoIndex;
      this.frameCacheId[slot] = frameId;
      ids[i] = frameId;
    }
    const stackId = this.stacks.internFrameIds(ids, count);
    this.stacksByMemoIndexes.add(memoIndexHash, itemMemoIndexes, count, stackId);
    return handleOfStack(stackId);
  }

  /** One StackRef per stack, so that a file naming one stack a million times makes no garbage. */
  private readonly stackRefs: StackRef[] = [];

  materializeHandle(handle: number): unknown {
    // Frozen: one object is handed out for every reference, so nothing may change it.
    if (handle === EMPTY_STRING_LIST_HANDLE) return EMPTY_STRING_LIST;
    if (handle >= STRING_LIST_HANDLE_BASE) {
      const listId = handle - STRING_LIST_HANDLE_BASE;
      const length = this.stringListOffsets[listId + 1]! - this.stringListOffsets[listId]!;
      return (this.stringListRefs[listId] ??= Object.freeze(new StringListRef(listId, length)));
    }
    return (this.stackRefs[handle] ??= Object.freeze(new StackRef(stackOfHandle(handle))));
  }

  private slotOf(key: unknown, position: number): number {
    if (this.keyAtPosition[position] === key) return this.slotAtPosition[position]!;
    const slot = SLOT_BY_KEY.get(key) ?? OTHER_KEY;
    this.keyAtPosition[position] = key;
    this.slotAtPosition[position] = slot;
    return slot;
  }

  appendConsumed(list: PickleValue[], count: number, offset: number): void {
    const consumedFirst = this.consumed - count;
    // Entries set aside (not rows) among the `count` just appended: counted from the end.
    let aside = 0;
    const asideConsumed = this.asideConsumed;
    for (let i = asideConsumed.length - 1; i >= 0 && asideConsumed[i]! >= consumedFirst; i--)
      aside++;
    const rowCount = count - aside;
    const first = this.rows - rowCount;
    const range = this.ranges.get(list);
    if (range === undefined) {
      this.ranges.set(list, { first, count: rowCount, consumedFirst, consumedCount: count });
    } else if (
      range.first + range.count === first &&
      range.consumedFirst + range.consumedCount === consumedFirst
    ) {
      range.count += rowCount;
      range.consumedCount += count;
    } else {
      throw new SnapshotFormatError('a trace list is interleaved with another one', offset);
    }
  }

  /**
   * The rows and tables as plain data, for a part of a parallel decode to send to the spine;
   * null when its entries went to another list than `partList` (the plan did not hold).
   */
  partTables(partList: unknown, laterLists: readonly unknown[]): PartTables | null {
    let listRange: RowRange | null = null;
    const laterRanges: (RowRange | null)[] = laterLists.map(() => null);
    for (const [list, range] of this.ranges) {
      const later = laterLists.indexOf(list);
      if (later >= 0) laterRanges[later] = { ...range };
      else if (list === partList) listRange = { ...range };
      else return null;
    }
    const rows = this.rows;
    const column = (ids: Int32Array | null): Int32Array | null => ids?.slice(0, rows) ?? null;
    return {
      rows,
      consumed: this.consumed,
      action: this.action.slice(0, rows),
      addr: this.addr.slice(0, rows),
      sizeBytes: this.sizeBytes.slice(0, rows),
      streamId: this.streamId.slice(0, rows),
      timeUs: this.timeUs.slice(0, rows),
      stackId: this.stackId.slice(0, rows),
      compileContextId: column(this.compileContextId),
      userMetadataId: column(this.userMetadataId),
      internalMetadataId: column(this.internalMetadataId),
      categoryId: column(this.categoryId),
      poolIndex: column(this.poolIndex),
      forwardFramesId: column(this.forwardFramesId),
      actionNames: [...this.actionNames],
      streams: [...this.streams],
      strings: [...this.strings],
      pools: [...this.pools],
      stringListOffsets: [...this.stringListOffsets],
      stringListIds: [...this.stringListIds],
      deviceFreeBytes: [...this.deviceFreeBytes],
      annotations: [...this.annotations],
      userDefined: [...this.userDefined],
      unknownActionCounts: [...this.unknownActionCounts],
      unknownKeys: [...this.unknownKeys],
      asideConsumed: [...this.asideConsumed],
      listRange,
      laterRanges,
    };
  }

  /**
   * Appends the rows of `part`, a part of a parallel decode whose entries follow every entry here
   * (docs/parallel-decode.md): its tables interned here in its order (the order a serial decode
   * meets them in), its id columns remapped, its trace lists' ranges joined to theirs here (the
   * part's stand-in `partList` is `list`). `stackIds`: StackInterner.absorb's map. Returns the map
   * of its memo handles (frames lists, forward_frames lists) to handles here.
   */
  absorb(
    part: PartTables,
    stackIds: Int32Array,
    list: PickleValue[],
    laterLists: readonly unknown[],
  ): (handle: number) => number {
    const actions = part.actionNames.map((name) => this.actionCode(name, this.rows, 0));
    const streams = part.streams.map((stream) => this.internStream(stream));
    const strings = part.strings.map((text) => this.internString(text));
    const pools = part.pools.map((pool) => this.internPool(pool));
    const lists: number[] = [];
    for (let listId = 0; listId + 1 < part.stringListOffsets.length; listId++) {
      const ids = part.stringListIds
        .slice(part.stringListOffsets[listId], part.stringListOffsets[listId + 1])
        .map((id) => strings[id]!);
      lists.push(this.internStringIds(ids));
    }
    const stackOf = (stack: number): number => (stack < 0 ? stack : stackIds[stack]!);
    const stringOf = (id: number): number => (id < 0 ? id : strings[id]!);
    const first = this.rows;
    const count = part.rows;
    while (this.capacity < first + count) this.grow();
    for (let row = 0; row < count; row++) {
      this.action[first + row] = actions[part.action[row]!]!;
      this.streamId[first + row] = streams[part.streamId[row]!]!;
      this.stackId[first + row] = stackOf(part.stackId[row]!);
    }
    this.addr.set(part.addr.subarray(0, count), first);
    this.sizeBytes.set(part.sizeBytes.subarray(0, count), first);
    this.timeUs.set(part.timeUs.subarray(0, count), first);
    this.compileContextId = this.absorbColumn(
      this.compileContextId,
      part.compileContextId,
      strings,
      first,
      count,
    );
    this.userMetadataId = this.absorbColumn(
      this.userMetadataId,
      part.userMetadataId,
      strings,
      first,
      count,
    );
    this.internalMetadataId = this.absorbColumn(
      this.internalMetadataId,
      part.internalMetadataId,
      strings,
      first,
      count,
    );
    this.categoryId = this.absorbColumn(this.categoryId, part.categoryId, strings, first, count);
    this.poolIndex = this.absorbColumn(this.poolIndex, part.poolIndex, pools, first, count);
    this.forwardFramesId = this.absorbColumn(
      this.forwardFramesId,
      part.forwardFramesId,
      lists,
      first,
      count,
    );
    for (const [row, bytes] of part.deviceFreeBytes) this.deviceFreeBytes.set(first + row, bytes);
    const consumedFirst = this.consumed;
    for (const annotation of part.annotations) {
      this.annotations.push({
        ...annotation,
        consumed: consumedFirst + annotation.consumed,
        afterRow: first + annotation.afterRow,
        textId: stringOf(annotation.textId),
        stackId: stackOf(annotation.stackId),
      });
    }
    for (const entry of part.userDefined) {
      this.userDefined.push({ ...entry, consumed: consumedFirst + entry.consumed });
    }
    for (const [name, n] of part.unknownActionCounts) {
      this.unknownActionCounts.set(name, (this.unknownActionCounts.get(name) ?? 0) + n);
    }
    for (const key of part.unknownKeys) this.unknownKeys.add(key);
    for (const consumed of part.asideConsumed) this.asideConsumed.push(consumedFirst + consumed);
    const ranges = [part.listRange, ...part.laterRanges];
    const targets = [list, ...laterLists] as PickleValue[][];
    for (let index = 0; index < ranges.length; index++) {
      const range = ranges[index];
      if (range === null || range === undefined) continue;
      const target = targets[index]!;
      const shifted = {
        first: first + range.first,
        count: range.count,
        consumedFirst: consumedFirst + range.consumedFirst,
        consumedCount: range.consumedCount,
      };
      const known = this.ranges.get(target);
      if (known === undefined) this.ranges.set(target, shifted);
      else if (
        known.first + known.count === shifted.first &&
        known.consumedFirst + known.consumedCount === shifted.consumedFirst
      ) {
        known.count += shifted.count;
        known.consumedCount += shifted.consumedCount;
      } else {
        throw new SnapshotFormatError('a trace list is interleaved with another one', 0);
      }
    }
    this.rows += count;
    this.consumed += part.consumed;
    return (handle) => {
      if (handle === EMPTY_STRING_LIST_HANDLE) return handle;
      if (handle >= STRING_LIST_HANDLE_BASE) {
        return STRING_LIST_HANDLE_BASE + lists[handle - STRING_LIST_HANDLE_BASE]!;
      }
      return handleOfStack(stackOf(stackOfHandle(handle)));
    };
  }

  /** An optional id column after a part's rows joined (absorb): written once either side has it. */
  private absorbColumn(
    column: Int32Array | null,
    partColumn: Int32Array | null,
    ids: readonly number[],
    first: number,
    count: number,
  ): Int32Array | null {
    if (partColumn === null) {
      column?.fill(NO_STRING, first, first + count);
      return column;
    }
    const joined = column ?? this.optionalColumn(first);
    for (let row = 0; row < count; row++) {
      const id = partColumn[row]!;
      joined[first + row] = id < 0 ? id : ids[id]!;
    }
    return joined;
  }

  /** A numeric field as a number: NaN when absent; the file is refused when it is not a number of its kind. */
  private field(
    slot: number,
    numbers: Float64Array,
    values: unknown[],
    kinds: Uint8Array,
    row: number,
    offset: number,
    kind: NumberKind,
  ): number {
    const slotKind = kinds[slot];
    if (slotKind === SlotKind.absent) return NaN;
    if (slotKind === SlotKind.number) {
      // The common case, checked inline (this runs five times per trace entry).
      const value = numbers[slot]!;
      if (
        kind === NumberKind.byteCount
          ? value >= 0 && value <= MAX_BYTE_COUNT && Number.isInteger(value)
          : kind === NumberKind.integer
            ? Number.isSafeInteger(value)
            : Number.isFinite(value)
      ) {
        return value;
      }
    }
    return this.unusualField(slot, numbers, values, kinds, row, offset, kind);
  }

  /**
   * A slot's value whatever its kind, as the generic path would hold it: a number, a value, or for a
   * handle (a frames list the fast path read) the list's stand-in.
   */
  private slotValue(
    slot: number,
    numbers: Float64Array,
    values: unknown[],
    kinds: Uint8Array,
  ): unknown {
    const kind = kinds[slot];
    if (kind === SlotKind.number) return numbers[slot];
    if (kind === SlotKind.handle) return this.materializeHandle(numbers[slot]!);
    // An absent slot may still hold an earlier dict's value (the reader does not clear them).
    return kind === SlotKind.value ? values[slot] : undefined;
  }

  /** A boolean (Python's bool is an int), or a value that is not a number of its kind. */
  private unusualField(
    slot: number,
    numbers: Float64Array,
    values: unknown[],
    kinds: Uint8Array,
    row: number,
    offset: number,
    kind: NumberKind,
  ): number {
    const raw = this.slotValue(slot, numbers, values, kinds);
    const value = typeof raw === 'boolean' ? (raw ? 1 : 0) : raw;
    const noun = NUMBER_KIND_NOUNS[kind];
    if (typeof raw === 'boolean') return value as number;
    return this.problem(
      row,
      TRACE_ENTRY_KEYS[slot]!,
      typeof value === 'number'
        ? `${describeFound(value)} is not ${noun}`
        : `expected ${noun}, found ${describeFound(value)}`,
      offset,
    );
  }

  /**
   * Refuses the file at the first trace entry field that cannot be what it says, at once (the
   * work stays bounded) and by byte offset: which device's list an entry belongs to is known only
   * once its list is complete, and waiting for that would mean keeping every problem.
   */
  private problem(_row: number, field: string, text: string, offset: number): never {
    throw new TraceEntryFieldError(field, text, offset);
  }

  private lastActionName: unknown = undefined;
  private lastActionCode = 0;

  private actionCode(value: unknown, row: number, offset: number): number {
    // Action names are memoized strings: the same object as last time is the common case.
    if (value === this.lastActionName) return this.lastActionCode;
    if (typeof value !== 'string') {
      return this.problem(
        row,
        'action',
        `expected an action name (a string), found ${describeFound(value)}`,
        offset,
      );
    }
    let code = this.actionCodeByName.get(value);
    if (code === undefined) {
      if (this.actionNames.length >= 255) {
        throw new SnapshotFormatError('too many distinct trace actions', offset);
      }
      code = this.actionNames.length;
      this.actionNames.push(value);
      this.actionCodeByName.set(value, code);
    }
    this.lastActionName = value;
    this.lastActionCode = code;
    return code;
  }

  private lastStream = NaN;
  private lastStreamId = 0;

  internStream(stream: number): number {
    if (stream === this.lastStream) return this.lastStreamId;
    let id = this.streamIdByValue.get(stream);
    if (id === undefined) {
      id = this.streams.length;
      this.streams.push(stream);
      this.streamIdByValue.set(stream, id);
    }
    this.lastStream = stream;
    this.lastStreamId = id;
    return id;
  }

  /** Interns an optional string annotation; empty strings and 'N/A' mean "none". */
  private internOptionalString(value: unknown): number {
    if (typeof value !== 'string' || value === '' || value === 'N/A') return NO_STRING;
    let id = this.stringIdByValue.get(value);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(value);
      this.stringIdByValue.set(value, id);
    }
    return id;
  }

  /** A new optional column: rows before `row` had no value; later rows are always written. */
  private optionalColumn(row: number): Int32Array {
    const column = new Int32Array(this.capacity);
    column.fill(NO_STRING, 0, row);
    return column;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    this.action = resized(this.action, new Uint8Array(capacity));
    this.addr = resized(this.addr, new Float64Array(capacity));
    this.sizeBytes = resized(this.sizeBytes, new Float64Array(capacity));
    this.streamId = resized(this.streamId, new Uint32Array(capacity));
    this.timeUs = resized(this.timeUs, new Float64Array(capacity));
    this.stackId = resized(this.stackId, new Int32Array(capacity));
    if (this.compileContextId !== null) {
      this.compileContextId = resized(this.compileContextId, new Int32Array(capacity));
    }
    if (this.userMetadataId !== null) {
      this.userMetadataId = resized(this.userMetadataId, new Int32Array(capacity));
    }
    if (this.internalMetadataId !== null) {
      this.internalMetadataId = resized(this.internalMetadataId, new Int32Array(capacity));
    }
    if (this.categoryId !== null) {
      this.categoryId = resized(this.categoryId, new Int32Array(capacity));
    }
    if (this.poolIndex !== null) this.poolIndex = resized(this.poolIndex, new Int32Array(capacity));
    if (this.forwardFramesId !== null) {
      this.forwardFramesId = resized(this.forwardFramesId, new Int32Array(capacity));
    }
    this.capacity = capacity;
  }
}

const EMPTY_STRING_LIST = Object.freeze(new StringListRef(NO_LIST, 0));

function resized<T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(
  from: T,
  to: T,
): T {
  to.set(from as never);
  return to;
}

// Memo handles are non-negative; stack ids start at NO_STACK (-1), for an empty frames list.
function handleOfStack(stackId: number): number {
  return stackId + 1;
}

function stackOfHandle(handle: number): number {
  return handle - 1;
}

function isEmpty(dict: PickleDict): boolean {
  for (const _key in dict) return false;
  return true;
}
