import { z } from 'zod';
import type { SnapshotFileInfo } from '../preload/index.d';

// Everything that crosses IPC is checked here: arguments coming from the page (which we treat as
// untrusted) and replies going back (so a bug in main cannot hand the page a malformed object).

export const noArgumentsSchema = z.tuple([]);

export const snapshotFileInfoSchema = z.strictObject({
  fileName: z.string().min(1).max(4096),
  sizeBytes: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
}) satisfies z.ZodType<SnapshotFileInfo>;

export const openDialogReplySchema = snapshotFileInfoSchema.nullable();
