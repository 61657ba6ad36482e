// `--jobs N` (issue 25): the built command decodes an uncompressed pickle in parts on worker
// threads. Whatever N, every figure, every document and every refusal is the one thread's: the
// summary JSON and the top table of real snapshots and of a generated file of two devices read
// the same at 1, 2 and 7 threads (the decoder's own tests split at 2, 3 and 7), and --timings says how many threads decoded it.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import { runCli } from '../support/cli';
import { realSnapshotPath } from '../support/real-snapshots';

let directory = '';
let generated = '';

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'allocscope-jobs-'));
  generated = join(directory, 'two-devices.pickle');
  generateLargeSnapshot(generated, 3_000_000, { seed: 25 });
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function decodeThreads(stderr: string): number {
  const line = stderr.split('\n').find((text) => text.startsWith('allocscope-timings '));
  return (JSON.parse(line!.slice('allocscope-timings '.length)) as { decode_threads: number })
    .decode_threads;
}

describe('--jobs', () => {
  it.each([
    ['a real snapshot', () => realSnapshotPath('LINYUN')],
    ['a generated snapshot of two devices', () => generated],
  ])('gives the same summary and top on 1, 2 and 7 threads (%s)', (_name, pathOf) => {
    const path = pathOf();
    const one = runCli(['summary', path, '--json', '--jobs', '1', '--timings']);
    expect(one.status).toBe(0);
    expect(decodeThreads(one.stderr)).toBe(1);
    const top = runCli(['top', path, '--json', '--jobs', '1']).stdout;
    for (const jobs of ['2', '7']) {
      const run = runCli(['summary', path, '--json', '--jobs', jobs, '--timings']);
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(one.stdout);
      // The plan may make fewer parts than asked (a part begins at a trace entry past a frame).
      expect(decodeThreads(run.stderr)).toBeGreaterThan(1);
      expect(decodeThreads(run.stderr)).toBeLessThanOrEqual(Number(jobs));
      expect(runCli(['top', path, '--json', '--jobs', jobs]).stdout).toBe(top);
    }
  });

  it('refuses a damaged file in the same words on any number of threads', () => {
    // A trace entry's size turned into a string, past the middle (inside the second part).
    const bytes = new Uint8Array(readFileSync(realSnapshotPath('LINYUN')));
    const damaged = bytes.slice();
    const at = damaged.indexOf(0x4a, Math.floor(bytes.length * 0.7)); // BININT
    damaged[at] = 0x8c; // SHORT_BINUNICODE with a length byte from the int
    const path = join(directory, 'damaged.pickle');
    writeFileSync(path, damaged);
    const one = runCli(['summary', path, '--jobs', '1']);
    expect(one.status).toBe(2);
    for (const jobs of ['2', '7']) {
      const run = runCli(['summary', path, '--jobs', jobs]);
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(one.stderr);
    }
  });

  it('is refused when it is not a number of threads', () => {
    for (const value of ['0', '65', 'two']) {
      const run = runCli(['summary', realSnapshotPath('LINYUN'), '--jobs', value]);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/--jobs/);
    }
  });
});
