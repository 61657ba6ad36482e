// `allocscope ranks` (built command: it reads in worker threads): a folder of 8 generated ranks,
// one leaking (a planted outlier): every rank's figures equal its own `summary`, the ranks come
// from the names (not the order on disk), the outlier and the highest rank are named, the skew is
// the highest peak over the median; an unreadable file is left out and named; rank names parse.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipUnpackedBytes } from '../../src/cli/run-ranks';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import { orderRanks, rankOfFileName } from '../../src/shared/compare/ranks';
import type { RanksDocument } from '../../src/shared/report/ranks-document';
import { runCli } from '../support/cli';
import { referenceStates } from '../support/state-reference';
import { summarizeFile } from '../support/summarize';

const directory = mkdtempSync(join(tmpdir(), 'allocscope-ranks-'));
const folder = join(directory, 'job');
const OUTLIER = 5;

beforeAll(() => {
  mkdirSync(folder);
  const options = { seed: 21, devices: 1, maxAnnotations: 0 };
  const clean = join(directory, 'clean.pickle');
  generateLargeSnapshot(clean, 1_500_000, options);
  // Names in an order the disk and the alphabet do not keep (rank 10 after rank 9).
  for (const rank of [0, 1, 2, 3, 4, 6, 7, 10])
    copyFileSync(clean, join(folder, `snapshot_rank_${rank}.pickle`));
  generateLargeSnapshot(join(folder, `snapshot_rank_${OUTLIER}.pickle`), 1_500_000, {
    ...options,
    leakBytesPerStep: 768 * 2 ** 20,
  });
  rmSync(join(folder, 'snapshot_rank_10.pickle'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('allocscope ranks', () => {
  it('reads a folder of ranks in parallel and names the outlier', async () => {
    const run = runCli(['ranks', folder, '--json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const document = JSON.parse(run.stdout) as RanksDocument;
    expect(document.schema).toBe('allocscope.ranks/1');
    expect(document.ranks.map((entry) => entry.rank)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(document.workers).toBeGreaterThanOrEqual(1);
    expect(document.wall_ms).toBeGreaterThan(0);
    for (const entry of document.ranks) {
      const summary = await summarizeFile(join(folder, entry.file));
      const device = summary.devices.find((candidate) => candidate.device === entry.device)!;
      expect(entry.peak_active_bytes, entry.file).toBe(device.active_bytes.peak);
      expect(entry.peak_reserved_bytes, entry.file).toBe(device.reserved_bytes!.peak);
      expect(entry.oom, entry.file).toBe(device.oom.length > 0);
      expect(entry.oom_event).toBe(device.oom[0]?.event_index ?? null);
      expect(entry.trace_entries).toBe(device.trace_entries);
    }
    // The allocator at each rank's peak, against the independent Python reconstruction (two
    // ranks: the leaking one and a clean one); the steps as `steps` finds them.
    for (const entry of [document.ranks[0]!, document.ranks[OUTLIER]!]) {
      const [reference] = referenceStates(join(folder, entry.file), entry.device, [
        entry.peak_event,
      ]);
      expect(entry.cached_free_at_peak_bytes, entry.file).toBe(reference!.cached_free);
      expect(entry.largest_free_at_peak_bytes, entry.file).toBe(reference!.largest_free);
      expect(entry.free_blocks_at_peak, entry.file).toBe(reference!.free_blocks);
      expect(reference!.active, entry.file).toBe(entry.peak_active_bytes);
      const steps = JSON.parse(runCli(['steps', join(folder, entry.file), '--json']).stdout) as {
        source: string | null;
        steps: unknown[];
      };
      expect(entry.steps).toBe(steps.steps.length);
      expect(entry.steps_source).toBe(steps.source);
    }
    expect(document.ranks[0]!.steps).toBeGreaterThan(2);
    expect(document.outliers).toEqual([OUTLIER]);
    expect(document.highest_rank).toBe(OUTLIER);
    const peaks = document.ranks.map((entry) => entry.peak_active_bytes);
    const others = peaks.filter((_, rank) => rank !== OUTLIER);
    // Seven alike and one higher: the median is theirs.
    expect(new Set(others).size).toBe(1);
    expect(document.median_peak_active_bytes).toBe(others[0]);
    expect(document.skew).toBeCloseTo(Math.max(...peaks) / others[0]!, 3);

    const text = runCli(['ranks', folder]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^8 ranks, read in \d+ (worker threads|thread) in \d+\.\d\d s/);
    expect(text.stdout).toContain(`outliers: rank ${OUTLIER};`);
  });

  it('leaves out a file it cannot read, naming it, and reports the others', () => {
    const mixed = join(directory, 'mixed');
    mkdirSync(mixed);
    copyFileSync(join(folder, 'snapshot_rank_0.pickle'), join(mixed, 'rank0.pickle'));
    copyFileSync(join(folder, 'snapshot_rank_1.pickle'), join(mixed, 'rank1.pickle'));
    writeFileSync(join(mixed, 'rank2.pickle'), 'not a pickle');
    const run = runCli(['ranks', mixed, '--json']);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(
      /^allocscope: rank2\.pickle: not a memory snapshot.*\(left out\)\n$/,
    );
    const document = JSON.parse(run.stdout) as RanksDocument;
    expect(document.ranks.map((entry) => entry.rank)).toEqual([0, 1]);
    expect(document.refused.map((entry) => entry.file)).toEqual(['rank2.pickle']);
    // Nothing readable, or fewer than two files: a usage error.
    expect(runCli(['ranks', join(mixed, 'rank2.pickle'), join(mixed, 'rank2.pickle')]).status).toBe(
      2,
    );
    expect(runCli(['ranks', join(mixed, 'rank0.pickle')]).stderr).toContain(
      'two snapshots or more',
    );
  });
});

describe('rank names', () => {
  it('reads the rank from the usual names', () => {
    expect(rankOfFileName('rank3.pickle')).toBe(3);
    expect(rankOfFileName('snapshot_rank_12.pickle')).toBe(12);
    expect(rankOfFileName('mem_rank-4_step100.pkl')).toBe(4);
    expect(rankOfFileName('snapshot_r7.pickle.gz')).toBe(7);
    expect(rankOfFileName('gpu_2.pickle')).toBe(2);
    expect(rankOfFileName('memory.pickle')).toBeNull();
  });

  it('falls back to name order when the names do not give distinct ranks', () => {
    expect(orderRanks(['b.pickle', 'a10.pickle', 'a9.pickle'])).toEqual([
      { name: 'a9.pickle', rank: 0 },
      { name: 'a10.pickle', rank: 1 },
      { name: 'b.pickle', rank: 2 },
    ]);
    expect(orderRanks(['rank10.pickle', 'rank2.pickle'])).toEqual([
      { name: 'rank2.pickle', rank: 2 },
      { name: 'rank10.pickle', rank: 10 },
    ]);
  });
});

describe('gzipUnpackedBytes', () => {
  it("reads a gzip file's unpacked size from its trailer, and nothing from other files", () => {
    const packed = join(directory, 'rank0.pickle.gz');
    const content = new Uint8Array(300_000).map((_, i) => i % 7);
    writeFileSync(packed, gzipSync(content));
    expect(gzipUnpackedBytes(packed)).toBe(content.length);
    const plain = join(directory, 'rank0.pickle');
    writeFileSync(plain, content);
    expect(gzipUnpackedBytes(plain)).toBeNull();
    const fake = join(directory, 'fake.pickle.gz');
    writeFileSync(fake, content);
    expect(gzipUnpackedBytes(fake)).toBeNull();
  });
});
