// How a failure reads, in one line naming the file: the words of a refusal (bad input: exit 2 on
// the command line, a tool error in `mcp`), or "internal error" (our bug: exit 1 with the stack).
// One rule for the commands and the mcp server's tools.

import { basename } from 'node:path';
import { describeInputError, isInputError } from './describe-input-error';
import { FileFailure } from './file-failure';
import { NoDevicesNotice } from './no-devices';

export interface FailureLine {
  line: string;
  /** Not the input's fault: ours (a bug to report). */
  internal: boolean;
}

/** `path`: the file the command read (several: "a, b"); a FileFailure names its own. */
export function failureLine(thrown: unknown, path: string): FailureLine {
  const error = thrown instanceof FileFailure ? thrown.cause : thrown;
  const where = thrown instanceof FileFailure ? thrown.file : path;
  const file =
    where === '-'
      ? 'standard input'
      : where
          .split(', ')
          .map((p) => basename(p))
          .join(', ');
  if (error instanceof NoDevicesNotice) return { line: error.message, internal: false };
  if (isInputError(error))
    return { line: `allocscope: ${file}: ${describeInputError(error)}`, internal: false };
  return {
    line: `allocscope: internal error while reading ${file}: ${describeInputError(error)}`,
    internal: true,
  };
}
