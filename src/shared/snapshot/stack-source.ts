// Reading stacks out of the frame and stack tables, which the model (SnapshotModel) and the
// analysed snapshot (AnalyzedSnapshot) both carry: code that walks stacks takes just those two tables.

import type { FrameTable, StackTable } from './model';

export interface StackSource {
  frames: FrameTable;
  stacks: StackTable;
}

export interface SourceFrame {
  filename: string;
  line: number;
  name: string;
}

/** Frame ids of a stack, innermost first; none for NO_STACK or an id outside the table. */
export function stackFrameIds(source: Pick<StackSource, 'stacks'>, stackId: number): Uint32Array {
  const { offsets, frameIds } = source.stacks;
  if (stackId < 0 || stackId + 1 >= offsets.length) return frameIds.subarray(0, 0);
  return frameIds.subarray(offsets[stackId]!, offsets[stackId + 1]!);
}

export function frameAt(frames: FrameTable, frameId: number): SourceFrame {
  return {
    filename: frames.filename[frameId]!,
    line: frames.line[frameId]!,
    name: frames.name[frameId]!,
  };
}
