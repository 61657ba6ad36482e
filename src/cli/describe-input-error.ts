// The CLI's one line about a failure: its own usage errors, then the shared decode wording; and
// whether it is the input's fault (exit 2) or a bug in allocscope (exit 1).

import { classifyDecodeError } from '@shared/snapshot/describe-decode-error';
import { UsageError } from './cli-options';

export function describeInputError(error: unknown): string {
  if (error instanceof UsageError) return error.message;
  const failure = classifyDecodeError(error);
  // An internal error's message already starts with "internal error: " in the shared wording.
  return failure.kind === 'bug'
    ? failure.message.replace(/^internal error: /, '')
    : failure.message;
}

export function isInputError(error: unknown): boolean {
  return error instanceof UsageError || classifyDecodeError(error).kind === 'unreadable';
}
