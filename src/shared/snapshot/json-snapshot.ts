// The JSON form of a snapshot: what pytorch.org/memory_viz also accepts (`.json`, `.json.gz`),
// the same keys as the pickle, integers as numbers. It streams through the bounded JSON reader
// (../json/json-reader.ts) chunk by chunk, as the pickle streams through the unpickler: trace
// entries go straight into rows of the TraceTableBuilder as each one closes (never an object per
// event kept), frames and stacks are interned by content (JSON shares no objects), and the rest
// (segments, blocks, settings, annotations) is built as plain values for the model builder and its
// checks. Keys the model never reads are read and dropped. So a JSON file of any size takes the
// memory of its model, as its pickle does, and is limited by no JS string.

import { JsonInputError } from '../json/json-error';
import { JsonReader, type JsonScalar, type JsonVisitor } from '../json/json-reader';
import { containerBudgetAt, MIN_CONTAINER_BUDGET, tooManyContainers } from '../limits/input-limits';
import type { SnapshotModel } from './model';
import { describeFound } from './raw-schema';
import { buildSnapshotModel } from './snapshot-builder';
import { SnapshotFormatError } from './snapshot-error';
import { SNAPSHOT_KEYS } from './snapshot-json-keys';
import { StackInterner } from './stack-interner';
import { TraceEntryFieldError, TraceTableBuilder } from './trace-table-builder';

// What a container is to the snapshot, from where it stands.
const KEPT = 0; // built as a plain value
const DROPPED = 1; // read and dropped (under a key the model does not read)
const ROOT_DICT = 2;
const TRACE_LISTS = 3; // device_traces, traces: one list of entries per device
const TRACE_LIST = 4; // a list of trace entries
const HOST_TRACES = 5; // host_traces: a list of entries, or of lists of entries
const ENTRY = 6; // a trace entry, read as key/value pairs

const NO_ENTRY_DICT = Object.freeze({});
const NOT_YET = 0;

/** segments[3].blocks[0].history[1] is five containers down: the deepest path a refusal names. */
const MAX_NAMED_DEPTH = 6;

export async function decodeJsonSnapshot(
  chunks: AsyncIterable<Uint8Array>,
): Promise<SnapshotModel> {
  const stacks = new StackInterner();
  const traceTable = new TraceTableBuilder(stacks);
  const consumer = new JsonSnapshotConsumer(traceTable);
  for await (const chunk of chunks) consumer.reader.feed(chunk);
  consumer.reader.finish();
  try {
    return buildSnapshotModel({ root: consumer.root, pickleProtocol: null, traceTable, stacks });
  } catch (error) {
    throw consumer.withOffset(error);
  }
}

/**
 * Builds the snapshot's plain values from the reader's events, and hands each trace entry to the
 * trace table as it closes. Values held at once (trace entries handed over aside) are held to
 * what the bytes read justify, by the rule the containers are held to.
 */
class JsonSnapshotConsumer implements JsonVisitor {
  readonly reader = new JsonReader(this);
  root: unknown = undefined;

  private readonly table: TraceTableBuilder;
  private depth = 0;
  /** Per depth (1: the top-level container). */
  private readonly roles: number[] = [];
  private readonly values: (unknown[] | Record<string, unknown> | null)[] = [];
  private readonly keys: (string | undefined)[] = [];
  /** Per depth: the byte where the container opened. */
  private readonly starts: number[] = [];
  /** Trace entries handed to the table, per trace list. */
  private readonly consumed: number[] = [];
  /**
   * Per depth, for a container the model builder may name in a refusal (segments, blocks and
   * their fields; not frames, not settings): the byte of each item (a list) or key/byte pairs (a
   * dict). Kept by container once it closes, to give the builder's path its byte.
   */
  private readonly itemOffsets: (unknown[] | typeof NOT_YET | null)[] = [];
  private readonly offsetsOf = new Map<object, unknown[]>();

  // The trace entry being read (entries do not nest: they stand only in trace lists).
  private readonly pairs: unknown[] = [];
  private readonly pairOffsets: number[] = [];
  private entryOffset = 0;
  private heldAtEntry = 0;

  /** Values held in kept containers and the entry being read; see checkHeld. */
  private held = 0;
  private heldBudget = MIN_CONTAINER_BUDGET;

  constructor(table: TraceTableBuilder) {
    this.table = table;
  }

  openObject(offset: number): void {
    const role = this.childRole(true, offset);
    if (role === ENTRY) {
      this.pairs.length = 0;
      this.pairOffsets.length = 0;
      this.entryOffset = offset;
      this.heldAtEntry = this.held;
      this.push(role, null, offset);
      return;
    }
    this.push(role, role === DROPPED ? null : {}, offset);
  }

  key(name: string): void {
    this.keys[this.depth] = name;
  }

  closeObject(): void {
    const role = this.roles[this.depth]!;
    const value = this.values[this.depth]!;
    const start = this.starts[this.depth]!;
    const offsets = this.itemOffsets[this.depth];
    this.depth--;
    if (role === ENTRY) {
      this.closeEntry();
      return;
    }
    if (role === DROPPED) return;
    if (Array.isArray(offsets)) this.offsetsOf.set(value as object, offsets);
    this.put(value, start);
  }

  openArray(offset: number): void {
    const role = this.childRole(false, offset);
    this.push(role, role === DROPPED ? null : [], offset);
    if (role === TRACE_LIST || role === HOST_TRACES) this.consumed[this.depth] = 0;
  }

  closeArray(offset: number): void {
    const role = this.roles[this.depth]!;
    const list = this.values[this.depth] as unknown[] | null;
    const start = this.starts[this.depth]!;
    const offsets = this.itemOffsets[this.depth];
    // host_traces may hold entries itself (one allocator) or lists of them.
    if ((role === TRACE_LIST || role === HOST_TRACES) && this.consumed[this.depth]! > 0) {
      this.table.appendConsumed(list as never, this.consumed[this.depth]!, offset);
    }
    this.depth--;
    if (role === DROPPED) return;
    if (Array.isArray(offsets)) this.offsetsOf.set(list as object, offsets);
    this.put(list, start);
  }

  value(value: JsonScalar, offset: number): void {
    const role = this.roles[this.depth];
    if (role === TRACE_LISTS || role === TRACE_LIST || role === HOST_TRACES) {
      this.notTraceEntries(value, offset);
    }
    this.put(value, offset);
  }

  /** The error, with the byte where the JSON holds what it names when the builder named a path. */
  withOffset(error: unknown): unknown {
    if (!(error instanceof SnapshotFormatError) || error.offset >= 0) return error;
    const path = SNAPSHOT_PATH.exec(error.message)?.[1];
    if (path === undefined) return error;
    const offset = this.offsetOfPath(path);
    return offset < 0 ? error : new SnapshotFormatError(error.message, offset);
  }

  // --- where a container stands ---------------------------------------------------------------

  private childRole(object: boolean, offset: number): number {
    const depth = this.depth;
    if (depth === 0) return object ? ROOT_DICT : KEPT;
    const parent = this.roles[depth]!;
    switch (parent) {
      case ROOT_DICT: {
        const key = this.keys[depth]!;
        if (!SNAPSHOT_KEYS.has(key)) return DROPPED;
        if (object) return KEPT;
        if (key === 'device_traces' || key === 'traces') return TRACE_LISTS;
        return key === 'host_traces' ? HOST_TRACES : KEPT;
      }
      case TRACE_LISTS:
        if (object) this.notTraceEntries(OBJECT_STAND_IN, offset);
        return TRACE_LIST;
      case TRACE_LIST:
        if (!object) this.notTraceEntries([], offset);
        return ENTRY;
      case HOST_TRACES:
        return object ? ENTRY : TRACE_LIST;
      case DROPPED:
        return DROPPED;
      default:
        // KEPT, and the values of a trace entry (frames, pool ids): plain values.
        return KEPT;
    }
  }

  private push(
    role: number,
    value: unknown[] | Record<string, unknown> | null,
    offset: number,
  ): void {
    const depth = ++this.depth;
    this.roles[depth] = role;
    this.values[depth] = value;
    this.keys[depth] = undefined;
    this.starts[depth] = offset;
    this.itemOffsets[depth] =
      value !== null && role !== ENTRY && this.isNamed(depth) ? NOT_YET : null;
  }

  /** Puts a finished value into the container now open (or makes it the root). */
  private put(value: unknown, offset: number): void {
    const depth = this.depth;
    if (depth === 0) {
      this.root = value;
      return;
    }
    const role = this.roles[depth]!;
    if (role === DROPPED) return;
    if (role === ROOT_DICT && !SNAPSHOT_KEYS.has(this.keys[depth]!)) return;
    if (++this.held > this.heldBudget) this.checkHeld(offset);
    if (role === ENTRY) {
      this.pairs.push(this.keys[depth], value);
      this.pairOffsets.push(offset);
      return;
    }
    const container = this.values[depth]!;
    let offsets = this.itemOffsets[depth]!;
    // An empty container (most of a container bomb) costs no list of offsets.
    if (offsets === NOT_YET) offsets = this.itemOffsets[depth] = [];
    if (Array.isArray(container)) {
      container.push(value);
      offsets?.push(offset);
      return;
    }
    const key = this.keys[depth]!;
    // As JSON.parse does: a key "__proto__" is an own property, not the object's prototype.
    if (key === '__proto__') {
      Object.defineProperty(container, key, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else {
      container[key] = value;
    }
    offsets?.push(key, offset);
  }

  /**
   * Whether the container just opened at `depth` is one a refusal of the model builder may name:
   * the top level and what stands within a few levels of it, but not a list of frames or what is
   * in one (frames are named by no path, and there are millions of them), nor settings.
   */
  private isNamed(depth: number): boolean {
    if (depth > 1 && this.itemOffsets[depth - 1] === null) return false;
    if (depth > MAX_NAMED_DEPTH) return false;
    const key = this.keys[depth - 1];
    return key !== 'frames' && key !== 'allocator_settings';
  }

  /**
   * Values held at once, as containers are: a list of a hundred million small numbers is two
   * bytes of file each and far more of memory, and no part of a snapshot outside its trace is.
   */
  private checkHeld(offset: number): void {
    this.heldBudget = containerBudgetAt(offset);
    if (this.held <= this.heldBudget) return;
    throw new JsonInputError(
      withPath(this.reader.path(), tooManyContainers('items in lists and dicts outside the trace')),
      this.reader.path(),
      offset,
    );
  }

  // --- trace entries --------------------------------------------------------------------------

  private closeEntry(): void {
    const pairs = this.pairs;
    let taken: boolean;
    try {
      taken = this.table.consumeDict(NO_ENTRY_DICT, pairs, 0, pairs.length, this.entryOffset);
    } catch (error) {
      throw this.entryError(error);
    }
    if (!taken) this.notTraceEntries(OBJECT_STAND_IN, this.entryOffset);
    this.consumed[this.depth]!++;
    // The entry is in the table's columns now: its values are not held any more.
    this.held = this.heldAtEntry;
    pairs.length = 0;
  }

  /** A field's refusal named by its path and its own byte: `device_traces[0][12].size`. */
  private entryError(error: unknown): unknown {
    if (!(error instanceof TraceEntryFieldError)) return error;
    const pairs = this.pairs;
    let offset = this.entryOffset;
    for (let i = pairs.length - 2; i >= 0; i -= 2) {
      if (pairs[i] === error.field) {
        offset = this.pairOffsets[i / 2]!;
        break;
      }
    }
    const path = `${this.reader.path()}.${error.field}`;
    return new SnapshotFormatError(
      `not a memory snapshot of a known shape: ${path}: ${error.problem}`,
      offset,
    );
  }

  /**
   * A trace list holds something that is not a trace entry: refused at once, in the words the
   * model builder would use once the whole file was read.
   */
  private notTraceEntries(found: unknown, offset: number): never {
    const path = this.reader.path();
    const role = this.roles[this.depth];
    if (role === TRACE_LISTS) {
      throw new SnapshotFormatError(
        `not a memory snapshot of a known shape: ${path}: expected a list of trace entries, found ${describeFound(found)}`,
        offset,
      );
    }
    const list = path.replace(/\[\d+\]$/, '');
    throw new SnapshotFormatError(
      `${list} holds values that are not trace entries (dicts with an 'action'), e.g. ${describeFound(found)}`,
      offset,
    );
  }

  // --- bytes of a path ------------------------------------------------------------------------

  /** The byte where the value at `path` starts (or the nearest container holding it); -1. */
  private offsetOfPath(path: string): number {
    const parts = [...path.matchAll(/\[(\d+)\]|\.?([A-Za-z_]\w*)/g)].map((match) =>
      match[1] !== undefined ? Number(match[1]) : match[2]!,
    );
    let value: unknown = this.root;
    // The bare-list layout: the builder calls the top-level list `segments`.
    if (Array.isArray(value) && parts[0] === 'segments') parts.shift();
    let offset = -1;
    for (const part of parts) {
      if (typeof value !== 'object' || value === null) break;
      const offsets = this.offsetsOf.get(value);
      if (offsets === undefined) break;
      let found = -1;
      if (typeof part === 'number') {
        if (!Array.isArray(value) || part >= offsets.length) break;
        found = offsets[part] as number;
        value = value[part];
      } else {
        for (let i = offsets.length - 2; i >= 0; i -= 2) {
          if (offsets[i] === part) {
            found = offsets[i + 1] as number;
            break;
          }
        }
        if (found < 0) break;
        value = (value as Record<string, unknown>)[part];
      }
      offset = found;
    }
    return offset;
  }
}

/** A dict, for describeFound (an entry without 'action', a dict where a list was expected). */
const OBJECT_STAND_IN = {};

/** The path a model builder's refusal names: `segments[3].blocks[0].size`. */
const SNAPSHOT_PATH =
  /(?:^|: )((?:segments|host_segments|external_annotations|allocator_settings)(?:\[\d+\]|\.[A-Za-z_]\w*)*)(?=[: ])/;

function withPath(path: string, text: string): string {
  return path === '' ? text : `${path}: ${text}`;
}
