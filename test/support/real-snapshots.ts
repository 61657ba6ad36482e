// The 12 real snapshots the tests read (test/fixtures/real, with their sources in its README),
// and an optional larger corpus from the folder named by ALLOCSCOPE_CORPUS.

import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REAL_SNAPSHOT_DIR = resolve(import.meta.dirname, '../fixtures/real');

export function realSnapshotPaths(): string[] {
  return picklesIn(REAL_SNAPSHOT_DIR);
}

export function realSnapshotPath(prefix: string): string {
  const match = realSnapshotPaths().find((path) => path.split('/').pop()!.startsWith(prefix));
  if (match === undefined) throw new Error(`no real snapshot starting with ${prefix}`);
  return match;
}

/** The folder of a larger corpus of snapshots, or null when ALLOCSCOPE_CORPUS is not set. */
export function corpusDir(): string | null {
  const dir = process.env.ALLOCSCOPE_CORPUS;
  if (dir === undefined || dir === '') return null;
  if (!existsSync(dir)) throw new Error(`ALLOCSCOPE_CORPUS=${dir}: no such folder`);
  return resolve(dir);
}

export function corpusSnapshotPaths(): string[] {
  const dir = corpusDir();
  return dir === null ? [] : picklesIn(dir);
}

function picklesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /\.(pickle|pkl)(\.gz)?$/.test(name))
    .sort()
    .map((name) => join(dir, name));
}
