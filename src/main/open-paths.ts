import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isRankFileName, orderRanks } from '../shared/compare/ranks';
import type { HandoverOptions, HandoverService } from './snapshot-handover';

// What opening some paths opens (the Open dialog, a folder, a drop, the command line, macOS's
// open-file): a file as it is; a folder as the ranks of one job, its snapshot files (.pickle,
// .pkl, gzipped or not) in rank order. Each file goes with its size, so the page can budget its
// decodes before any byte is fetched. Main reads names and sizes here, never the files' content.

export interface PathReader {
  stat(path: string): Promise<{ isDirectory(): boolean; size: number }>;
  readdir(path: string): Promise<string[]>;
}

export const nodePathReader: PathReader = { stat, readdir: (path) => readdir(path) };

export interface OpenTarget {
  readonly path: string;
  readonly options: HandoverOptions;
}

export interface OpenPlan {
  readonly targets: OpenTarget[];
  /** Folders that hold no snapshot file: the user is told, nothing opens for them. */
  readonly emptyFolders: string[];
}

/** Ids of the folders of ranks opened, for the page to tell them apart (never their paths). */
function rankGroupIds(): () => string {
  let next = 1;
  return () => `folder-${next++}`;
}

export async function planOpen(
  paths: readonly string[],
  reader: PathReader,
  newRankGroup: () => string = rankGroupIds(),
): Promise<OpenPlan> {
  const targets: OpenTarget[] = [];
  const emptyFolders: string[] = [];
  for (const path of paths) {
    const stats = await statOrNull(reader, path);
    if (stats === null || !stats.isDirectory()) {
      // A path that cannot be read still goes over: the page's decode says why, in its words.
      targets.push({ path, options: { sizeBytes: stats?.size ?? null } });
      continue;
    }
    const names = (await reader.readdir(path).catch(() => [])).filter(isRankFileName);
    const files: OpenTarget[] = [];
    for (const { name } of orderRanks(names)) {
      const file = join(path, name);
      const fileStats = await statOrNull(reader, file);
      if (fileStats?.isDirectory() === true) continue;
      files.push({ path: file, options: { sizeBytes: fileStats?.size ?? null } });
    }
    if (files.length === 0) emptyFolders.push(path);
    const rankGroup = files.length >= 2 ? newRankGroup() : null;
    targets.push(
      ...files.map((target) => ({ ...target, options: { ...target.options, rankGroup } })),
    );
  }
  return { targets, emptyFolders };
}

async function statOrNull(
  reader: PathReader,
  path: string,
): Promise<{ isDirectory(): boolean; size: number } | null> {
  try {
    return await reader.stat(path);
  } catch {
    return null;
  }
}

export interface PathOpenerDependencies {
  readonly handover: Pick<HandoverService, 'open'>;
  readonly reader: PathReader;
  /** Tells the user something opened nothing (main shows a native message box). */
  notify(message: string): void;
}

/**
 * Opens paths (files, folders of ranks); resolves once each file is handed over. Never rejects:
 * what goes wrong is logged (callers fire and forget it from menus and events).
 */
export type PathOpener = (paths: readonly string[]) => Promise<void>;

export function createPathOpener(dependencies: PathOpenerDependencies): PathOpener {
  const newRankGroup = rankGroupIds();
  return async (paths) => {
    try {
      const plan = await planOpen(paths, dependencies.reader, newRankGroup);
      for (const target of plan.targets) dependencies.handover.open(target.path, target.options);
      for (const folder of plan.emptyFolders) dependencies.notify(emptyFolderMessage(folder));
    } catch (error) {
      console.warn('[allocscope] could not open', paths, error);
    }
  };
}

/** The words for a folder without snapshots (a native message box shows them). */
export function emptyFolderMessage(folder: string): string {
  return `${folder} holds no snapshot files. A folder of ranks holds one snapshot per rank, as torch.cuda.memory._dump_snapshot() writes them (.pickle or .pkl, gzipped or not).`;
}
