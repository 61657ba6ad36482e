import { UnreadableInputError } from '../errors/unreadable-input';

/** Why a byte stream could not be decoded, with the absolute byte offset where it went wrong. */
export class PickleError extends UnreadableInputError {
  readonly offset: number;

  constructor(message: string, offset: number) {
    super(message, offset >= 0 ? `byte ${offset}` : null);
    this.name = 'PickleError';
    this.offset = offset;
  }
}

/** Raised when the bytes ask for Python code: a snapshot is plain data, so this is refused. */
export class CodeLoadingRefusedError extends PickleError {
  readonly opcodeName: string;

  constructor(opcodeName: string, offset: number) {
    super(
      `not a memory snapshot: the file asks to load Python code (opcode ${opcodeName} at byte ${offset})`,
      -1,
    );
    this.name = 'CodeLoadingRefusedError';
    this.opcodeName = opcodeName;
  }
}
