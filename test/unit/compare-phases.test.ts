// Compare by matched phases (shared/compare/phase-alignment.ts, aligned-verdict.ts, `diff
// --align`): two generated runs of one program differing only in sequence length (batch shape
// 0.25 against 1.0, one training step recorded from the start, dumped after it). The short run
// peaks in the optimizer's step (its state is made there), the long one at the end of the forward
// pass: peak against peak reads "optimizer state disappeared", as on the real pair in issue 22.
// Matched phases compare the forward peaks instead, and the verdict names the phase and the
// planted difference (the activations). The phases' boundaries come from the generator's truth;
// the activations' bytes are recounted here from the raw trace and the truth's categories.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import type { DeviceTruth } from '../../generators/snapshot/generate-large-snapshot';
import type { AnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import type { SnapshotModel } from '../../src/shared/snapshot/model';
import { buildAnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { alignMoments } from '../../src/shared/compare/phase-alignment';
import { compareMoments } from '../../src/shared/compare/compare-moments';
import { alignedVerdict, peakPhases } from '../../src/shared/compare/aligned-verdict';
import { parseCliOptions, type DiffCliOptions, UsageError } from '../../src/cli/cli-options';
import { runDiff } from '../../src/cli/run-diff';
import type { DiffDocument } from '../../src/shared/report/diff-document';
import { decodeBytes } from '../support/analyzed';

const MiB = 2 ** 20;
const directory = mkdtempSync(join(tmpdir(), 'allocscope-compare-phases-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

interface Run {
  path: string;
  model: SnapshotModel;
  snapshot: AnalyzedSnapshot;
  truth: DeviceTruth;
}

/** One step of the program at a batch shape, recorded from its start and dumped after it. */
async function run(name: string, batchScale: number, annotations: boolean): Promise<Run> {
  const path = join(directory, `${name}.pickle`);
  const result = generateLargeSnapshot(path, 256 * MiB, {
    seed: 5,
    devices: 1,
    truth: true,
    dumpAfterSteps: 1,
    recordFromStart: true,
    batchScale,
    maxAnnotations: annotations ? 100_000 : 0,
  });
  const bytes = new Uint8Array(readFileSync(path));
  const model = await decodeBytes(bytes);
  const snapshot = buildAnalyzedSnapshot(await decodeBytes(bytes), {
    fileName: `${name}.pickle`,
    fileBytes: bytes.length,
  });
  return { path, model, snapshot, truth: result.truth![0]! };
}

/** The truth's event range of a phase of the (only) step. */
function truthRange(truth: DeviceTruth, phase: string, traceLength: number): [number, number] {
  const starts = truth.phaseStarts;
  const index = starts.findIndex((start) => start.phase === phase);
  const next = starts[index + 1];
  return [starts[index]!.event, (next?.event ?? traceLength) - 1];
}

/** Bytes of the allocations the generator made as `category` and still active after `moment`,
 *  counted from the raw trace (alloc until free_completed, by address: the active figure). */
function activeTrueBytes(run: Run, category: string, moment: number): number {
  const trace = run.model.traces[0]!;
  const names = run.model.actionNames;
  const alive = new Map<number, { bytes: number; category: string | null }>();
  for (let event = 0; event <= moment; event++) {
    const action = names[trace.action[event]!];
    const addr = trace.addr[event]!;
    if (action === 'alloc')
      alive.set(addr, {
        bytes: trace.sizeBytes[event]!,
        category: run.truth.entryCategories[event] ?? null,
      });
    else if (action === 'free_completed') alive.delete(addr);
  }
  let bytes = 0;
  for (const block of alive.values()) if (block.category === category) bytes += block.bytes;
  return bytes;
}

async function diffJson(...args: string[]): Promise<DiffDocument> {
  const options = parseCliOptions(['diff', ...args, '--json']) as DiffCliOptions;
  return JSON.parse(await runDiff(options)) as DiffDocument;
}

describe.each([true, false])(
  'two runs differing in sequence length (annotations: %s)',
  (annotated) => {
    let short: Run;
    let long: Run;
    beforeAll(async () => {
      short = await run(`short-${annotated}`, 0.25, annotated);
      long = await run(`long-${annotated}`, 1, annotated);
    }, 120_000);
    const sides = (): [
      { snapshot: AnalyzedSnapshot; device: AnalyzedSnapshot['devices'][number] },
      { snapshot: AnalyzedSnapshot; device: AnalyzedSnapshot['devices'][number] },
    ] => [
      { snapshot: short.snapshot, device: short.snapshot.devices[0]! },
      { snapshot: long.snapshot, device: long.snapshot.devices[0]! },
    ];

    it('peak in different phases: the short run in its optimizer step, the long one in forward', () => {
      for (const [side, phase] of [
        [short, 'optimizer'],
        [long, 'forward'],
      ] as const) {
        const device = side.snapshot.devices[0]!;
        const [first, last] = truthRange(side.truth, phase, device.traceLength);
        const peak = device.figures.active.peakEventIndex;
        expect(
          peak,
          `${side.path}: peak at ${peak}, ${phase} is ${first}-${last}`,
        ).toBeGreaterThanOrEqual(first);
        expect(peak).toBeLessThanOrEqual(last);
      }
      const [a, b] = sides();
      expect(peakPhases(a, b)).toEqual({ a: 'optimizer', b: 'forward' });
    });

    it('matched phases compare the forward peaks, found within 1% of the truth', () => {
      const [a, b] = sides();
      const aligned = alignMoments(a, b, 'phases');
      expect(aligned.alignment).toBe('phases');
      expect(aligned.phase).toBe('forward');
      expect(aligned.matchedPhases.map((phase) => phase.name)).toEqual([
        'forward',
        'backward',
        'optimizer',
        'other',
      ]);
      // Each side's moment: the highest active bytes inside the truth's forward range (whose
      // boundaries the phases find within 1% of the trace's events).
      for (const [side, moment] of [
        [short, aligned.aMoment],
        [long, aligned.bMoment],
      ] as const) {
        const device = side.snapshot.devices[0]!;
        const [first, last] = truthRange(side.truth, 'forward', device.traceLength);
        const slack = Math.ceil(device.traceLength * 0.01);
        expect(moment).toBeGreaterThanOrEqual(first - slack);
        expect(moment).toBeLessThanOrEqual(last + slack);
        const truthPeak = Math.max(...device.activeBytes.subarray(first, last + 1));
        expect(device.activeBytes[moment]).toBe(truthPeak);
      }
    });

    it('the verdict names the forward phase and the activations, with their bytes from the truth', () => {
      const [a, b] = sides();
      const aligned = alignMoments(a, b, 'phases');
      const comparison = compareMoments(
        { ...a, moment: aligned.aMoment },
        { ...b, moment: aligned.bMoment },
        { by: 'category' },
      );
      const verdict = alignedVerdict(comparison, aligned, peakPhases(a, b));
      const top = comparison.groups[0]!;
      expect(top.title).toBe('activations');
      const planted =
        activeTrueBytes(long, 'activation', aligned.bMoment) -
        activeTrueBytes(short, 'activation', aligned.aMoment);
      expect(planted).toBeGreaterThan(2 * 2 ** 30);
      expect(Math.abs(top.deltaBytes - planted) / planted).toBeLessThan(0.01);
      expect(verdict).toMatch(/^B's forward peaks [\d.]+ GiB higher than A's \(/);
      expect(verdict).toContain('the largest change: +');
      expect(verdict).toContain(' activations (grew)');
      expect(verdict).toContain(
        "Their own peaks lie in different phases: A's in optimizer, B's in forward.",
      );
      // What the verdict says B's forward adds is the difference of the moments' active bytes.
      expect(comparison.bActiveBytes - comparison.aActiveBytes).toBe(
        aligned.matchedPhases[0]!.deltaBytes,
      );
    });

    it('peak against peak stays a choice, and shows why it misleads', () => {
      const [a, b] = sides();
      const aligned = alignMoments(a, b, 'peaks');
      expect(aligned.alignment).toBe('peaks');
      expect(aligned.aMoment).toBe(a.device.figures.active.peakEventIndex);
      expect(aligned.bMoment).toBe(b.device.figures.active.peakEventIndex);
      const comparison = compareMoments(
        { ...a, moment: aligned.aMoment },
        { ...b, moment: aligned.bMoment },
        { by: 'category' },
      );
      const optimizerState = comparison.groups.find((group) => group.title === 'optimizer state');
      // The long run's forward peak comes before its optimizer state exists.
      expect(optimizerState?.change).toBe('disappeared');
      const verdict = alignedVerdict(comparison, aligned, peakPhases(a, b));
      expect(verdict).toMatch(/^B holds [\d.]+ GiB more than A at their active peaks/);
      expect(verdict).toContain('Compare matched phases to see what the larger run costs.');
    });

    it('`diff` aligns phases by default; --align peaks and --phase choose otherwise', async () => {
      const byPhase = await diffJson(short.path, long.path, '--by', 'category');
      expect(byPhase.alignment).toBe('phases');
      expect(byPhase.phase).toBe('forward');
      expect(byPhase.a.moment.phase).toEqual({ name: 'forward', step: annotated ? 1 : null });
      expect(byPhase.b.moment.phase?.name).toBe('forward');
      expect(byPhase.phases.map((phase) => phase.name)).toEqual([
        'forward',
        'backward',
        'optimizer',
        'other',
      ]);
      for (const phase of byPhase.phases)
        expect(phase.delta_bytes).toBe(phase.b.peak_active_bytes - phase.a.peak_active_bytes);
      expect(byPhase.delta.active_bytes).toBe(byPhase.phases[0]!.delta_bytes);
      expect(byPhase.verdict).toMatch(/^B's forward peaks/);
      const sum = byPhase.groups.reduce((total, group) => total + group.delta_bytes, 0);
      expect(sum + byPhase.omitted_groups.delta_bytes).toBe(byPhase.delta.active_bytes);

      const peaks = await diffJson(short.path, long.path, '--align', 'peaks');
      expect(peaks.alignment).toBe('peaks');
      expect(peaks.delta.active_bytes).toBe(peaks.delta.peak_active_bytes);
      expect(peaks.a.moment.phase?.name).toBe('optimizer');

      const backward = await diffJson(short.path, long.path, '--phase', 'backward');
      expect(backward.phase).toBe('backward');
      expect(backward.verdict).toMatch(/^B's backward peaks/);
      expect(backward.a.moment.active_bytes).toBe(backward.phases[1]!.a.peak_active_bytes);

      const text = await runDiff(
        parseCliOptions(['diff', short.path, long.path]) as DiffCliOptions,
      );
      expect(text).toContain("each phase's peak active");
      expect(text).toMatch(/forward .*← compared below/);
      expect(text).toMatch(/after event \d+ \(in forward/);
    });
  },
);

describe('diff --align and --phase', () => {
  it('refuses them beside another moment, and --phase with --align peaks', () => {
    expect(() =>
      parseCliOptions(['diff', 'a', 'b', '--moment', 'final', '--align', 'peaks']),
    ).toThrow(UsageError);
    expect(() =>
      parseCliOptions(['diff', 'a', 'b', '--moment', '5', '--phase', 'forward']),
    ).toThrow(/--phase chooses which peaks to compare; it does not go with --moment 5/);
    expect(() =>
      parseCliOptions(['diff', 'a', 'b', '--align', 'peaks', '--phase', 'forward']),
    ).toThrow(/does not go with --align peaks/);
    expect(() => parseCliOptions(['diff', 'a', 'b', '--phase', 'sideways'])).toThrow(/--phase/);
    expect(parseCliOptions(['diff', 'a', 'b'])).toMatchObject({ align: 'phases', phase: null });
  });
});
