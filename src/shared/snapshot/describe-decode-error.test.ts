import { describe, expect, it } from 'vitest';
import { PickleError } from '../pickle/pickle-error';
import { describeDecodeError } from './describe-decode-error';
import { SnapshotFormatError } from './snapshot-error';

describe('describeDecodeError', () => {
  it('keeps our own messages and puts system errors in plain words', () => {
    expect(describeDecodeError(new PickleError('truncated', 12))).toBe('truncated (at byte 12)');
    expect(describeDecodeError(new SnapshotFormatError('not a snapshot'))).toBe('not a snapshot');
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
      'could not decode: Array buffer allocation failed',
    );
    expect(describeDecodeError(new Error(''))).toBe('unknown error');
    expect(describeDecodeError('plain')).toBe('plain');
  });
});
