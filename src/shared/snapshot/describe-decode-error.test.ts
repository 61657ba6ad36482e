import { describe, expect, it } from 'vitest';
import { PickleError } from '../pickle/pickle-error';
import { classifyDecodeError, describeDecodeError } from './describe-decode-error';
import { SnapshotFormatError } from './snapshot-error';

describe('describeDecodeError', () => {
  it('keeps our own messages and puts system errors in plain words', () => {
    expect(describeDecodeError(new PickleError('truncated', 12))).toBe('truncated (at byte 12)');
    expect(describeDecodeError(new SnapshotFormatError('not a snapshot'))).toBe('not a snapshot');
    expect(describeDecodeError(new SnapshotFormatError('bad size', 'segments[3].size'))).toBe(
      'bad size (at segments[3].size)',
    );
    expect(describeDecodeError(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(
      'no such file',
    );
    expect(describeDecodeError(Object.assign(new Error('x'), { code: 'EISDIR' }))).toBe(
      'is a directory, not a snapshot file',
    );
    expect(describeDecodeError(new DOMException('gone', 'NotReadableError'))).toMatch(
      /could not be read/,
    );
    expect(describeDecodeError(new RangeError('Array buffer allocation failed'))).toBe(
      'not enough memory to decode this file (Array buffer allocation failed)',
    );
  });

  it('calls anything else an internal error, with a report that carries the stack', () => {
    const bug = classifyDecodeError(
      new TypeError("Cannot read properties of undefined (reading '0')"),
    );
    expect(bug.kind).toBe('bug');
    expect(bug.message).toBe("internal error: Cannot read properties of undefined (reading '0')");
    expect(bug.kind === 'bug' && bug.report).toMatch(
      /^allocscope internal error\nTypeError: .*\n\s+at /,
    );
    expect(classifyDecodeError(new Error('')).message).toBe('internal error: unknown error');
    expect(classifyDecodeError('plain')).toMatchObject({
      kind: 'bug',
      message: 'internal error: plain',
    });
    expect(classifyDecodeError(new RangeError('Invalid array length')).kind).toBe('bug');
  });
});
