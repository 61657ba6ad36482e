/** The pickle decoded, but its content is not a memory snapshot of a shape we understand. */
export class SnapshotFormatError extends Error {
  readonly offset: number;

  constructor(message: string, offset = -1) {
    super(offset >= 0 ? `${message} (at byte ${offset})` : message);
    this.name = 'SnapshotFormatError';
    this.offset = offset;
  }
}
