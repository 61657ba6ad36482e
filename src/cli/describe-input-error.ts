// One line for the user about why a file could not be read: our own decode errors as they are,
// file-system errors in plain words, anything else with its message.

import { PickleError } from '@shared/pickle/pickle-error';
import { SnapshotFormatError } from '@shared/snapshot/snapshot-error';
import { UsageError } from './cli-options';

export function describeInputError(error: unknown): string {
  if (
    error instanceof PickleError ||
    error instanceof SnapshotFormatError ||
    error instanceof UsageError
  ) {
    return error.message;
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory, not a snapshot file';
  if (error instanceof RangeError) return `could not decode: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
