import { bugReportOf } from '@shared/snapshot/describe-decode-error';

// A decode Web Worker that died instead of answering (an exception that escaped it, a script
// that failed to load). That is always a bug in allocscope: the decoder answers every input, bad
// ones included, with a message. The page only gets the ErrorEvent, whose `error` is usually
// null across the worker boundary, so the report is made of what the event says and where.

/** The fields of an ErrorEvent this reads (a plain object in tests). */
export interface WorkerErrorFacts {
  readonly message?: string;
  readonly filename?: string;
  readonly lineno?: number;
  readonly colno?: number;
  readonly error?: unknown;
}

export interface WorkerCrash {
  /** One line for the user. */
  readonly message: string;
  /** What they paste into a bug report. */
  readonly bugReport: string;
}

export function describeWorkerCrash(event: WorkerErrorFacts): WorkerCrash {
  const detail = event.message ? ` (${event.message})` : '';
  const message = `the decoder stopped unexpectedly${detail}`;
  if (event.error instanceof Error) return { message, bugReport: bugReportOf(event.error) };
  const lines = ['allocscope internal error', message];
  if (event.filename)
    lines.push(`    at ${event.filename}:${event.lineno ?? 0}:${event.colno ?? 0}`);
  return { message, bugReport: lines.join('\n') };
}
