import { lstat, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { isRankFileName, orderRanks } from '../shared/compare/ranks';
import { folderEntryProblem, type EntryStat } from '../shared/snapshot/folder-entry';
import type { FileKind } from '../shared/snapshot/regular-file';
import type { HandoverOptions, HandoverService } from './snapshot-handover';

// What opening some paths opens (the Open dialog, a folder, a drop, the command line, macOS's
// open-file): a file as it is; a folder as the ranks of one job, its snapshot files (.pickle,
// .pkl, gzipped or not) in rank order. Each file goes with its size, so the page can budget its
// decodes before any byte is fetched. Main reads names and sizes here, never the files' content.
// A folder's entry that is no regular file (a folder, a FIFO, a link that loops or leads nowhere)
// is left out and named, as `allocscope ranks DIR` does (shared/snapshot/folder-entry.ts).

export interface PathReader {
  stat(path: string): Promise<FileKind & { size: number }>;
  lstat(path: string): Promise<{ isSymbolicLink(): boolean }>;
  readdir(path: string): Promise<string[]>;
}

export const nodePathReader: PathReader = { stat, lstat, readdir: (path) => readdir(path) };

export interface OpenTarget {
  readonly path: string;
  readonly options: HandoverOptions;
}

export interface OpenPlan {
  readonly targets: OpenTarget[];
  /** Folders that hold no snapshot file: the user is told, nothing opens for them. */
  readonly emptyFolders: string[];
  /** Entries of the folders named like snapshots that are no regular file: the user is told. */
  readonly leftOut: { path: string; reason: string }[];
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
  const leftOut: { path: string; reason: string }[] = [];
  for (const path of paths) {
    const stats = await statOrNull(reader, path);
    if (stats === null || !stats.isDirectory()) {
      // A path that cannot be read still goes over: the page's decode says why, in its words.
      targets.push({ path, options: { sizeBytes: stats?.size ?? null } });
      continue;
    }
    const names = (await reader.readdir(path).catch(() => [])).filter(isRankFileName);
    const entries: { name: string; sizeBytes: number }[] = [];
    for (const name of names) {
      const file = join(path, name);
      let entry: EntryStat;
      let sizeBytes = 0;
      try {
        const info = await reader.stat(file);
        sizeBytes = info.size;
        entry = { info };
      } catch (error) {
        const symbolicLink = await reader.lstat(file).then(
          (info) => info.isSymbolicLink(),
          () => false,
        );
        entry = { error, symbolicLink };
      }
      const reason = folderEntryProblem(entry);
      if (reason === null) entries.push({ name, sizeBytes });
      else leftOut.push({ path: file, reason });
    }
    // In rank order among the files (an entry left out takes no rank).
    const sizes = new Map(entries.map((entry) => [entry.name, entry.sizeBytes]));
    const files: OpenTarget[] = orderRanks(entries.map((entry) => entry.name)).map(({ name }) => ({
      path: join(path, name),
      options: { sizeBytes: sizes.get(name)! },
    }));
    if (files.length === 0) emptyFolders.push(path);
    const rankGroup = files.length >= 2 ? newRankGroup() : null;
    targets.push(
      ...files.map((target) => ({ ...target, options: { ...target.options, rankGroup } })),
    );
  }
  return { targets, emptyFolders, leftOut };
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
  /** Tells the user something opened nothing, or not all (main shows a native message box). */
  notify(notice: { title: string; detail: string }): void;
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
      for (const folder of plan.emptyFolders)
        dependencies.notify({ title: 'Nothing to open', detail: emptyFolderMessage(folder) });
      if (plan.leftOut.length > 0)
        dependencies.notify({
          title: 'Some files were left out',
          detail: leftOutMessage(plan.leftOut),
        });
    } catch (error) {
      console.warn('[allocscope] could not open', paths, error);
    }
  };
}

/** The words for a folder without snapshots (a native message box shows them). */
export function emptyFolderMessage(folder: string): string {
  return `${folder} holds no snapshot files. A folder of ranks holds one snapshot per rank, as torch.cuda.memory._dump_snapshot() writes them (.pickle or .pkl, gzipped or not).`;
}

/** The words for a folder's entries left out: one line each, naming it and why. */
export function leftOutMessage(leftOut: readonly { path: string; reason: string }[]): string {
  return [
    'These are not snapshot files, and were left out:',
    ...leftOut.map((entry) => `${basename(entry.path)}: ${entry.reason}`),
  ].join('\n');
}
