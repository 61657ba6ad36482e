// `allocscope ranks` on a folder where one rank is a list bomb (issue 20, item 1: a gzip whose
// list of NONE made V8 abort, taking the whole command down with no output at all): that file is
// left out and named, the others are reported, and the command stays within bounds.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { RanksDocument } from '../../src/shared/report/ranks-document';
import { runCli } from '../support/cli';
import { noneListBomb, tinySnapshot } from '../support/hostile-files';

const directory = mkdtempSync(join(tmpdir(), 'allocscope-ranks-hostile-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('allocscope ranks with a hostile rank', () => {
  it('leaves the list bomb out, naming it, and reports the other ranks', () => {
    const folder = join(directory, 'job');
    mkdirSync(folder);
    writeFileSync(join(folder, 'rank0.pickle'), tinySnapshot());
    writeFileSync(join(folder, 'rank1.pickle.gz'), gzipSync(noneListBomb(200), { level: 9 }));
    writeFileSync(join(folder, 'rank2.pickle'), tinySnapshot());
    const started = Date.now();
    const run = runCli(['ranks', folder, '--json']);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe(
      'allocscope: rank1.pickle.gz: more items in lists, dicts and tuples than a memory snapshot holds (past the first 1,048,576, a snapshot takes 2 bytes or more of file for each) (at byte 1100024) (left out)\n',
    );
    const document = JSON.parse(run.stdout) as RanksDocument;
    expect(document.ranks.map((entry) => entry.rank)).toEqual([0, 2]);
    // The small snapshot: 1,000,000 bytes allocated, then 500,000 more for a while.
    expect(document.ranks.map((entry) => entry.peak_active_bytes)).toEqual([1_500_000, 1_500_000]);
    expect(document.refused.map((entry) => entry.file)).toEqual(['rank1.pickle.gz']);

    const text = runCli(['ranks', folder]);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('left out (unreadable): rank1.pickle.gz');
  });
});
