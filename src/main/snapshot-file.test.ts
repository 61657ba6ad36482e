import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnreadableInputError } from '@shared/errors/unreadable-input';
import { snapshotFileSize } from './snapshot-file';

let directory = '';
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'allocscope-snapshot-file-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('snapshotFileSize', () => {
  it('gives the size of a regular file', async () => {
    const path = join(directory, 'run.pickle');
    await writeFile(path, new Uint8Array(1234));
    expect(await snapshotFileSize(path)).toBe(1234);
  });

  it('refuses a directory as unreadable input', async () => {
    await expect(snapshotFileSize(directory)).rejects.toThrow(
      new UnreadableInputError('is a directory, not a snapshot file'),
    );
  });

  // Opening a FIFO blocks until a writer comes: it must be refused from its stat alone.
  it.skipIf(process.platform === 'win32')('refuses a named pipe without opening it', async () => {
    const path = join(directory, 'pipe.pickle');
    execFileSync('mkfifo', [path]);
    const refusal = await snapshotFileSize(path).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UnreadableInputError);
    expect((refusal as Error).message).toBe('is a named pipe (FIFO), not a regular file');
  });
});
