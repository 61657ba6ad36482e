// The fuzz suite in `npm test`: a few thousand mutated snapshots, every mutator class in turn,
// each through the oracle (see oracle.ts). A defect fails its class's test, naming the case, the
// message and the repro file saved under test/fuzz/findings/. The long campaign is
// `npm run fuzz -- --cases 100000` (scripts/fuzz.ts).
//
// The cases run in the campaign runner, built as `npm run fuzz` builds it, not in this process:
// vitest's module transform makes the decoder's inner loops ~28x slower than the shipped bundle
// (one gzip-members case: 6 s bundled, 170 s under vitest), so the oracle's time limits would
// judge the test harness, not the product. The runner also puts the cases on both cores and
// keeps a crash or a hang inside one worker process.
//
// FUZZ_CASES (default 1400: 70 per mutator; the suite must run in 30 minutes, and the 100,000-case
// campaigns are the real check), FUZZ_SEED (default 1) and FUZZ_JOBS (default 2)
// override the size, the seed and the worker processes.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MUTATOR_NAMES } from './mutators';
import type { CampaignResult } from './runner';

const CASES = Number(process.env.FUZZ_CASES ?? 1400);
const RUN_SEED = Number(process.env.FUZZ_SEED ?? 1);
const JOBS = Number(process.env.FUZZ_JOBS ?? 2);
const ROOT = resolve(import.meta.dirname, '../..');
// Two folders below the root, as out/fuzz/ is: the bundle finds the repo from its own place.
const BUNDLE_DIR = join(ROOT, 'out/fuzz-suite');

let result: CampaignResult | null = null;
let runLog = '';
const scratch = mkdtempSync(join(tmpdir(), 'allocscope-fuzz-'));

function runCampaign(): Promise<void> {
  const json = join(scratch, 'result.json');
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [
        join(BUNDLE_DIR, 'fuzz.js'),
        ...['--profile', 'quick', '--cases', String(CASES), '--seed', String(RUN_SEED)],
        ...['--jobs', String(JOBS), '--json', json],
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.on('data', (data: Buffer) => (runLog += data.toString()));
    child.stderr.on('data', (data: Buffer) => (runLog += data.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      // 0: no defect, 1: defects (each class's test names its own); anything else: it broke.
      if (code !== 0 && code !== 1) {
        fail(new Error(`the fuzz runner exited ${code}:\n${runLog}`));
        return;
      }
      result = JSON.parse(readFileSync(json, 'utf8')) as CampaignResult;
      done();
    });
  });
}

beforeAll(async () => {
  const build = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      ...['--config', 'test/fuzz/build.config.ts', '--outDir', BUNDLE_DIR, '--logLevel', 'error'],
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`building the fuzz runner failed:\n${build.stderr}`);
  await runCampaign();
}, 1_500_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('fuzz: the decoder opens or refuses cleanly, whatever the input', () => {
  it('ran every case it was asked for', () => {
    expect(result?.cases, runLog).toBe(CASES);
    expect(result?.seed).toBe(RUN_SEED);
  });

  for (const mutator of MUTATOR_NAMES) {
    it(`survives ${mutator}`, () => {
      const tally = result!.perClass[mutator]!;
      expect(tally.cases).toBeGreaterThan(0);
      const problems = result!.defects
        .filter((defect) => defect.mutators.includes(mutator))
        .map(
          (defect) =>
            `${defect.check}: ${defect.message} (${defect.count} case(s); first: case ${defect.first.index}, ${defect.first.note}; seed ${defect.first.seed})\n` +
            `    replay: ${defect.replay}${defect.file === null ? '' : `\n    repro: ${defect.file}`}`,
        );
      expect(problems, problems.join('\n')).toEqual([]);
    });
  }
});
