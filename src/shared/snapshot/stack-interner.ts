// Interns frames and stacks. PyTorch pickles each distinct frame dict once and references it from
// every stack that contains it; stacks themselves are usually one list per allocation (shared by
// its alloc and free entries), so a large file holds millions of frames lists with far fewer
// distinct contents. Frames are interned by object (a tag on the dict), stacks by the hash of
// their frame ids, and a decoded frames list is replaced by a small StackRef so the lists
// themselves never stay in memory.

import { NO_STACK, type FrameTable, type StackTable } from './model';
import { SnapshotFormatError } from './snapshot-error';

/** Stands for a frames list that was interned while streaming: its stack id. */
export class StackRef {
  constructor(readonly stackId: number) {}
}

/** Stands for a `forward_frames` list (strings) interned while streaming: its list id and length. */
export class StringListRef {
  constructor(
    readonly listId: number,
    readonly length: number,
  ) {}
}

/** A part's frames and stacks as plain data (a part of a parallel decode sends them). */
export interface PartStacks {
  frames: FrameTable;
  stacks: StackTable;
}

/** The FX keys a frame may carry (`_dump_snapshot(..., augment_with_fx_traces=True)`). */
const FX_KEYS = ['fx_node_op', 'fx_node_name', 'fx_node_target', 'fx_original_trace'] as const;

// Ids kept on the objects themselves: a property read is much cheaper than a Map lookup by object.
// The keys are each interner's own: a part of a parallel decode tags the dicts it reads with its
// ids, and the whole file's interner must not take those for its own when the part's memo joins.
type TaggedFrame = Record<string | symbol, unknown>;
type TaggedFrames = unknown[] & Record<symbol, number | undefined>;

const INITIAL_FRAME_ID_CAPACITY = 1 << 16;

export class StackInterner {
  private readonly frameIdKey = Symbol('allocscope.frameId');
  private readonly stackIdKey = Symbol('allocscope.stackId');
  readonly frames: FrameTable = { filename: [], name: [], line: [] };
  private readonly frameByContent = new Map<string, number>();
  /** Stack s is stackFrameIds[stackOffsets[s] .. stackOffsets[s + 1]). */
  private stackOffsets: number[] = [0];
  private stackFrameIds = new Uint32Array(INITIAL_FRAME_ID_CAPACITY);
  private stackFrameIdCount = 0;
  /** Content hash -> stack id (or ids, on a collision). */
  private readonly stacksByHash = new Map<number, number | number[]>();
  private scratch = new Uint32Array(256);

  /** Stack id of a `frames` value: a list of frame dicts or a StackRef; NO_STACK for an empty list. */
  intern(frames: unknown, offset: number): number {
    if (frames instanceof StackRef) return frames.stackId;
    // A list of strings the fast path read as forward_frames: what the generic path says of it.
    if (frames instanceof StringListRef) {
      if (frames.length === 0) return NO_STACK;
      throw new SnapshotFormatError('a stack frame is a string, not a dict', offset);
    }
    if (!Array.isArray(frames)) {
      throw new SnapshotFormatError(`'frames' is not a list`, offset);
    }
    const tagged = (frames as TaggedFrames)[this.stackIdKey];
    if (tagged !== undefined) return tagged;
    const id = this.internFrameList(frames, frames.length, offset);
    if (id === undefined) {
      const bad = frames.find((frame) => this.frameIdOf(frame) < 0);
      throw new SnapshotFormatError(
        `a stack frame is ${describeFrameItem(bad)}, not a dict`,
        offset,
      );
    }
    // A tuple (frozen) cannot be tagged; it is interned again if named again.
    if (Object.isExtensible(frames)) (frames as TaggedFrames)[this.stackIdKey] = id;
    return id;
  }

  /** Interns items[0..count) as a stack; undefined when an item is not a frame dict. */
  internFrameList(items: readonly unknown[], count: number, _offset: number): number | undefined {
    if (count === 0) return NO_STACK;
    const ids = this.frameIdScratch(count);
    for (let i = 0; i < count; i++) {
      const id = this.frameIdOf(items[i]);
      if (id < 0) return undefined;
      ids[i] = id;
    }
    return this.internFrameIds(ids, count);
  }

  /** A reusable buffer for at least `count` frame ids. */
  frameIdScratch(count: number): Uint32Array {
    if (this.scratch.length < count) this.scratch = new Uint32Array(count * 2);
    return this.scratch;
  }

  table(): StackTable {
    return {
      offsets: Uint32Array.from(this.stackOffsets),
      frameIds: this.stackFrameIds.slice(0, this.stackFrameIdCount),
    };
  }

  /** The frame id of a frame dict, or -1 when it is not one. */
  frameIdOf(frame: unknown): number {
    if (typeof frame !== 'object' || frame === null) return -1;
    const record = frame as TaggedFrame;
    const known = record[this.frameIdKey] as number | undefined;
    if (known !== undefined) return known;
    // Only a dict the unpickler made is a frame: not a list (nor a StackRef standing for one),
    // bytes, or the frozen stand-in for a consumed trace entry. The same test on both decode
    // paths, so that where chunks fall never changes the verdict.
    if (Object.getPrototypeOf(frame) !== Object.prototype || !Object.isExtensible(frame)) {
      return -1;
    }
    const filename = typeof record.filename === 'string' ? record.filename : '';
    const name = typeof record.name === 'string' ? record.name : '';
    const line = frameLine(record.line);
    // Keyed by small ids of the strings, not by the strings joined: a file may give thousands of
    // frames one huge name, and joining would copy (and hash) it once per frame.
    let contentKey = `${this.stringId(filename)}:${line}:${this.stringId(name)}`;
    const fx = fxOf(record);
    if (fx !== null) {
      contentKey += `:${fx.map((value) => (value === null ? '' : this.stringId(value))).join(':')}`;
    }
    let id = this.frameByContent.get(contentKey);
    if (id === undefined) {
      id = this.frames.filename.length;
      this.frames.filename.push(filename);
      this.frames.name.push(name);
      this.frames.line.push(line);
      if (fx !== null || this.frames.fx !== undefined) this.addFx(id, fx);
      this.frameByContent.set(contentKey, id);
    }
    record[this.frameIdKey] = id;
    return id;
  }

  /**
   * Interns the frames and stacks of `part` (a part of a parallel decode) in its order, which is
   * the order a serial decode meets them in; returns the id here of each of its stacks.
   */
  absorb(part: PartStacks): Int32Array {
    const { offsets, frameIds: partFrameIds } = part.stacks;
    const frameIds = new Uint32Array(part.frames.filename.length);
    for (let frame = 0; frame < frameIds.length; frame++) {
      // A frame dict as the part read it: interned by the same content key.
      frameIds[frame] = this.frameIdOf(frameDictOf(part.frames, frame));
    }
    const stackIds = new Int32Array(offsets.length - 1);
    for (let stack = 0; stack < stackIds.length; stack++) {
      const start = offsets[stack]!;
      const count = offsets[stack + 1]! - start;
      const ids = this.frameIdScratch(count);
      for (let i = 0; i < count; i++) ids[i] = frameIds[partFrameIds[start + i]!]!;
      stackIds[stack] = this.internFrameIds(ids, count);
    }
    return stackIds;
  }

  /** The frames of stack `stackId` as dicts, as a frames list holds them (NO_STACK: none). */
  frameDictsOf(stackId: number): Record<string, unknown>[] {
    if (stackId < 0) return [];
    const dicts: Record<string, unknown>[] = [];
    for (let i = this.stackOffsets[stackId]!; i < this.stackOffsets[stackId + 1]!; i++) {
      dicts.push(frameDictOf(this.frames, this.stackFrameIds[i]!));
    }
    return dicts;
  }

  private readonly stringIds = new Map<string, number>();

  /** The FX columns exist once a frame has an FX key; frames before it get nulls. */
  private addFx(id: number, fx: (string | null)[] | null): void {
    let columns = this.frames.fx;
    if (columns === undefined) {
      const none = (): (string | null)[] => new Array<string | null>(id).fill(null);
      columns = { nodeOp: none(), nodeName: none(), nodeTarget: none(), originalTrace: none() };
      this.frames.fx = columns;
    }
    columns.nodeOp.push(fx?.[0] ?? null);
    columns.nodeName.push(fx?.[1] ?? null);
    columns.nodeTarget.push(fx?.[2] ?? null);
    columns.originalTrace.push(fx?.[3] ?? null);
  }

  /** A small id per distinct string (the memo hands back one string object, its hash cached). */
  private stringId(text: string): number {
    let id = this.stringIds.get(text);
    if (id === undefined) {
      id = this.stringIds.size;
      this.stringIds.set(text, id);
    }
    return id;
  }

  /** Interns the stack ids[0..count) (frame ids, innermost first). */
  internFrameIds(ids: Uint32Array, count: number): number {
    let hash = 0x811c9dc5 ^ count;
    for (let i = 0; i < count; i++) hash = Math.imul(hash ^ ids[i]!, 0x01000193);
    if (count === 0) return NO_STACK;
    const bucket = this.stacksByHash.get(hash);
    if (bucket !== undefined) {
      if (typeof bucket === 'number') {
        if (this.sameStack(bucket, ids, count)) return bucket;
      } else {
        for (const candidate of bucket) if (this.sameStack(candidate, ids, count)) return candidate;
      }
    }
    const id = this.appendStack(ids, count);
    if (bucket === undefined) this.stacksByHash.set(hash, id);
    else if (typeof bucket === 'number') this.stacksByHash.set(hash, [bucket, id]);
    else bucket.push(id);
    return id;
  }

  private sameStack(stackId: number, ids: Uint32Array, count: number): boolean {
    const start = this.stackOffsets[stackId]!;
    if (this.stackOffsets[stackId + 1]! - start !== count) return false;
    const stored = this.stackFrameIds;
    for (let i = 0; i < count; i++) if (stored[start + i] !== ids[i]) return false;
    return true;
  }

  private appendStack(ids: Uint32Array, count: number): number {
    const needed = this.stackFrameIdCount + count;
    if (needed > this.stackFrameIds.length) {
      let capacity = this.stackFrameIds.length * 2;
      while (capacity < needed) capacity *= 2;
      const grown = new Uint32Array(capacity);
      grown.set(this.stackFrameIds.subarray(0, this.stackFrameIdCount));
      this.stackFrameIds = grown;
    }
    this.stackFrameIds.set(ids.subarray(0, count), this.stackFrameIdCount);
    this.stackFrameIdCount = needed;
    this.stackOffsets.push(needed);
    return this.stackOffsets.length - 2;
  }
}

/** Frame `frame` of a table as a frame dict: its filename, line, name and FX keys. */
function frameDictOf(frames: FrameTable, frame: number): Record<string, unknown> {
  const dict: Record<string, unknown> = {
    filename: frames.filename[frame],
    line: frames.line[frame],
    name: frames.name[frame],
  };
  const fx = frames.fx;
  if (fx !== undefined) {
    const values = [fx.nodeOp, fx.nodeName, fx.nodeTarget, fx.originalTrace];
    FX_KEYS.forEach((key, index) => {
      const value = values[index]![frame];
      if (value !== null && value !== undefined) dict[key] = value;
    });
  }
  return dict;
}

function describeFrameItem(value: unknown): string {
  // The fast path's stand-ins for lists read as the lists the generic path holds.
  if (Array.isArray(value) || value instanceof StackRef || value instanceof StringListRef)
    return 'a list';
  if (value === null || value === undefined) return 'None';
  if (value instanceof Uint8Array) return 'bytes';
  if (typeof value === 'object') return Object.isExtensible(value) ? 'an object' : 'a trace entry';
  return `a ${typeof value}`;
}

/** The frame's FX keys (strings; null where absent), or null when it has none. */
function fxOf(record: Record<string, unknown>): (string | null)[] | null {
  let found = false;
  const values = FX_KEYS.map((key) => {
    const value = record[key];
    if (typeof value !== 'string' || value === '') return null;
    found = true;
    return value;
  });
  return found ? values : null;
}

function frameLine(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  // 2**64-1 (size_t -1) is how C++ frames say "no line"; anything inexact is reported as -1.
  return -1;
}
