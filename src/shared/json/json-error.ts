import { UnreadableInputError } from '../errors/unreadable-input';

/**
 * A JSON file refused: not JSON, or JSON past the limits of what it should be. `path` is where in
 * the document (`device_traces[0][12].frames[3]`, '' for the top level), `offset` the byte.
 */
export class JsonInputError extends UnreadableInputError {
  readonly offset: number;
  readonly path: string;

  constructor(message: string, path: string, offset: number) {
    super(message, offset >= 0 ? `byte ${offset}` : null);
    this.name = 'JsonInputError';
    this.offset = offset;
    this.path = path;
  }
}
