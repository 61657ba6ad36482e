// The one error type for "this file is not a snapshot we can read": the user's input, not a bug in
// allocscope. Everything else that escapes the decoder is an internal error and is reported as
// such (CLI exit 1 with the stack; the page's "this is a bug in allocscope" notice).
//
// `where` says where in the file: a byte offset ("byte 1234") or a path in the snapshot
// ("segments[3].blocks[0].size"); the message already ends with it, so callers print the message
// as it is, after the file's name.

export class UnreadableInputError extends Error {
  readonly where: string | null;

  constructor(message: string, where: string | null = null) {
    super(where === null ? message : `${message} (at ${where})`);
    this.name = 'UnreadableInputError';
    this.where = where;
  }
}

export function isUnreadableInput(error: unknown): error is UnreadableInputError {
  return error instanceof UnreadableInputError;
}

/** A count or a byte figure as people read it in a message: 1,099,511,627,776. */
export function groupDigits(value: number | bigint): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  const text = typeof value === 'bigint' ? value.toString() : String(Math.trunc(value));
  const sign = text.startsWith('-') ? '-' : '';
  return sign + text.slice(sign.length).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
