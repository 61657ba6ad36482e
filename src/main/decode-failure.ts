import { bugReportOf, classifyDecodeError } from '@shared/snapshot/describe-decode-error';
import type { DecodeFailed } from '../preload/index.d';
import {
  decodeFailedSchema,
  MAX_BUG_REPORT_LENGTH,
  MAX_FAILURE_MESSAGE_LENGTH,
} from './ipc-schemas';

// What main tells the page when a decode fails, made in one place so that every path (the
// worker's reply, a crashed worker, a file that cannot be stat'ed, a view IPC cannot carry) says
// whether it is the file's fault or a bug in allocscope, and always fits the IPC schema: an error
// with a megabyte-long message must still reach the page as a notice, not throw in main.

export interface DecodeFailure {
  /** One line for the user. */
  readonly message: string;
  /** Present when it is a bug in allocscope: the error and its stack. */
  readonly bugReport?: string;
}

/** An error caught in main: the file's fault (a plain message) or a bug (with its report). */
export function failureOfError(error: unknown): DecodeFailure {
  const failure = classifyDecodeError(error);
  return failure.kind === 'bug'
    ? { message: failure.message, bugReport: failure.report }
    : { message: failure.message };
}

/** Something in allocscope broke (a crashed worker, IPC refusing the view): always a bug. */
export function bugFailure(message: string, error: unknown): DecodeFailure {
  return { message, bugReport: bugReportOf(error) };
}

/**
 * A worker that died without an answer. That is a bug (the decoder must refuse any input with a
 * message), except when it ran out of memory: the file is too large for this machine, as when
 * the decoder itself reports running out.
 */
export function crashFailure(error: Error): DecodeFailure {
  if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return { message: `not enough memory to decode this file (${error.message})` };
  }
  return bugFailure(`the decoder stopped unexpectedly (${error.message})`, error);
}

/** The decodeFailed payload, checked, with over-long texts clipped to what the schema allows. */
export function decodeFailedPayload(
  jobId: number,
  fileName: string,
  failure: DecodeFailure,
): DecodeFailed {
  const message = clipText(failure.message, MAX_FAILURE_MESSAGE_LENGTH) || 'unknown error';
  const bugReport =
    failure.bugReport === undefined || failure.bugReport === ''
      ? undefined
      : clipText(failure.bugReport, MAX_BUG_REPORT_LENGTH);
  return decodeFailedSchema.parse({
    jobId,
    fileName,
    message,
    ...(bugReport === undefined ? {} : { bugReport }),
  });
}

const CLIPPED_MARK = ' […]';

/** The text, or its start and a mark saying the rest was cut when it is longer than `max`. */
export function clipText(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - CLIPPED_MARK.length) + CLIPPED_MARK;
}
