import { PickleError } from '@shared/pickle/pickle-error';
import { SnapshotFormatError } from '@shared/snapshot/snapshot-error';

/** One line for the user about why a file could not be opened in the page. */
export function describeDecodeError(error: unknown): string {
  if (error instanceof PickleError || error instanceof SnapshotFormatError) return error.message;
  if (error instanceof DOMException && error.name === 'NotReadableError') {
    return 'the file could not be read (was it moved or deleted?)';
  }
  if (error instanceof DOMException && error.name === 'NotFoundError') return 'no such file';
  if (error instanceof RangeError) return `could not decode: ${error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  return message === '' ? 'unknown error' : message;
}
