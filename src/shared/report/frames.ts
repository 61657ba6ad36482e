// Stacks as the JSON documents show them: [{filename, line, name}], innermost first.

import { z } from 'zod';
import { NO_STACK, type SnapshotModel } from '../snapshot/model';

export const frameSchema = z.object({
  filename: z.string(),
  line: z.number().int(),
  name: z.string(),
});

export type FrameJson = z.infer<typeof frameSchema>;

export function framesOfStack(model: SnapshotModel, stackId: number): FrameJson[] {
  if (stackId === NO_STACK) return [];
  const { offsets, frameIds } = model.stacks;
  const frames: FrameJson[] = [];
  for (let i = offsets[stackId]!; i < offsets[stackId + 1]!; i++) {
    const frameId = frameIds[i]!;
    frames.push({
      filename: model.frames.filename[frameId]!,
      line: model.frames.line[frameId]!,
      name: model.frames.name[frameId]!,
    });
  }
  return frames;
}
