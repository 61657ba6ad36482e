// The allow-list of `allocscope serve`: the files named on the command line and the snapshot files
// directly in a named folder (the page's and `ranks DIR`'s rule: isRankFileName), each with an id
// and the real path it had when listed. Nothing else can be fetched. At request time the file is
// opened only if its path still resolves to that real path (a file replaced by a link to
// elsewhere is refused), without following a link in its last step.

import { constants, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import { isRankFileName } from '@shared/compare/ranks';
import { folderEntryProblem } from '@shared/snapshot/folder-entry';
import { describeDecodeError } from '@shared/snapshot/describe-decode-error';
import type { ServedFile } from '@shared/report/served-manifest';
import { UsageError } from '../cli-options';

export interface ListedFile extends ServedFile {
  /** The file's real path when it was listed: what its path must still resolve to. */
  readonly realPath: string;
}

export interface ServedFiles {
  readonly files: readonly ListedFile[];
  /** A folder's entries that were left out, with why (said on stderr, served never). */
  readonly leftOut: readonly { path: string; why: string }[];
}

/**
 * The files to serve, in the order named (a folder's in name order). A path that does not exist,
 * is neither a file nor a folder, or a folder without a snapshot file is a usage error naming it.
 */
export function listServedFiles(paths: readonly string[]): ServedFiles {
  const files: ListedFile[] = [];
  const leftOut: { path: string; why: string }[] = [];
  const seen = new Set<string>();
  // A path named twice is served once; a folder's link to another of its files is a file of
  // its own (a rank), as `ranks DIR` counts it.
  const add = (path: string, realPath: string, sizeBytes: number, group: string | null) => {
    const key = `${group ?? ''}\0${path}`;
    if (seen.has(key)) return;
    seen.add(key);
    files.push({
      id: String(files.length),
      name: basename(path),
      path,
      sizeBytes: sizeBytes,
      group,
      realPath,
    });
  };
  for (const named of paths) {
    const path = resolve(named);
    let info;
    try {
      info = statSync(path);
    } catch (error) {
      throw new UsageError(`cannot serve ${named}: ${describeDecodeError(error)}`);
    }
    if (info.isFile()) {
      add(path, realpathSync(path), info.size, null);
    } else if (info.isDirectory()) {
      const before = files.length;
      listFolder(path, add, leftOut);
      if (files.length === before)
        throw new UsageError(
          `cannot serve ${named}: the folder holds no snapshot file (.pickle, .pkl, .gz)`,
        );
    } else {
      throw new UsageError(`cannot serve ${named}: neither a file nor a folder`);
    }
  }
  return { files, leftOut };
}

function listFolder(
  folder: string,
  add: (path: string, realPath: string, sizeBytes: number, group: string) => void,
  leftOut: { path: string; why: string }[],
): void {
  const realFolder = realpathSync(folder);
  const names = readdirSync(folder).filter(isRankFileName).sort();
  for (const name of names) {
    const path = join(folder, name);
    let realPath: string;
    try {
      realPath = realpathSync(path);
    } catch (error) {
      const symbolicLink = lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
      leftOut.push({ path, why: folderEntryProblem({ error, symbolicLink }) ?? 'unreadable' });
      continue;
    }
    // A link may point at another snapshot of the same folder, never out of it.
    if (!realPath.startsWith(realFolder + sep)) {
      leftOut.push({ path, why: 'a symbolic link out of the folder' });
      continue;
    }
    let info;
    try {
      info = statSync(realPath);
    } catch (error) {
      leftOut.push({ path, why: describeDecodeError(error) });
      continue;
    }
    const problem = folderEntryProblem({ info });
    if (problem !== null) leftOut.push({ path, why: problem });
    else add(path, realPath, info.size, folder);
  }
}

/**
 * The listed file opened for reading, or null when it is no longer the file that was listed
 * (its path resolves elsewhere now, it is gone, or it is no regular file).
 */
export async function openListedFile(
  file: ListedFile,
): Promise<{ handle: FileHandle; sizeBytes: number } | null> {
  try {
    if ((await realpath(file.path)) !== file.realPath) return null;
  } catch {
    return null;
  }
  return openRegularFile(file.realPath);
}

/**
 * A regular file opened for reading without following a link in its last step (a path that
 * turned into a link since it was checked is refused), or null.
 */
export async function openRegularFile(
  realPath: string,
): Promise<{ handle: FileHandle; sizeBytes: number } | null> {
  let handle: FileHandle | null = null;
  try {
    handle = await open(realPath, constants.O_RDONLY | constants.O_NOFOLLOW);
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      return null;
    }
    return { handle, sizeBytes: info.size };
  } catch {
    await handle?.close().catch(() => {});
    return null;
  }
}
