// Which entries of a folder of ranks are read: the regular files among those named like snapshots.
// Anything else (a folder, a FIFO, a symbolic link that loops or leads nowhere, an entry one may
// not stat) is left out, with why, and the rest are read all the same: the CLI's `ranks DIR` and
// the app's Open Folder both decide here. A FIFO would block a read; a loop failed the whole
// command.

import { describeDecodeError } from './describe-decode-error';
import { assertRegularFile, type FileKind } from './regular-file';

/** What stat said of an entry: its kind; or its error, and whether the entry is itself a link. */
export type EntryStat = { info: FileKind } | { error: unknown; symbolicLink: boolean };

/** Why the entry is left out, or null when it is a regular file to read. */
export function folderEntryProblem(entry: EntryStat): string | null {
  if ('error' in entry) {
    // stat follows links: a link to nothing says "no such file" of a name that is there.
    const code = (entry.error as { code?: unknown } | null)?.code;
    return code === 'ENOENT' && entry.symbolicLink
      ? 'a symbolic link to a missing file'
      : describeDecodeError(entry.error);
  }
  try {
    assertRegularFile(entry.info);
    return null;
  } catch (error) {
    return describeDecodeError(error);
  }
}
