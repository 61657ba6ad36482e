import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnreadableInputError } from '@shared/errors/unreadable-input';
import { assertRegularFile, type FileKind } from './regular-file';

/** A stat that answers true for one kind only. */
function kind(which: keyof FileKind | null): FileKind {
  const answer = (name: keyof FileKind) => () => name === which;
  return {
    isFile: answer('isFile'),
    isDirectory: answer('isDirectory'),
    isFIFO: answer('isFIFO'),
    isSocket: answer('isSocket'),
    isCharacterDevice: answer('isCharacterDevice'),
    isBlockDevice: answer('isBlockDevice'),
  };
}

function refusal(info: FileKind): unknown {
  try {
    assertRegularFile(info);
  } catch (error) {
    return error;
  }
  return null;
}

describe('assertRegularFile', () => {
  it('lets a regular file through', () => {
    expect(refusal(kind('isFile'))).toBeNull();
    const directory = mkdtempSync(join(tmpdir(), 'allocscope-regular-'));
    try {
      const path = join(directory, 'run.pickle');
      writeFileSync(path, 'x');
      expect(refusal(statSync(path))).toBeNull();
      expect(refusal(statSync(directory))).toBeInstanceOf(UnreadableInputError);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('refuses everything else as unreadable input, saying what it is', () => {
    const cases: [keyof FileKind | null, string][] = [
      ['isDirectory', 'is a directory, not a snapshot file'],
      ['isFIFO', 'is a named pipe (FIFO), not a regular file'],
      ['isSocket', 'is a socket, not a regular file'],
      ['isCharacterDevice', 'is a device, not a regular file'],
      ['isBlockDevice', 'is a device, not a regular file'],
      [null, 'is a special file, not a regular file'],
    ];
    for (const [which, message] of cases) {
      const error = refusal(kind(which));
      expect(error).toBeInstanceOf(UnreadableInputError);
      expect((error as Error).message).toBe(message);
    }
  });
});
