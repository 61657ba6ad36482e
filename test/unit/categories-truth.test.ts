// The built-in category rules against the truth: generated training runs (two seeds, one with an
// OOM) whose workload knows what each allocation is — the parameters built on the GPU or moved
// there, AccumulateGrad's gradients, AdamW's state, the activations saved in forward, temporaries
// and autograd's other buffers. At least 95% of the bytes of the allocations with a recorded stack
// are classified right, over the whole trace and among those alive at the active peak; and a
// rules file that overrides one category takes effect.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  generateLargeSnapshot,
  type DeviceTruth,
} from '../../generators/snapshot/generate-large-snapshot';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { CATEGORIES } from '../../src/shared/holders/categories';
import {
  DEFAULT_CATEGORY_RULES,
  type CategoryRules,
} from '../../src/shared/holders/category-rules';
import { categoriesOf, categoryAt } from '../../src/shared/holders/classify';
import { analyzeBytes } from '../support/analyzed';

const directory = mkdtempSync(join(tmpdir(), 'allocscope-truth-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

interface Generated {
  snapshot: AnalyzedSnapshot;
  truth: DeviceTruth[];
}

async function generate(seed: number): Promise<Generated> {
  const path = join(directory, `train-${seed}.pickle`);
  const result = generateLargeSnapshot(path, 4_000_000, { seed, devices: 2, truth: true });
  const snapshot = await analyzeBytes(new Uint8Array(readFileSync(path)));
  return { snapshot, truth: result.truth! };
}

/** The true category of each allocation row, or null where the generator cannot say. */
function trueCategories(device: AnalyzedDevice, truth: DeviceTruth): (string | null)[] {
  const table = device.allocations;
  return Array.from({ length: table.count }, (_, row) => {
    const start = table.startEvent[row]!;
    if (start >= 0) return truth.entryCategories[start] ?? null;
    // Made before the trace: known when still allocated at the end (a block of the segments).
    return table.endEvent[row]! >= device.traceLength
      ? (truth.blockCategories.get(table.address[row]!) ?? null)
      : null;
  });
}

interface Score {
  rightBytes: number;
  totalBytes: number;
  /** Bytes by [true category, classified category], for the message of a failure. */
  confusion: Map<string, number>;
}

function score(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  truth: (string | null)[],
  rules: CategoryRules,
  rows: Iterable<number>,
): Score {
  const column = categoriesOf(snapshot, device, rules);
  const table = device.allocations;
  const result: Score = { rightBytes: 0, totalBytes: 0, confusion: new Map() };
  for (const row of rows) {
    const expected = truth[row];
    // Without a stack nothing tells what an allocation is; without truth there is nothing to hold.
    if (expected === null || expected === undefined || table.stackId[row]! < 0) continue;
    const bytes = table.sizeBytes[row]!;
    const got = categoryAt(column, row);
    result.totalBytes += bytes;
    if (got === expected) result.rightBytes += bytes;
    const key = `${expected} -> ${got}`;
    result.confusion.set(key, (result.confusion.get(key) ?? 0) + bytes);
  }
  return result;
}

const describeScore = (s: Score): string =>
  [...s.confusion]
    .sort((a, b) => b[1] - a[1])
    .map(([key, bytes]) => `${key}: ${(bytes / 2 ** 20).toFixed(1)} MiB`)
    .join('; ');

function aliveAtPeak(device: AnalyzedDevice): number[] {
  const peak = device.figures.active.peakEventIndex;
  const table = device.allocations;
  const rows: number[] = [];
  for (let row = 0; row < table.count; row++)
    if (table.startEvent[row]! <= peak && table.endEvent[row]! > peak) rows.push(row);
  return rows;
}

describe.each([1, 7])(
  'the built-in category rules on a generated training run (seed %i)',
  (seed) => {
    it('classify at least 95% of the bytes right, over the trace and at the peak', async () => {
      const { snapshot, truth } = await generate(seed);
      for (const device of snapshot.devices) {
        const expected = trueCategories(device, truth[device.device]!);
        const all = Array.from({ length: device.allocations.count }, (_, row) => row);
        const overall = score(snapshot, device, expected, DEFAULT_CATEGORY_RULES, all);
        const atPeak = score(
          snapshot,
          device,
          expected,
          DEFAULT_CATEGORY_RULES,
          aliveAtPeak(device),
        );
        // Every kind the workload makes is there to be classified.
        const kinds = new Set([...overall.confusion.keys()].map((key) => key.split(' ->')[0]));
        expect([...kinds].sort()).toEqual([
          'activation',
          'autograd_other',
          'gradient',
          'optimizer_state',
          'parameter',
          'temporary',
        ]);
        expect(
          overall.rightBytes / overall.totalBytes,
          describeScore(overall),
        ).toBeGreaterThanOrEqual(0.95);
        expect(atPeak.totalBytes).toBeGreaterThan(0);
        expect(atPeak.rightBytes / atPeak.totalBytes, describeScore(atPeak)).toBeGreaterThanOrEqual(
          0.95,
        );
      }
    });
  },
);

describe('a rules file that overrides one category', () => {
  it('takes effect on the generated run: the gradients become what it says', async () => {
    const { snapshot, truth } = await generate(1);
    const rules: CategoryRules = {
      ...DEFAULT_CATEGORY_RULES,
      rules: [
        { category: 'optimizer_state', match: { frame: 'AccumulateGrad' } },
        ...DEFAULT_CATEGORY_RULES.rules.filter((rule) => rule.category !== 'gradient'),
      ],
    };
    const device = snapshot.devices[0]!;
    const expected = trueCategories(device, truth[0]!);
    const column = categoriesOf(snapshot, device, rules);
    const builtIn = categoriesOf(snapshot, device);
    let gradients = 0;
    for (let row = 0; row < device.allocations.count; row++) {
      if (expected[row] !== 'gradient' || device.allocations.stackId[row]! < 0) continue;
      gradients++;
      expect(categoryAt(builtIn, row)).toBe('gradient');
      expect(categoryAt(column, row)).toBe('optimizer_state');
    }
    expect(gradients).toBeGreaterThan(0);
    expect(CATEGORIES).toContain('optimizer_state');
  });
});
