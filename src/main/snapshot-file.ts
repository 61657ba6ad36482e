import { stat } from 'node:fs/promises';
import { assertRegularFile } from '@shared/snapshot/regular-file';

/**
 * Size of a snapshot file in bytes; rejects for files that cannot be read, and with
 * UnreadableInputError for anything but a regular file (a directory, a FIFO, a device), so that
 * such a path is refused before a worker starts for it.
 */
export async function snapshotFileSize(path: string): Promise<number> {
  const stats = await stat(path);
  assertRegularFile(stats);
  return stats.size;
}
