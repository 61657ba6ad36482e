import { UnreadableInputError } from '../errors/unreadable-input';

// Only a regular file can be a snapshot. Anything else is refused from its stat, before it is
// opened: opening a FIFO blocks until a writer comes (the decode would hang with no way to say
// why), and a device or socket is never a snapshot. Used by Electron's allocscope-file: handler
// (src/main/snapshot-protocol.ts) and the CLI (where `-` reads standard input instead: its `hint`
// says so).

/** The part of fs.Stats this needs (a plain object in tests). */
export interface FileKind {
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

/** Throws UnreadableInputError, saying what the path is, unless it is a regular file. */
export function assertRegularFile(info: FileKind, hint = ''): void {
  if (info.isFile()) return;
  if (info.isDirectory()) throw new UnreadableInputError('is a directory, not a snapshot file');
  throw new UnreadableInputError(`is ${describeSpecialFile(info)}, not a regular file${hint}`);
}

function describeSpecialFile(info: FileKind): string {
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'a special file';
}
