import { UnreadableInputError } from '../errors/unreadable-input';

/**
 * The pickle decoded (or is being decoded), but its content is not a memory snapshot of a shape we
 * understand. `offset` is a byte offset when known; `path` a place in the snapshot
 * (`segments[3].blocks[0].size`).
 */
export class SnapshotFormatError extends UnreadableInputError {
  readonly offset: number;

  constructor(message: string, offset: number | string = -1) {
    super(message, typeof offset === 'string' ? offset : offset >= 0 ? `byte ${offset}` : null);
    this.name = 'SnapshotFormatError';
    this.offset = typeof offset === 'number' ? offset : -1;
  }
}
