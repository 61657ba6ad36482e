// The 12 real snapshots given to the project (../shared/snapshots beside the checkout).

import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REAL_SNAPSHOT_DIR = resolve(import.meta.dirname, '../../../shared/snapshots');

export function realSnapshotPaths(): string[] {
  return readdirSync(REAL_SNAPSHOT_DIR)
    .filter((name) => name.endsWith('.pickle'))
    .sort()
    .map((name) => join(REAL_SNAPSHOT_DIR, name));
}

export function realSnapshotPath(prefix: string): string {
  const match = realSnapshotPaths().find((path) => path.split('/').pop()!.startsWith(prefix));
  if (match === undefined) throw new Error(`no real snapshot starting with ${prefix}`);
  return match;
}
