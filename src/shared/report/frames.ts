// Stacks as the JSON documents show them: [{filename, line, name}], innermost first.

import { z } from 'zod';
import { frameAt, stackFrameIds, type StackSource } from '../snapshot/stack-source';

export const frameSchema = z.object({
  filename: z.string(),
  line: z.number().int(),
  name: z.string(),
});

export type FrameJson = z.infer<typeof frameSchema>;

export function framesOfStack(source: StackSource, stackId: number): FrameJson[] {
  return Array.from(stackFrameIds(source, stackId), (frameId) => frameAt(source.frames, frameId));
}
