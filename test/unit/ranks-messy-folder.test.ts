// `allocscope ranks DIR` on the folders people have: beside the snapshots, a symbolic link that
// loops, one that leads nowhere, a FIFO, a folder named like a snapshot. Each is left out with one
// line naming it and the rest are read (a loop aborted the whole command); and many small ranks
// read in worker threads leave stderr empty (500 files printed MaxListenersExceededWarning).

import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RanksDocument } from '../../src/shared/report/ranks-document';
import { runCli } from '../support/cli';
import { tinySnapshot } from '../support/hostile-files';

const tmp = mkdtempSync(join(tmpdir(), 'allocscope-messy-ranks-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const snapshot = tinySnapshot();

function folderOfRanks(name: string, ranks: number): string {
  const folder = join(tmp, name);
  mkdirSync(folder);
  for (let rank = 0; rank < ranks; rank++)
    writeFileSync(join(folder, `rank${rank}.pickle`), snapshot);
  return folder;
}

describe('allocscope ranks on a messy folder', () => {
  it('leaves out a link loop, a dangling link, a FIFO and a folder, naming each, and reads the rest', () => {
    const folder = folderOfRanks('messy', 3);
    symlinkSync('loop.pickle', join(folder, 'loop.pickle'));
    symlinkSync('nowhere.pickle', join(folder, 'dangling.pickle'));
    execFileSync('mkfifo', [join(folder, 'fifo.pickle')]);
    mkdirSync(join(folder, 'sub.pickle'));
    const run = runCli(['ranks', folder, '--json']);
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as RanksDocument;
    // The ranks are the files' (the left-out entries take no rank number).
    expect(document.ranks.map((entry) => [entry.rank, entry.file])).toEqual([
      [0, 'rank0.pickle'],
      [1, 'rank1.pickle'],
      [2, 'rank2.pickle'],
    ]);
    const leftOut = {
      'dangling.pickle': 'a symbolic link to a missing file',
      'fifo.pickle': 'is a named pipe (FIFO), not a regular file',
      'loop.pickle': 'too many symbolic links in the path',
      'sub.pickle': 'is a directory, not a snapshot file',
    };
    expect(
      Object.fromEntries(document.refused.map((entry) => [entry.file, entry.message])),
    ).toEqual(leftOut);
    expect(run.stderr.split('\n').sort()).toEqual(
      [
        '',
        ...Object.entries(leftOut).map(
          ([file, message]) => `allocscope: ${file}: ${message} (left out)`,
        ),
      ].sort(),
    );
  });

  it.skipIf(process.getuid?.() === 0)('leaves out a file it may not read', () => {
    const folder = folderOfRanks('denied', 3);
    chmodSync(join(folder, 'rank2.pickle'), 0);
    const run = runCli(['ranks', folder, '--json']);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('allocscope: rank2.pickle: permission denied (left out)\n');
  });

  // 500 files warned (Node warns at the 11th listener on one emitter); twelve files a worker are
  // enough to show it, and keep the test short on any number of cores.
  const manyFiles = 12 * availableParallelism();
  it.skipIf(availableParallelism() < 2)(
    `reads ${manyFiles} small ranks in worker threads with nothing on stderr`,
    () => {
      const folder = folderOfRanks('many', manyFiles);
      const run = runCli(['ranks', folder, '--json']);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const document = JSON.parse(run.stdout) as RanksDocument;
      expect(document.ranks).toHaveLength(manyFiles);
      expect(document.workers).toBeGreaterThan(1);
    },
  );
});
