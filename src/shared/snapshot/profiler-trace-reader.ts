// A PyTorch profiler trace (`export_chrome_trace`, TensorBoard's `*.pt.trace.json[.gz]`) read as
// it streams through the bounded JSON reader: of its `traceEvents` only what the memory model
// needs is kept, in columns (never an object per event): the `[memory]` instant events (one per
// allocation and free of a tensor), the spans of ops (`cpu_op`) and of Python functions
// (`python_function`, with_stack=True) that hold them, and the user annotations
// (`ProfilerStep#N`, record_function). Every other event, and every field the model does not
// read, is passed over as it streams by. The events are put in time order afterwards
// (./profiler-trace-model.ts): a trace lists them in any order.

import { JsonReader, type JsonScalar, type JsonVisitor } from '../json/json-reader';
import type { DocumentWords } from '../limits/input-limits';
import { float64Column, int32Column } from './growable-column';
import { describeFound } from './raw-schema';
import { SnapshotFormatError } from './snapshot-error';

export const PROFILER_TRACE: DocumentWords = {
  name: 'a PyTorch profiler trace',
  shortName: 'a trace',
};

/** The words every refusal of a trace's content starts with. */
export const NOT_A_TRACE = 'not a PyTorch profiler trace of a known shape';

/** The `[memory]` events as read, in file order. */
export interface MemoryEventColumns {
  count: number;
  /** `ts`: microseconds from the trace's base time. */
  ts: Float64Array;
  addr: Float64Array;
  /** `Bytes`: positive for an allocation, negative for a free. */
  bytes: Float64Array;
  /** `Total Allocated` / `Total Reserved` after the event; NaN where the event has none. */
  totalAllocated: Float64Array;
  totalReserved: Float64Array;
  deviceType: Int32Array;
  deviceId: Int32Array;
  /** Index into ProfilerTraceEvents.threads. */
  thread: Int32Array;
}

/** Spans (`ph: "X"` events) of one kind: ops or Python functions. */
export interface SpanColumns {
  count: number;
  thread: Int32Array;
  startUs: Float64Array;
  endUs: Float64Array;
  /** Index into ProfilerTraceEvents.names. */
  nameId: Int32Array;
}

export interface UserAnnotationSpan {
  name: string;
  startUs: number;
  endUs: number;
}

export interface ProfilerTraceEvents {
  memory: MemoryEventColumns;
  ops: SpanColumns;
  python: SpanColumns;
  annotations: UserAnnotationSpan[];
  /** Event names (ops and Python functions), interned. */
  names: string[];
  /** `pid/tid` of each thread index. */
  threads: string[];
  /** `baseTimeNanoseconds` (the epoch time of ts 0); null when the trace has none. */
  baseTimeNs: number | null;
  /** The trace's `profile_memory` flag; null when absent. */
  profileMemory: boolean | null;
}

// The fields of an event the model reads, by slot.
const PH = 0;
const CAT = 1;
const NAME = 2;
const PID = 3;
const TID = 4;
const TS = 5;
const DUR = 6;
const ADDR = 7;
const BYTES = 8;
const TOTAL_ALLOCATED = 9;
const TOTAL_RESERVED = 10;
const DEVICE_TYPE = 11;
const DEVICE_ID = 12;
const SLOTS = 13;

const EVENT_SLOTS: Readonly<Record<string, number>> = {
  ph: PH,
  cat: CAT,
  name: NAME,
  pid: PID,
  tid: TID,
  ts: TS,
  dur: DUR,
};
const ARG_SLOTS: Readonly<Record<string, number>> = {
  Addr: ADDR,
  Bytes: BYTES,
  'Total Allocated': TOTAL_ALLOCATED,
  'Total Reserved': TOTAL_RESERVED,
  'Device Type': DEVICE_TYPE,
  'Device Id': DEVICE_ID,
};
const SLOT_PATHS = [
  'ph',
  'cat',
  'name',
  'pid',
  'tid',
  'ts',
  'dur',
  'args.Addr',
  'args.Bytes',
  "args['Total Allocated']",
  "args['Total Reserved']",
  "args['Device Type']",
  "args['Device Id']",
];

/** A value that was a list or a dict (the reader passes over its contents). */
const A_LIST: unknown = Object.freeze([]);
const A_DICT: unknown = Object.freeze({});
const ABSENT = undefined;
const NO_THREAD_YET: unknown = Object.freeze({});

/** Where the reader stands, by depth (1: the top-level dict). */
const IN_ROOT = 1;
const IN_EVENTS = 2;
const IN_EVENT = 3;
const IN_ARGS = 4;
const SKIPPED = 5;

/** Bytes past 2**53 are no tensor's; an address may be anything a pointer is. */
const MAX_BYTES = 2 ** 53;

export async function readProfilerTraceEvents(
  chunks: AsyncIterable<Uint8Array>,
): Promise<ProfilerTraceEvents> {
  const consumer = new ProfilerTraceConsumer();
  for await (const chunk of chunks) consumer.reader.feed(chunk);
  consumer.reader.finish();
  return consumer.result();
}

class ProfilerTraceConsumer implements JsonVisitor {
  readonly reader = new JsonReader(this, { document: PROFILER_TRACE });

  private depth = 0;
  /** What the container at each depth is (IN_ROOT …, SKIPPED). */
  private readonly roles: number[] = [];
  private rootKey = '';
  private eventKey = '';
  private sawEvents = false;

  private readonly slots: unknown[] = new Array<unknown>(SLOTS).fill(ABSENT);
  private readonly slotOffsets = new Float64Array(SLOTS);
  private eventOffset = 0;

  private readonly memory = {
    ts: float64Column(),
    addr: float64Column(),
    bytes: float64Column(),
    totalAllocated: float64Column(),
    totalReserved: float64Column(),
    deviceType: int32Column(),
    deviceId: int32Column(),
    thread: int32Column(),
  };
  private readonly ops = spanColumns();
  private readonly python = spanColumns();
  private readonly annotations: UserAnnotationSpan[] = [];
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  private readonly threads: string[] = [];
  private readonly threadIds = new Map<string, number>();
  // No event's pid is this object: the first event always builds its key.
  private lastPid: unknown = NO_THREAD_YET;
  private lastTid: unknown = NO_THREAD_YET;
  private lastThread = -1;
  private baseTimeNs: number | null = null;
  private profileMemory: boolean | null = null;

  result(): ProfilerTraceEvents {
    if (!this.sawEvents) {
      throw new SnapshotFormatError(`${NOT_A_TRACE}: the top-level dict has no traceEvents list`);
    }
    const m = this.memory;
    return {
      memory: {
        count: m.ts.length,
        ts: m.ts.values(),
        addr: m.addr.values(),
        bytes: m.bytes.values(),
        totalAllocated: m.totalAllocated.values(),
        totalReserved: m.totalReserved.values(),
        deviceType: m.deviceType.values(),
        deviceId: m.deviceId.values(),
        thread: m.thread.values(),
      },
      ops: spansOf(this.ops),
      python: spansOf(this.python),
      annotations: this.annotations,
      names: this.names,
      threads: this.threads,
      baseTimeNs: this.baseTimeNs,
      profileMemory: this.profileMemory,
    };
  }

  // --- the reader's events --------------------------------------------------------------------

  openObject(offset: number): void {
    this.open(true, offset);
  }

  openArray(offset: number): void {
    this.open(false, offset);
  }

  private open(object: boolean, offset: number): void {
    const parent = this.depth === 0 ? 0 : this.roles[this.depth]!;
    let role = SKIPPED;
    if (this.depth === 0) {
      if (!object) this.refuse('', 'the top level is a list, not a dict with traceEvents', offset);
      role = IN_ROOT;
    } else if (parent === IN_ROOT && this.rootKey === 'traceEvents') {
      if (object)
        this.refuse('traceEvents', 'expected a list of trace events, found a dict', offset);
      role = IN_EVENTS;
      this.sawEvents = true;
    } else if (parent === IN_EVENTS) {
      if (!object) {
        this.refuse(this.reader.path(), 'expected a trace event (a dict), found a list', offset);
      }
      role = IN_EVENT;
      this.slots.fill(ABSENT);
      this.eventOffset = offset;
    } else if (parent === IN_EVENT) {
      const slot = EVENT_SLOTS[this.eventKey];
      if (slot !== undefined) this.setSlot(slot, object ? A_DICT : A_LIST, offset);
      else if (this.eventKey === 'args' && object) role = IN_ARGS;
    } else if (parent === IN_ARGS) {
      const slot = ARG_SLOTS[this.eventKey];
      if (slot !== undefined) this.setSlot(slot, object ? A_DICT : A_LIST, offset);
    }
    this.roles[++this.depth] = role;
  }

  key(name: string): void {
    const role = this.roles[this.depth];
    if (role === IN_ROOT) this.rootKey = name;
    else if (role === IN_EVENT || role === IN_ARGS) this.eventKey = name;
  }

  closeObject(): void {
    const role = this.roles[this.depth--];
    if (role === IN_EVENT) this.closeEvent();
    else if (role === IN_ARGS) this.eventKey = '';
  }

  closeArray(): void {
    this.depth--;
  }

  value(value: JsonScalar, offset: number): void {
    const role = this.roles[this.depth];
    if (role === IN_EVENT) {
      const slot = EVENT_SLOTS[this.eventKey];
      if (slot !== undefined) this.setSlot(slot, value, offset);
    } else if (role === IN_ARGS) {
      const slot = ARG_SLOTS[this.eventKey];
      if (slot !== undefined) this.setSlot(slot, value, offset);
    } else if (role === IN_EVENTS) {
      this.refuse(
        this.reader.path(),
        `expected a trace event (a dict), found ${describeFound(value)}`,
        offset,
      );
    } else if (role === IN_ROOT) {
      this.rootValue(value, offset);
    }
  }

  private rootValue(value: JsonScalar, offset: number): void {
    switch (this.rootKey) {
      case 'traceEvents':
        this.refuse(
          'traceEvents',
          `expected a list of trace events, found ${describeFound(value)}`,
          offset,
        );
        break;
      case 'baseTimeNanoseconds':
        if (typeof value === 'number' && Number.isFinite(value)) this.baseTimeNs = value;
        break;
      case 'profile_memory':
        if (typeof value === 'number' || typeof value === 'boolean')
          this.profileMemory = Boolean(value);
        break;
      default:
        break;
    }
  }

  private setSlot(slot: number, value: unknown, offset: number): void {
    this.slots[slot] = value;
    this.slotOffsets[slot] = offset;
  }

  // --- one event ------------------------------------------------------------------------------

  private closeEvent(): void {
    const slots = this.slots;
    const name = slots[NAME];
    if (name === '[memory]') {
      this.memoryEvent();
      return;
    }
    if (slots[PH] !== 'X' || typeof name !== 'string') return;
    const cat = slots[CAT];
    if (cat !== 'cpu_op' && cat !== 'python_function' && cat !== 'user_annotation') return;
    const ts = slots[TS];
    const dur = slots[DUR];
    // A span without a usable time holds nothing; it is left out rather than refused.
    if (typeof ts !== 'number' || typeof dur !== 'number' || !(dur >= 0)) return;
    if (cat === 'user_annotation') {
      this.annotations.push({ name, startUs: ts, endUs: ts + dur });
      return;
    }
    const spans = cat === 'cpu_op' ? this.ops : this.python;
    spans.thread.push(this.threadOf());
    spans.startUs.push(ts);
    spans.endUs.push(ts + dur);
    spans.nameId.push(this.nameIdOf(name));
  }

  private memoryEvent(): void {
    const m = this.memory;
    m.ts.push(this.number(TS, 'a time in microseconds', false));
    m.addr.push(this.number(ADDR, 'an address', true));
    const bytes = this.number(BYTES, 'a byte count (negative for a free)', false);
    if (!Number.isInteger(bytes) || Math.abs(bytes) > MAX_BYTES) {
      this.refuseSlot(BYTES, `${bytes} is not a byte count`);
    }
    m.bytes.push(bytes);
    m.totalAllocated.push(this.optionalBytes(TOTAL_ALLOCATED));
    m.totalReserved.push(this.optionalBytes(TOTAL_RESERVED));
    m.deviceType.push(this.integer(DEVICE_TYPE, 'a device type (0 to 255; 0 CPU, 1 CUDA)', 0, 255));
    m.deviceId.push(this.integer(DEVICE_ID, 'a device index (-1 to 511)', -1, 511));
    m.thread.push(this.threadOf());
  }

  /** The number in a slot of a memory event, refused when absent or not a finite number. */
  private number(slot: number, what: string, whole: boolean): number {
    const value = this.slots[slot];
    if (value === ABSENT) this.refuseSlot(slot, `a [memory] event without it (expected ${what})`);
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.refuseSlot(slot, `expected ${what}, found ${this.found(value)}`);
    }
    if (whole && (!Number.isInteger(value) || value < 0)) {
      this.refuseSlot(slot, `${value} is not ${what}`);
    }
    return value;
  }

  private integer(slot: number, what: string, min: number, max: number): number {
    const value = this.number(slot, what, false);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.refuseSlot(slot, `${value} is not ${what}`);
    }
    return value;
  }

  /** Total Allocated / Reserved: NaN when absent; refused when present and not a byte count. */
  private optionalBytes(slot: number): number {
    const value = this.slots[slot];
    if (value === ABSENT || value === null) return NaN;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_BYTES) {
      this.refuseSlot(slot, `expected a byte count, found ${this.found(value)}`);
    }
    return value;
  }

  private found(value: unknown): string {
    if (value === A_LIST) return 'a list';
    if (value === A_DICT) return 'a dict';
    return describeFound(value);
  }

  private threadOf(): number {
    const pid = this.slots[PID];
    const tid = this.slots[TID];
    // Events come thread after thread: the last thread's id without building its key.
    if (pid === this.lastPid && tid === this.lastTid) return this.lastThread;
    const key = `${String(pid)}/${String(tid)}`;
    let id = this.threadIds.get(key);
    if (id === undefined) {
      id = this.threads.length;
      this.threads.push(key);
      this.threadIds.set(key, id);
    }
    this.lastPid = pid;
    this.lastTid = tid;
    this.lastThread = id;
    return id;
  }

  private nameIdOf(name: string): number {
    let id = this.nameIds.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.nameIds.set(name, id);
    }
    return id;
  }

  private refuseSlot(slot: number, problem: string): never {
    const offset = this.slots[slot] === ABSENT ? this.eventOffset : this.slotOffsets[slot]!;
    return this.refuse(`${this.reader.path()}.${SLOT_PATHS[slot]}`, problem, offset);
  }

  private refuse(path: string, problem: string, offset: number): never {
    throw new SnapshotFormatError(
      `${NOT_A_TRACE}: ${path === '' ? '' : `${path}: `}${problem}`,
      offset,
    );
  }
}

function spanColumns() {
  return {
    thread: int32Column(),
    startUs: float64Column(),
    endUs: float64Column(),
    nameId: int32Column(),
  };
}

function spansOf(columns: ReturnType<typeof spanColumns>): SpanColumns {
  return {
    count: columns.thread.length,
    thread: columns.thread.values(),
    startUs: columns.startUs.values(),
    endUs: columns.endUs.values(),
    nameId: columns.nameId.values(),
  };
}
