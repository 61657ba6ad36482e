// One line for the user about why a file could not be opened, the same in the CLI, Electron's
// main process and the page — and whether it is the file's fault or ours. The file's fault: our
// own UnreadableInputError, file-system and browser read errors (in plain words), running out of
// memory. Anything else is a bug in allocscope, reported with its stack so that it can be fixed.
// Errors are recognised by their shape (`code`, `name`), so this stays free of Node and DOM types.

import { UnreadableInputError } from '../errors/unreadable-input';

const PLAIN_WORDS: Readonly<Record<string, string>> = {
  // Node file-system error codes.
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory, not a snapshot file',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links in the path',
  EIO: 'the file could not be read (input/output error)',
  // Browser File API errors (DOMException names).
  NotFoundError: 'no such file',
  NotReadableError: 'the file could not be read (was it moved or deleted?)',
};

export type DecodeFailure =
  | { readonly kind: 'unreadable'; readonly message: string }
  | { readonly kind: 'bug'; readonly message: string; readonly report: string };

export function classifyDecodeError(error: unknown): DecodeFailure {
  if (error instanceof UnreadableInputError) return { kind: 'unreadable', message: error.message };
  const shape = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    name?: unknown;
  };
  for (const key of [shape.code, shape.name]) {
    if (typeof key === 'string' && PLAIN_WORDS[key] !== undefined) {
      return { kind: 'unreadable', message: PLAIN_WORDS[key] };
    }
  }
  if (error instanceof RangeError && /allocation failed|out of memory/i.test(error.message)) {
    return {
      kind: 'unreadable',
      message: `not enough memory to decode this file (${error.message})`,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: 'bug',
    message: `internal error: ${message === '' ? 'unknown error' : message}`,
    report: bugReportOf(error),
  };
}

/** The one line for the user, whichever kind of failure it is. */
export function describeDecodeError(error: unknown): string {
  return classifyDecodeError(error).message;
}

/** What a user pastes into a bug report: the error's name, message and stack. */
export function bugReportOf(error: unknown): string {
  if (!(error instanceof Error)) return `allocscope internal error: ${String(error)}`;
  const stack = error.stack ?? `${error.name}: ${error.message}`;
  const head = stack.startsWith(`${error.name}`) ? '' : `${error.name}: ${error.message}\n`;
  return `allocscope internal error\n${head}${stack}`;
}
