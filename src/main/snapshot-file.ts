import { stat } from 'node:fs/promises';

/** Size of a snapshot file in bytes; rejects for directories and files that cannot be read. */
export async function snapshotFileSize(path: string): Promise<number> {
  const stats = await stat(path);
  if (stats.isDirectory()) {
    throw Object.assign(new Error(`${path} is a directory`), { code: 'EISDIR' });
  }
  return stats.size;
}
