// The shapes of the snapshot's plain-data parts (everything but the trace entries, which are
// checked field by field as they stream into columns). Unknown keys are allowed: newer PyTorch
// versions add fields, and an old viewer must still open new files.
//
// Lists are only checked to be lists here: their items are validated one at a time by the model
// builder, which stops at the first problem and names its path. (z.array() on a list of a million
// wrong records would collect millions of issues before saying anything.) Every message says what
// was expected and what was found, in the words of the snapshot's own fields.

import { z } from 'zod';
import { groupDigits } from '../errors/unreadable-input';
import { StackRef, StringListRef } from './stack-interner';

/** What a value is, for "expected …, found …". */
export function describeFound(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'None';
  if (typeof value === 'string') {
    return `a string ('${value.length > 24 ? `${value.slice(0, 24)}…` : value}')`;
  }
  if (typeof value === 'number')
    return Number.isInteger(value) ? groupDigits(value) : String(value);
  if (typeof value === 'bigint') {
    const digits = (value < 0n ? -value : value).toString().length;
    return digits > 24 ? `an integer of ${digits} digits` : `${groupDigits(value)} (beyond 2^53)`;
  }
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  // The fast path's stand-ins for a frames list and a forward_frames list are lists, as the
  // generic path holds them (fuzz campaign seed 20261130, case 17047: a forward_frames list
  // named as allocator_settings read "a trace entry").
  if (Array.isArray(value) || value instanceof StackRef || value instanceof StringListRef)
    return 'a list';
  if (value instanceof Uint8Array) return 'bytes';
  if (typeof value === 'object' && !Object.isExtensible(value)) return 'a trace entry';
  return 'a dict';
}

function expected(what: string): { error: (issue: { input: unknown }) => string } {
  return { error: (issue) => `expected ${what}, found ${describeFound(issue.input)}` };
}

const notAByteCount = {
  error: (issue: { input: unknown }) => `${describeFound(issue.input)} is not a byte count`,
};

const integer = z.number(expected('an integer')).int(expected('an integer'));
/** Sizes and addresses: whole, non-negative, exact in a double. */
export const MAX_BYTE_COUNT = 2 ** 50;
const byteCount = z
  .number({
    error: (issue) =>
      typeof issue.input === 'number'
        ? notAByteCount.error(issue)
        : expected('a byte count').error(issue),
  })
  .int(notAByteCount)
  .nonnegative(notAByteCount)
  // 1 PiB: no GPU has that much, and sums of such sizes stay exact in a double.
  .max(MAX_BYTE_COUNT, notAByteCount);
/**
 * Devices a process can have: PyTorch's c10::Device::MAX_NUM_DEVICES (formerly
 * C10_COMPILE_TIME_MAX_GPUS, 16 then 120; c10::DeviceIndex is a small integer, 8 or 16 bits by
 * version). `device` fields and the position of a list in device_traces are below it.
 */
export const MAX_DEVICES = 512;
/** "2,147,483,648 is not a device index (0 to 511)": the one wording for a device out of range. */
export function notADeviceIndex(found: unknown): string {
  return `${describeFound(found)} is not a device index (0 to ${MAX_DEVICES - 1})`;
}
const deviceIndexIssue = { error: (issue: { input: unknown }) => notADeviceIndex(issue.input) };
// Columns hold devices as Int32: a value out of range is refused, never wrapped (2^32 - 1 would
// read as the host's -1, 2^40 as device 0).
const deviceIndex = z
  .number({
    error: (issue) =>
      typeof issue.input === 'number' || typeof issue.input === 'bigint'
        ? notADeviceIndex(issue.input)
        : expected('a device index').error(issue),
  })
  .int(deviceIndexIssue)
  .nonnegative(deviceIndexIssue)
  .max(MAX_DEVICES - 1, deviceIndexIssue);
const text = z.string(expected('a string'));
const list = z.custom<unknown[]>((value) => Array.isArray(value), expected('a list'));
// A list of frame dicts, or a StackRef when the decoder already interned that list. Checked
// without walking the list (the interner reads every frame anyway): a large file's segments name
// tens of thousands of frames, and z.array() would visit and copy each list.
const framesList = z.custom<unknown[] | StackRef>(
  (value) => Array.isArray(value) || value instanceof StackRef,
  expected('a list of frames'),
);

export const rawHistoryEntrySchema = z.looseObject(
  {
    addr: byteCount.optional(),
    real_size: byteCount.optional(),
    frames: framesList.optional(),
  },
  expected('a dict'),
);

export const rawBlockSchema = z.looseObject(
  {
    address: byteCount.optional(),
    size: byteCount,
    requested_size: byteCount.optional(),
    state: text,
    frames: framesList.optional(),
    history: list.optional(),
  },
  expected('a dict'),
);

export const rawSegmentSchema = z.looseObject(
  {
    device: deviceIndex,
    address: byteCount,
    total_size: byteCount,
    allocated_size: byteCount.optional(),
    active_size: byteCount.optional(),
    requested_size: byteCount.optional(),
    stream: integer.optional(),
    segment_type: text.optional(),
    segment_pool_id: z
      .array(integer, expected('a pool id (a tuple of integers)'))
      .max(8)
      .optional(),
    is_expandable: z.boolean(expected('True or False')).optional(),
    frames: framesList.optional(),
    blocks: list,
  },
  expected('a dict'),
);

/** host_segments (PyTorch 2.14+): segments of pinned host memory; `device` is not read. */
export const rawHostSegmentSchema = rawSegmentSchema.extend({
  device: z.unknown().optional(),
});

export const rawAnnotationSchema = z.looseObject(
  {
    stage: text,
    name: text,
    device: deviceIndex,
    time_us: z.number(expected('a time in microseconds')),
  },
  expected('a dict'),
);

export const rawSnapshotDictSchema = z.looseObject(
  {
    segments: list.optional(),
    device_traces: list.optional(),
    traces: list.optional(),
    allocator_settings: z
      .custom<Record<string, unknown>>(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          !(value instanceof Uint8Array) &&
          !(value instanceof StackRef) &&
          Object.isExtensible(value),
        expected('a dict'),
      )
      .nullable()
      .optional(),
    external_annotations: list.optional(),
    host_segments: list.optional(),
    host_traces: list.optional(),
  },
  expected('a dict'),
);

export type RawSegment = z.infer<typeof rawSegmentSchema>;
export type RawHostSegment = z.infer<typeof rawHostSegmentSchema>;
export type RawBlock = z.infer<typeof rawBlockSchema>;
export type RawHistoryEntry = z.infer<typeof rawHistoryEntrySchema>;
export type RawAnnotation = z.infer<typeof rawAnnotationSchema>;
export type RawSnapshotDict = z.infer<typeof rawSnapshotDictSchema>;

/** "segments[3].blocks[0].size: expected a byte count, found nothing": the first problem only. */
export function describeZodError(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0];
  if (issue === undefined) return `${prefix || 'top level'}: unexpected shape`;
  const path = issue.path
    .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
    .join('');
  const where = `${prefix}${path}`.replace(/^\./, '');
  return `${where === '' ? 'top level' : where}: ${issue.message}`;
}
