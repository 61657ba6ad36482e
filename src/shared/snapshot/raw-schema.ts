// The shapes of the snapshot's plain-data parts (everything but the trace entries, which are
// checked field by field as they stream into columns). Unknown keys are allowed: newer PyTorch
// versions add fields, and an old viewer must still open new files.

import { z } from 'zod';
import { StackRef } from './stack-interner';

const integer = z.number().int();
// A list of frame dicts, or a StackRef when the decoder already interned that list. Checked
// without walking the list (the interner reads every frame anyway): a large file's segments name
// tens of thousands of frames, and z.array() would visit and copy each list.
const framesList = z.custom<unknown[] | StackRef>(
  (value) => Array.isArray(value) || value instanceof StackRef,
  { message: 'expected a list of frames' },
);

export const rawHistoryEntrySchema = z.looseObject({
  addr: integer.optional(),
  real_size: integer.optional(),
  frames: framesList.optional(),
});

export const rawBlockSchema = z.looseObject({
  address: integer.optional(),
  size: integer,
  requested_size: integer.optional(),
  state: z.string(),
  frames: framesList.optional(),
  history: z.array(rawHistoryEntrySchema).optional(),
});

export const rawSegmentSchema = z.looseObject({
  device: integer,
  address: integer,
  total_size: integer,
  allocated_size: integer.optional(),
  active_size: integer.optional(),
  requested_size: integer.optional(),
  stream: integer.optional(),
  segment_type: z.string().optional(),
  segment_pool_id: z.array(integer).optional(),
  is_expandable: z.boolean().optional(),
  frames: framesList.optional(),
  blocks: z.array(rawBlockSchema),
});

export const rawAnnotationSchema = z.looseObject({
  stage: z.string(),
  name: z.string(),
  device: integer,
  time_us: integer,
});

export const rawSnapshotDictSchema = z.looseObject({
  segments: z.array(rawSegmentSchema).optional(),
  device_traces: z.array(z.array(z.unknown())).optional(),
  traces: z.array(z.array(z.unknown())).optional(),
  allocator_settings: z.record(z.string(), z.unknown()).nullable().optional(),
  external_annotations: z.array(rawAnnotationSchema).optional(),
});

export const rawSegmentListSchema = z.array(rawSegmentSchema);

export type RawSegment = z.infer<typeof rawSegmentSchema>;
export type RawBlock = z.infer<typeof rawBlockSchema>;
export type RawSnapshotDict = z.infer<typeof rawSnapshotDictSchema>;

/** One line naming where the shape is wrong, e.g. "segments[3].blocks[0].size: expected number". */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'unexpected shape';
  const path = issue.path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problems)` : '';
  return `${path === '' ? 'top level' : path}: ${issue.message}${more}`;
}
