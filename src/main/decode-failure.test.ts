import { describe, expect, it } from 'vitest';
import { UnreadableInputError } from '@shared/errors/unreadable-input';
import { clipText, crashFailure, decodeFailedPayload, failureOfError } from './decode-failure';
import { MAX_BUG_REPORT_LENGTH, MAX_FAILURE_MESSAGE_LENGTH } from './ipc-schemas';

describe('failureOfError', () => {
  it("tells the file's fault from a bug", () => {
    expect(failureOfError(new UnreadableInputError('not a memory snapshot'))).toEqual({
      message: 'not a memory snapshot',
    });
    expect(failureOfError(Object.assign(new Error('ENOENT'), { code: 'ENOENT' }))).toEqual({
      message: 'no such file',
    });
    const bug = failureOfError(new TypeError('x is undefined'));
    expect(bug.message).toBe('internal error: x is undefined');
    expect(bug.bugReport).toContain('TypeError: x is undefined');
  });
});

describe('crashFailure', () => {
  it('is a bug, except a worker out of memory', () => {
    const crash = crashFailure(new Error('exit code 1'));
    expect(crash.message).toBe('the decoder stopped unexpectedly (exit code 1)');
    expect(crash.bugReport).toContain('Error: exit code 1');
    const memory = Object.assign(new Error('heap limit'), { code: 'ERR_WORKER_OUT_OF_MEMORY' });
    expect(crashFailure(memory)).toEqual({
      message: 'not enough memory to decode this file (heap limit)',
    });
  });
});

describe('decodeFailedPayload', () => {
  it('sends the report only for a bug', () => {
    expect(decodeFailedPayload(3, 'a.pickle', { message: 'not a memory snapshot' })).toEqual({
      jobId: 3,
      fileName: 'a.pickle',
      message: 'not a memory snapshot',
    });
    expect(
      decodeFailedPayload(3, 'a.pickle', { message: 'internal error: boom', bugReport: 'stack' }),
    ).toEqual({
      jobId: 3,
      fileName: 'a.pickle',
      message: 'internal error: boom',
      bugReport: 'stack',
    });
  });

  it('clips texts too long for the schema instead of throwing in main', () => {
    const payload = decodeFailedPayload(1, 'a.pickle', {
      message: 'internal error: ' + 'x'.repeat(2 * MAX_FAILURE_MESSAGE_LENGTH),
      bugReport: 'y'.repeat(2 * MAX_BUG_REPORT_LENGTH),
    });
    expect(payload.message).toHaveLength(MAX_FAILURE_MESSAGE_LENGTH);
    expect(payload.message.endsWith(' […]')).toBe(true);
    expect(payload.bugReport).toHaveLength(MAX_BUG_REPORT_LENGTH);
    expect(decodeFailedPayload(1, 'a.pickle', { message: '' }).message).toBe('unknown error');
  });
});

describe('clipText', () => {
  it('keeps short texts and marks cut ones', () => {
    expect(clipText('abc', 3)).toBe('abc');
    expect(clipText('abcdefghij', 8)).toBe('abcd […]');
  });
});
