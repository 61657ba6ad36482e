import { isAbsolute } from 'node:path';
import { z } from 'zod';
import type {
  ExportFormat,
  MenuCommand,
  RecentFile,
  SaveExportRequest,
  SaveExportResult,
  SnapshotHandover,
  SnapshotOutcome,
} from '../preload/index.d';
import { snapshotUrlSchema } from './snapshot-url';

// Everything that crosses IPC is checked here: arguments coming from the page (which we treat as
// untrusted) and the small replies and events going back (so a bug in main cannot hand the page
// a malformed object). No decoded data crosses IPC at all: the page decodes the files main hands
// it as URLs (src/main/snapshot-protocol.ts).

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

const fileNameSchema = z.string().min(1).max(4096);

export const recentFileSchema = z.strictObject({
  path: pathSchema,
  fileName: fileNameSchema,
}) satisfies z.ZodType<RecentFile>;

export const recentFilesReplySchema = z.array(recentFileSchema).max(100);

/** main → page: a file to fetch and decode. */
export const snapshotHandoverSchema = z.strictObject({
  url: snapshotUrlSchema,
  fileName: fileNameSchema,
  sizeBytes: z.number().int().nonnegative().nullable(),
  rankGroup: z.string().min(1).max(64).nullable(),
}) satisfies z.ZodType<SnapshotHandover>;

export const snapshotOutcomeSchema = z.enum([
  'decoded',
  'failed',
  'cancelled',
]) satisfies z.ZodType<SnapshotOutcome>;

/** settleSnapshot(url, outcome): main also checks that the token is this page's. */
export const settleSnapshotArgumentsSchema = z.tuple([snapshotUrlSchema, snapshotOutcomeSchema]);

export const menuCommandSchema = z.enum([
  'close-tab',
  'next-tab',
  'previous-tab',
]) satisfies z.ZodType<MenuCommand>;

export const exportFormatSchema = z.enum([
  'png',
  'svg',
  'json',
  'csv',
]) satisfies z.ZodType<ExportFormat>;

/** The largest exported file main writes: far above any real chart, report or table. */
export const MAX_EXPORT_BYTES = 512 * 1024 * 1024;
export const MAX_EXPORT_FILE_NAME_LENGTH = 255;

/** A plain file name (the Save dialog's proposal): no folders, no control characters. */
export const exportFileNameSchema = z
  .string()
  .min(1)
  .max(MAX_EXPORT_FILE_NAME_LENGTH)
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[/\\\u0000-\u001f\u007f]/.test(name), 'expected a file name without folders')
  .refine((name) => name !== '.' && name !== '..', 'expected a file name');

const exportTextSchema = z
  .string()
  .refine((text) => Buffer.byteLength(text, 'utf8') <= MAX_EXPORT_BYTES, 'the file is too large');

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const exportPngSchema = z
  .instanceof(Uint8Array)
  .refine((bytes) => bytes.byteLength <= MAX_EXPORT_BYTES, 'the file is too large')
  .refine(
    (bytes) => PNG_SIGNATURE.every((byte, index) => bytes[index] === byte),
    'expected a PNG image',
  );

/** saveExport(request): PNG as bytes, the text formats as strings; nothing else crosses. */
export const saveExportRequestSchema = z.discriminatedUnion('format', [
  z.strictObject({
    format: z.literal('png'),
    fileName: exportFileNameSchema,
    data: exportPngSchema,
  }),
  z.strictObject({
    format: z.literal('svg'),
    fileName: exportFileNameSchema,
    data: exportTextSchema,
  }),
  z.strictObject({
    format: z.literal('json'),
    fileName: exportFileNameSchema,
    data: exportTextSchema,
  }),
  z.strictObject({
    format: z.literal('csv'),
    fileName: exportFileNameSchema,
    data: exportTextSchema,
  }),
]) satisfies z.ZodType<SaveExportRequest>;

export const saveExportArgumentsSchema = z.tuple([saveExportRequestSchema]);

export const saveExportResultSchema = z.discriminatedUnion('saved', [
  z.strictObject({ saved: z.literal(true), fileName: fileNameSchema }),
  z.strictObject({ saved: z.literal(false) }),
]) satisfies z.ZodType<SaveExportResult>;
