import { describe, expect, it } from 'vitest';
import { composeBugReport, type BugReportFacts } from './bug-report';

const facts: BugReportFacts = {
  appVersion: '0.1.0',
  host: 'web',
  userAgent: 'Mozilla/5.0 Chrome/140.0',
  fileName: 'run.pickle',
  fileBytes: 1_234_567,
  message: "internal error: Cannot read properties of undefined (reading 'size')",
  report:
    'allocscope internal error\nTypeError: Cannot read properties of undefined\n    at decode (worker.js:1:2)\n',
};

describe('composeBugReport', () => {
  it('names the build, the file and its size, then gives the stack', () => {
    expect(composeBugReport(facts)).toBe(
      [
        'allocscope 0.1.0 (web page)',
        'User agent: Mozilla/5.0 Chrome/140.0',
        'File: run.pickle (1,234,567 bytes)',
        "Message: internal error: Cannot read properties of undefined (reading 'size')",
        '',
        'allocscope internal error',
        'TypeError: Cannot read properties of undefined',
        '    at decode (worker.js:1:2)',
        '',
      ].join('\n'),
    );
  });

  it('says what it does not know', () => {
    const text = composeBugReport({
      ...facts,
      appVersion: null,
      host: 'electron',
      userAgent: null,
      fileBytes: null,
    });
    expect(text.split('\n').slice(0, 3)).toEqual([
      'allocscope version unknown (desktop app)',
      'File: run.pickle (size unknown)',
      "Message: internal error: Cannot read properties of undefined (reading 'size')",
    ]);
  });
});
