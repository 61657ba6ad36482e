// `allocscope ranks` on eight generated ranks of one job, one of them keeping 96 MiB more every
// step (a planted leak) beside seven flat ones: its peak is no outlier, its growth is. The rank is
// named, with its growth per step within 1% of what was planted, in the text and in --json; the
// growth of each rank is the slope `steps` fits for that file.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import type { RanksDocument } from '../../src/shared/report/ranks-document';
import { runCli } from '../support/cli';

const MiB = 2 ** 20;
const LEAK = 96 * MiB;
const LEAKING = 3;
const directory = mkdtempSync(join(tmpdir(), 'allocscope-ranks-growth-'));
const folder = join(directory, 'job');

beforeAll(() => {
  mkdirSync(folder);
  for (let rank = 0; rank < 8; rank++)
    generateLargeSnapshot(join(folder, `rank_${rank}.pickle`), 3_000_000, {
      seed: 40 + rank,
      devices: 1,
      maxAnnotations: 100_000,
      leakBytesPerStep: rank === LEAKING ? LEAK : 0,
    });
}, 180_000);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('ranks with one leaking', () => {
  it(
    'names the leaking rank and its growth per step, in --json and the text',
    { timeout: 300_000 },
    () => {
      const run = runCli(['ranks', folder, '--json']);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const document = JSON.parse(run.stdout) as RanksDocument;
      expect(document.ranks).toHaveLength(8);
      for (const entry of document.ranks) {
        // Each rank's growth is what `steps` reports for its file.
        const steps = JSON.parse(runCli(['steps', join(folder, entry.file), '--json']).stdout) as {
          steps: unknown[];
          growth_bytes_per_step: number;
        };
        expect(steps.steps.length, entry.file).toBeGreaterThanOrEqual(3);
        expect(entry.growth_bytes_per_step, entry.file).toBe(steps.growth_bytes_per_step);
      }
      const leaking = document.ranks[LEAKING]!;
      expect(Math.abs(leaking.growth_bytes_per_step! - LEAK) / LEAK).toBeLessThan(0.01);
      expect(document.growth_outliers).toEqual([LEAKING]);
      expect(document.outliers).toContain(LEAKING);
      // The planted rank's peak alone would not name it: its growth does.
      expect(document.peak_outliers).not.toContain(LEAKING);
      for (const entry of document.ranks)
        if (entry.rank !== LEAKING)
          expect(Math.abs(entry.growth_bytes_per_step!)).toBeLessThan(MiB);

      const text = runCli(['ranks', folder]);
      expect(text.status).toBe(0);
      const growth = (leaking.growth_bytes_per_step! / MiB).toFixed(1);
      expect(text.stdout).toContain(
        `growing step after step beside the others: rank ${LEAKING} (+${growth} MiB per step)`,
      );
      const row = text.stdout
        .split('\n')
        .find((line) => line.trimStart().startsWith(`${LEAKING} `))!;
      expect(row, row).toMatch(
        new RegExp(`\\+${growth.replace('.', '\\.')} MiB +cuda:0 +([A-Za-z]+, )*grows`),
      );
    },
  );
});
