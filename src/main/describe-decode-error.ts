import { PickleError } from '@shared/pickle/pickle-error';
import { SnapshotFormatError } from '@shared/snapshot/snapshot-error';

/** One line for the user about why a file could not be opened. */
export function describeDecodeError(error: unknown): string {
  if (error instanceof PickleError || error instanceof SnapshotFormatError) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory, not a snapshot file';
  if (error instanceof RangeError) return `could not decode: ${error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  return message === '' ? 'unknown error' : message;
}
