import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { SnapshotFileInfo } from '../preload/index.d';

/** What the page is told about a file: its name and size, never its path. */
export async function describeSnapshotFile(path: string): Promise<SnapshotFileInfo> {
  const stats = await stat(path);
  if (!stats.isFile()) throw new Error(`${path} is not a file`);
  return { fileName: basename(path), sizeBytes: stats.size };
}
