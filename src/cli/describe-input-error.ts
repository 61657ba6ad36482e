// The CLI's one line about a failure: its own usage errors, then the shared decode wording.

import { describeDecodeError } from '@shared/snapshot/describe-decode-error';
import { UsageError } from './cli-options';

export function describeInputError(error: unknown): string {
  return error instanceof UsageError ? error.message : describeDecodeError(error);
}
