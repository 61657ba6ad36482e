import { isAbsolute } from 'node:path';
import { z } from 'zod';
import type {
  DecodeFailed,
  DecodeProgressUpdate,
  DecodeStarted,
  MenuCommand,
  RecentFile,
} from '../preload/index.d';

// Everything that crosses IPC is checked here: arguments coming from the page (which we treat as
// untrusted) and the small replies and events going back (so a bug in main cannot hand the page
// a malformed object). The decoded view itself is built by our own worker and not re-validated:
// walking millions of typed-array entries through zod would cost more than the decode.

const MAX_PATH_LENGTH = 32_767; // Windows' extended-length limit; longer is never a real path

export const noArgumentsSchema = z.tuple([]);

const pathSchema = z
  .string()
  .min(1)
  .max(MAX_PATH_LENGTH)
  .refine((path) => !path.includes('\0'), 'a path cannot contain NUL');

/** openRecentFile(path): main also checks that the path is on its own recent list. */
export const openRecentFileArgumentsSchema = z.tuple([pathSchema]);

/** openDroppedFile(path): what webUtils.getPathForFile gave the preload. */
export const openDroppedFileArgumentsSchema = z.tuple([
  pathSchema.refine((path) => isAbsolute(path), 'expected an absolute path'),
]);

export const jobIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const cancelDecodeArgumentsSchema = z.tuple([jobIdSchema]);

const fileNameSchema = z.string().min(1).max(4096);
const byteCountSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

export const recentFileSchema = z.strictObject({
  path: pathSchema,
  fileName: fileNameSchema,
}) satisfies z.ZodType<RecentFile>;

export const recentFilesReplySchema = z.array(recentFileSchema).max(100);

export const decodeStartedSchema = z.strictObject({
  jobId: jobIdSchema,
  fileName: fileNameSchema,
  totalBytes: byteCountSchema.nullable(),
}) satisfies z.ZodType<DecodeStarted>;

export const decodeProgressSchema = z.strictObject({
  jobId: jobIdSchema,
  stage: z.enum(['reading', 'building', 'analyzing']),
  bytesRead: byteCountSchema,
  totalBytes: byteCountSchema.nullable(),
}) satisfies z.ZodType<DecodeProgressUpdate>;

export const decodeFailedSchema = z.strictObject({
  jobId: jobIdSchema,
  fileName: fileNameSchema,
  message: z.string().min(1).max(10_000),
}) satisfies z.ZodType<DecodeFailed>;

export const menuCommandSchema = z.enum([
  'close-tab',
  'next-tab',
  'previous-tab',
]) satisfies z.ZodType<MenuCommand>;
