// One line for the user about why a file could not be opened, the same in the CLI, Electron's
// main process and the page: our own decode errors as they are, file-system and browser read
// errors in plain words, anything else with its message. Errors are recognised by their shape
// (`code`, `name`), so this stays free of Node and DOM types.

import { PickleError } from '../pickle/pickle-error';
import { SnapshotFormatError } from './snapshot-error';

const PLAIN_WORDS: Readonly<Record<string, string>> = {
  // Node file-system error codes.
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory, not a snapshot file',
  // Browser File API errors (DOMException names).
  NotFoundError: 'no such file',
  NotReadableError: 'the file could not be read (was it moved or deleted?)',
};

export function describeDecodeError(error: unknown): string {
  if (error instanceof PickleError || error instanceof SnapshotFormatError) return error.message;
  const shape = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    name?: unknown;
  };
  for (const key of [shape.code, shape.name]) {
    if (typeof key === 'string' && PLAIN_WORDS[key] !== undefined) return PLAIN_WORDS[key];
  }
  if (error instanceof RangeError) return `could not decode: ${error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  return message === '' ? 'unknown error' : message;
}
