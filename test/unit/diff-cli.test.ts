// `allocscope diff A B` (src/shared/compare, report/diff-document.ts, cli/run-diff.ts): a snapshot
// against itself is all zeros; between real snapshots the peak deltas equal the difference of the
// independent Python summaries' peaks, and the groups' deltas (with those past --limit) add up to
// the difference of the peaks; across devices of one file too; and between a clean generated run
// and the same run with a planted leak, the leak's stack is the largest change.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import { parseCliOptions, type DiffCliOptions } from '../../src/cli/cli-options';
import { runDiff } from '../../src/cli/run-diff';
import type { DiffDocument } from '../../src/shared/report/diff-document';
import { realSnapshotPath, realSnapshotPaths } from '../support/real-snapshots';
import { referenceSummary } from '../support/summarize';
import { runCli } from '../support/cli';

async function diff(...args: string[]): Promise<DiffDocument> {
  const options = parseCliOptions(['diff', ...args, '--json']) as DiffCliOptions;
  return JSON.parse(await runDiff(options)) as DiffDocument;
}

interface ReferenceDevice {
  device: number;
  active_bytes: { peak: number };
  reserved_bytes: { peak: number };
}

function referencePeaks(path: string, device: number): ReferenceDevice {
  const devices = referenceSummary(path, 0)['devices'] as ReferenceDevice[];
  return devices.find((candidate) => candidate.device === device)!;
}

/** Every group's delta, those past --limit included. */
const deltaSum = (document: DiffDocument): number =>
  document.groups.reduce((sum, group) => sum + group.delta_bytes, 0) +
  document.omitted_groups.delta_bytes;

/** The real snapshots with a device (one is a degenerate file with none: diff refuses it). */
const paths = realSnapshotPaths().filter(
  (path) => (referenceSummary(path, 0)['devices'] as unknown[]).length > 0,
);
const deviceless = realSnapshotPaths().filter((path) => !paths.includes(path));

describe('allocscope diff', () => {
  it.each(paths)('of %s with itself is all zeros', async (path) => {
    const document = await diff(path, path, '--limit', '1000000');
    expect(document.delta).toEqual({
      peak_active_bytes: 0,
      peak_reserved_bytes: 0,
      active_bytes: 0,
    });
    for (const group of document.groups) {
      expect(group.delta_bytes, group.key).toBe(0);
      expect(group.change).toBe('same');
    }
    expect(document.verdict).toMatch(/^A and B hold the same/);
  });

  it.each(paths.map((path, i) => [path, paths[(i + 1) % paths.length]!]))(
    '%s against the next real snapshot: peaks as the summaries say, groups adding up',
    async (a, b) => {
      const document = await diff(a, b, '--limit', '5');
      const refA = referencePeaks(a, document.a.device);
      const refB = referencePeaks(b, document.b.device);
      expect(document.delta.peak_active_bytes).toBe(
        refB.active_bytes.peak - refA.active_bytes.peak,
      );
      expect(document.delta.peak_reserved_bytes).toBe(
        refB.reserved_bytes.peak - refA.reserved_bytes.peak,
      );
      // At the peaks the moments' active bytes are the peaks, and the groups hold all of them.
      expect(document.a.moment.active_bytes).toBe(refA.active_bytes.peak);
      expect(document.b.moment.active_bytes).toBe(refB.active_bytes.peak);
      expect(deltaSum(document)).toBe(document.delta.peak_active_bytes);
      expect(document.groups.length).toBeLessThanOrEqual(5);
    },
  );

  it.each(deviceless)('stops at %s, which has no device, naming it', async (path) => {
    // Not bad input (src/cli/no-devices.ts): the CLI says so and exits 0 (cli-wording.test.ts).
    await expect(diff(path, paths[0]!)).rejects.toThrow(
      /: no devices: the snapshot has no segments/,
    );
  });

  it('compares two devices of one file', async () => {
    const path = realSnapshotPath('Constructor-Sun');
    const document = await diff(path, path, '--device', '0', '--device-b', '2');
    expect([document.a.device, document.b.device]).toEqual([0, 2]);
    expect(document.delta.peak_active_bytes).toBe(
      referencePeaks(path, 2).active_bytes.peak - referencePeaks(path, 0).active_bytes.peak,
    );
    expect(deltaSum(document)).toBe(document.delta.peak_active_bytes);
  });

  it('names the planted leak as the largest change between a clean run and a leaking one', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'allocscope-diff-'));
    try {
      const leak = 64 * 2 ** 20;
      const clean = join(directory, 'clean.pickle');
      const leaking = join(directory, 'leak.pickle');
      const options = { seed: 5, devices: 1, maxAnnotations: 0 };
      generateLargeSnapshot(clean, 3_000_000, options);
      generateLargeSnapshot(leaking, 3_000_000, { ...options, leakBytesPerStep: leak });
      const document = await diff(clean, leaking, '--moment', 'final');
      const top = document.groups[0]!;
      expect(top.key).toBe('nanogpt/train.py:88 train_step');
      expect(top.change).toBe('appeared');
      expect(top.a_bytes).toBe(0);
      expect(top.b_bytes % leak).toBe(0);
      expect(top.b_allocations).toBe(top.b_bytes / leak);
      expect(document.verdict).toContain('from nanogpt/train.py:88 train_step');
      expect(deltaSum(document)).toBe(document.delta.active_bytes);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('names the file it cannot read, with exit status 2', () => {
    const run = runCli(['diff', realSnapshotPath('a0kuma'), '/etc/hostname']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^allocscope: hostname: not a memory snapshot/);
    const usage = runCli(['diff', realSnapshotPath('a0kuma')]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('diff takes two FILEs (A B)');
  });
});
