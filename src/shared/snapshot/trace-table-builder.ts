// Turns trace-entry dicts into rows of typed-array columns while the pickle streams by, so a
// trace of millions of entries never exists as objects. Rows are numbered in file order; each
// trace list (one per device) is a contiguous range of rows.

import type { DictInterceptor, PickleDict, PickleValue } from '../pickle/unpickler';
import { ActionCode, KNOWN_ACTIONS, NO_STACK, NO_STRING } from './model';
import { SnapshotFormatError } from './snapshot-error';
import type { StackInterner } from './stack-interner';

export interface RowRange {
  first: number;
  count: number;
}

const MIN_CAPACITY = 1 << 12;

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

export class TraceTableBuilder implements DictInterceptor {
  rows = 0;
  action: Uint8Array;
  addr: Float64Array;
  sizeBytes: Float64Array;
  streamId: Uint32Array;
  timeUs: Float64Array;
  stackId: Int32Array;
  compileContextId: Int32Array | null = null;
  userMetadataId: Int32Array | null = null;
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
  private readonly stacks: StackInterner;

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

  consumeDict(
    dict: PickleDict,
    stack: readonly unknown[],
    from: number,
    to: number,
    offset: number,
  ): boolean {
    let isTraceEntry = false;
    for (let i = from; i < to; i += 2) {
      if (stack[i] === 'action') {
        isTraceEntry = true;
        break;
      }
    }
    if (!isTraceEntry || !isEmpty(dict)) return false;
    if (this.rows === this.capacity) this.grow();
    const row = this.rows++;
    let action = -1;
    let addr = NaN;
    let size = 0;
    let stream = 0;
    let time = NaN;
    let stackId = NO_STACK;
    let compileContext = NO_STRING;
    let userMetadata = NO_STRING;
    for (let i = from; i < to; i += 2) {
      const value = stack[i + 1];
      switch (stack[i]) {
        case 'action':
          action = this.actionCode(value, offset);
          break;
        case 'addr':
          addr = integerField(value, 'addr', offset);
          break;
        case 'size':
          size = integerField(value, 'size', offset);
          break;
        case 'stream':
          stream = this.internStream(integerField(value, 'stream', offset));
          break;
        case 'time_us':
          time = integerField(value, 'time_us', offset);
          break;
        case 'frames':
          stackId = this.stacks.intern(value, offset);
          break;
        case 'device_free':
          this.deviceFreeBytes.set(row, integerField(value, 'device_free', offset));
          break;
        case 'compile_context':
          compileContext = this.internOptionalString(value);
          break;
        case 'user_metadata':
          userMetadata = this.internOptionalString(value);
          break;
        default:
          // pool_id and keys from newer PyTorch versions are not needed by any figure.
          break;
      }
    }
    if (ADDRESSED_ACTIONS.has(action) && Number.isNaN(addr)) {
      throw new SnapshotFormatError(
        `a trace entry '${this.actionNames[action]}' has no 'addr'`,
        offset,
      );
    }
    this.action[row] = action;
    this.addr[row] = addr;
    this.sizeBytes[row] = size;
    this.streamId[row] = stream;
    this.timeUs[row] = time;
    this.stackId[row] = stackId;
    // The optional columns exist only once some entry has a value, so most files never pay for them.
    if (compileContext !== NO_STRING || this.compileContextId !== null) {
      this.compileContextId ??= this.optionalColumn(row);
      this.compileContextId[row] = compileContext;
    }
    if (userMetadata !== NO_STRING || this.userMetadataId !== null) {
      this.userMetadataId ??= this.optionalColumn(row);
      this.userMetadataId[row] = userMetadata;
    }
    return true;
  }

  appendConsumed(list: PickleValue[], count: number, offset: number): void {
    const first = this.rows - count;
    const range = this.ranges.get(list);
    if (range === undefined) {
      this.ranges.set(list, { first, count });
    } else if (range.first + range.count === first) {
      range.count += count;
    } else {
      throw new SnapshotFormatError('a trace list is interleaved with another one', offset);
    }
  }

  private actionCode(value: unknown, offset: number): number {
    if (typeof value !== 'string') {
      throw new SnapshotFormatError(`a trace entry's 'action' is not a string`, offset);
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
    return code;
  }

  internStream(stream: number): number {
    let id = this.streamIdByValue.get(stream);
    if (id === undefined) {
      id = this.streams.length;
      this.streams.push(stream);
      this.streamIdByValue.set(stream, id);
    }
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
    this.capacity = capacity;
  }
}

function resized<T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(
  from: T,
  to: T,
): T {
  to.set(from as never);
  return to;
}

function isEmpty(dict: PickleDict): boolean {
  for (const _key in dict) return false;
  return true;
}

function integerField(value: unknown, field: string, offset: number): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') {
    throw new SnapshotFormatError(`a trace entry's '${field}' (${value}) is beyond 2^53`, offset);
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  throw new SnapshotFormatError(`a trace entry's '${field}' is not a number`, offset);
}
