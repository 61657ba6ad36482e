import { describe, expect, it } from 'vitest';
import { describeWorkerCrash } from './worker-crash';

describe('describeWorkerCrash', () => {
  it("names the event's message and where it was thrown", () => {
    expect(
      describeWorkerCrash({
        message: "Uncaught TypeError: Cannot read properties of null (reading 'x')",
        filename: 'blob:http://127.0.0.1/1234',
        lineno: 12,
        colno: 7,
        error: null,
      }),
    ).toEqual({
      message:
        "the decoder stopped unexpectedly (Uncaught TypeError: Cannot read properties of null (reading 'x'))",
      bugReport: [
        'allocscope internal error',
        "the decoder stopped unexpectedly (Uncaught TypeError: Cannot read properties of null (reading 'x'))",
        '    at blob:http://127.0.0.1/1234:12:7',
      ].join('\n'),
    });
  });

  it('says what it can of an event with nothing in it', () => {
    expect(describeWorkerCrash({})).toEqual({
      message: 'the decoder stopped unexpectedly',
      bugReport: 'allocscope internal error\nthe decoder stopped unexpectedly',
    });
  });

  it("uses the error's own stack when the event carries it", () => {
    const error = new TypeError('boom');
    const crash = describeWorkerCrash({ message: 'Uncaught TypeError: boom', error });
    expect(crash.message).toBe('the decoder stopped unexpectedly (Uncaught TypeError: boom)');
    expect(crash.bugReport).toContain('TypeError: boom');
    expect(crash.bugReport).toContain('worker-crash.test.ts');
  });
});
