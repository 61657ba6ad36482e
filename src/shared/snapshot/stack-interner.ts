// Interns frames and stacks. PyTorch pickles one frame dict and one frames list per distinct
// stack and references them from thousands of entries, so a lookup by object identity almost
// always hits; content keys catch files where equal stacks were written as separate objects.

import { NO_STACK, type FrameTable, type StackTable } from './model';
import { SnapshotFormatError } from './snapshot-error';

// The stack id is also kept on the frames list itself: a property read is several times cheaper
// than a Map lookup by object, and every trace entry does one.
const STACK_ID = Symbol('allocscope.stackId');

type TaggedFrames = unknown[] & { [STACK_ID]?: number };

export class StackInterner {
  readonly frames: FrameTable = { filename: [], name: [], line: [] };
  private readonly stackByContent = new Map<string, number>();
  private readonly frameByIdentity = new Map<unknown, number>();
  private readonly frameByContent = new Map<string, number>();
  private readonly stackOffsets: number[] = [0];
  private readonly stackFrameIds: number[] = [];

  /** Returns the stack id of a `frames` list (NO_STACK for an empty list). */
  intern(frames: unknown, offset: number): number {
    if (!Array.isArray(frames)) {
      throw new SnapshotFormatError(`'frames' is not a list`, offset);
    }
    const tagged = (frames as TaggedFrames)[STACK_ID];
    if (tagged !== undefined) return tagged;
    let id = NO_STACK;
    if (frames.length > 0) {
      const frameIds = frames.map((frame) => this.internFrame(frame, offset));
      const contentKey = frameIds.join(',');
      const sameContent = this.stackByContent.get(contentKey);
      if (sameContent !== undefined) {
        id = sameContent;
      } else {
        id = this.stackOffsets.length - 1;
        for (const frameId of frameIds) this.stackFrameIds.push(frameId);
        this.stackOffsets.push(this.stackFrameIds.length);
        this.stackByContent.set(contentKey, id);
      }
    }
    (frames as TaggedFrames)[STACK_ID] = id;
    return id;
  }

  table(): StackTable {
    return {
      offsets: Uint32Array.from(this.stackOffsets),
      frameIds: Uint32Array.from(this.stackFrameIds),
    };
  }

  private internFrame(frame: unknown, offset: number): number {
    const known = this.frameByIdentity.get(frame);
    if (known !== undefined) return known;
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
      throw new SnapshotFormatError('a stack frame is not a dict', offset);
    }
    const record = frame as Record<string, unknown>;
    const filename = typeof record.filename === 'string' ? record.filename : '';
    const name = typeof record.name === 'string' ? record.name : '';
    const line = frameLine(record.line);
    const contentKey = `${filename}\u0000${line}\u0000${name}`;
    let id = this.frameByContent.get(contentKey);
    if (id === undefined) {
      id = this.frames.filename.length;
      this.frames.filename.push(filename);
      this.frames.name.push(name);
      this.frames.line.push(line);
      this.frameByContent.set(contentKey, id);
    }
    this.frameByIdentity.set(frame, id);
    return id;
  }
}

function frameLine(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  // 2**64-1 (size_t -1) is how C++ frames say "no line"; anything inexact is reported as -1.
  return -1;
}
