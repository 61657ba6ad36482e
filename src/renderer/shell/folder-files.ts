import { isRankFileName, orderRanks } from '@shared/compare/ranks';

// A folder of ranks in the page: what a folder input or a dropped folder gives, narrowed to the
// snapshot files directly inside it (as main does with a folder it is given, and the CLI's
// `ranks DIR`), in rank order.

/** The folder's own snapshot files (not those of its sub-folders), in rank order. */
export function ranksOfFolder(files: readonly File[]): File[] {
  const direct = files.filter((file) => {
    // A folder input names each file from the folder down ("job/rank0.pickle"); a file read
    // from a dropped folder has no such path and is the folder's own.
    const parts =
      file.webkitRelativePath === '' ? 1 : file.webkitRelativePath.split('/').length - 1;
    return parts <= 1 && isRankFileName(file.name);
  });
  const byName = new Map(direct.map((file) => [file.name, file]));
  return orderRanks([...byName.keys()]).map(({ name }) => byName.get(name)!);
}

/** The folder a folder input's files came from ("job"), or null. */
export function folderNameOf(files: readonly File[]): string | null {
  const path = files[0]?.webkitRelativePath ?? '';
  const cut = path.indexOf('/');
  return cut > 0 ? path.slice(0, cut) : null;
}

/** What to say when a folder holds no snapshot file. */
export function noRanksMessage(): string {
  return 'this folder holds no snapshot files. A folder of ranks holds one snapshot per rank, as torch.cuda.memory._dump_snapshot() writes them (.pickle or .pkl, gzipped or not).';
}

/** What to say when a dropped folder cannot be listed. */
export function unreadableFolderMessage(): string {
  return 'this folder could not be read (is it still there, and may this app read it?).';
}

/** Every file directly inside a dropped folder (FileSystemDirectoryEntry, read in batches). */
export async function filesOfDroppedFolder(folder: FileSystemDirectoryEntry): Promise<File[]> {
  const reader = folder.createReader();
  const entries: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) break;
    entries.push(...batch);
  }
  const files = entries.filter(
    (entry): entry is FileSystemFileEntry => entry.isFile && isRankFileName(entry.name),
  );
  return Promise.all(
    files.map((entry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject))),
  );
}
