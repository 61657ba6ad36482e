// Stacks as the JSON documents show them: [{filename, line, name}], innermost first, and the
// stack's label (analysis/user-frame.ts: the one every view, verdict and CLI text shows).

import { z } from 'zod';
import { MAX_LABEL_LENGTH, stackLabel } from '../analysis/user-frame';
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

/** A stack's label; null when no stack was recorded. */
export const stackLabelSchema = z.string().min(1).max(MAX_LABEL_LENGTH).nullable();

/** The label of stack `stackId` (analysis/user-frame.ts stackLabel); null without a stack. */
export function topFrameOfStack(source: StackSource, stackId: number): string | null {
  return stackLabel(source, stackId);
}
