// Real CUDA snapshots recorded on an NVIDIA H200 with PyTorch 2.11 (test/fixtures/cuda-h200, its
// README says how), checked against what torch itself reported in the same process
// (truth.json: memory_allocated(), memory_reserved(), memory_stats(), the OutOfMemoryError):
// the summary's final, peak and baseline figures, each step's figures, the planted leaks, the
// OOMs, the expandable segments and the ranks. Unlike test/fixtures/real (files found on GitHub,
// compared with a Python re-implementation), here the expected numbers are the allocator's own.
//

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { orderRanks, ranksFinding } from '@shared/compare/ranks';
import { deviceExplanationsOf } from '@shared/oom/oom-explainer';
import { stepsOf } from '@shared/steps/find-steps';
import { analyzeGrowth } from '@shared/steps/growth';
import { readRankFigures } from '../../src/cli/read-rank-figures';
import { loadAnalyzedSnapshot } from '../../src/cli/load-analyzed-snapshot';
import { summarizeFile } from '../support/summarize';

const DIR = resolve(import.meta.dirname, '../fixtures/cuda-h200');
const MiB = 2 ** 20;

/** What torch reported at one moment (generators/record-cuda-snapshots.py, figures()). */
interface TorchFigures {
  memory_allocated: number;
  memory_reserved: number;
  max_memory_allocated: number;
  max_memory_reserved: number;
  stats: Record<string, number>;
}
interface StepTruth extends TorchFigures {
  step: number;
}
interface ScenarioTruth {
  recording_started: TorchFigures;
  at_dump: TorchFigures;
  steps?: StepTruth[];
  leak_bytes_per_step?: number;
  ooms?: { requested_bytes: number; message: string }[];
  file: {
    trace_entries: number[];
    actions: Record<string, number>;
    ooms: { size: number; device_free: number }[];
  };
}
interface Truth {
  versions: { torch: string; device_name: string };
  scenarios: Record<string, ScenarioTruth>;
}

const truth = JSON.parse(readFileSync(join(DIR, 'truth.json'), 'utf8')) as Truth;

const FILES: Record<string, string> = {
  steps: 'steps.pickle.gz',
  leak: 'leak.pickle',
  oom: 'oom.pickle',
  expandable: 'expandable.pickle',
  rank_0: 'ranks/rank_0.pickle',
  rank_1: 'ranks/rank_1.pickle',
  rank_2: 'ranks/rank_2.pickle',
  rank_3: 'ranks/rank_3.pickle',
};
const pathOf = (scenario: string): string => join(DIR, FILES[scenario]!);
const stepName = (step: number): string => `ProfilerStep#${step}`;

it('holds the files of the recording that truth.json describes', () => {
  expect(truth.versions.torch).toMatch(/^2\.11\./);
  expect(truth.versions.device_name).toBe('NVIDIA H200');
  expect(Object.keys(truth.scenarios).sort()).toEqual(Object.keys(FILES).sort());
});

describe.each(Object.keys(FILES))('%s: the summary equals what torch reported', (scenario) => {
  const recorded = truth.scenarios[scenario]!;

  it('final, peak and baseline figures', async () => {
    const summary = await summarizeFile(pathOf(scenario));
    expect(summary.warnings).toEqual([]);
    expect(summary.devices).toHaveLength(1);
    const device = summary.devices[0]!;
    expect(device.device).toBe(0);
    expect(device.trace_entries).toBe(recorded.file.trace_entries[0]);
    expect(device.actions).toEqual(recorded.file.actions);
    // The trace never wrapped (max_entries was not reached): every free has its alloc.
    expect(device.unmatched_frees).toBe(0);

    const { at_dump: end, recording_started: start } = recorded;
    // memory_allocated() counts the rounded blocks (512-byte multiples), the active curve counts
    // requested bytes, which torch reports as memory_stats' requested_bytes: each is compared with
    // its own. (They coincide in these files: every tensor alive at the end is a multiple of
    // 512 bytes; the peaks are not: the steps' peak holds scalars rounded up to 512.)
    expect(device.allocated_bytes.final).toBe(end.memory_allocated);
    expect(device.active_bytes.final).toBe(end.stats['requested_bytes.all.current']);
    expect(device.reserved_bytes!.final).toBe(end.memory_reserved);
    // Peaks over the process's life: the trace covers it all, or (leak: recording started after
    // the model was built) starts at a level that was the peak until then.
    expect(device.active_bytes.peak).toBe(end.stats['requested_bytes.all.peak']);
    expect(device.reserved_bytes!.peak).toBe(end.max_memory_reserved);
    // The baseline, before the first trace entry, is what was in use when recording started
    // (0 except for leak, whose model's 8 MiB and 22 MiB of segments predate the trace).
    expect(device.active_bytes.baseline).toBe(start.stats['requested_bytes.all.current']);
    expect(device.reserved_bytes!.baseline).toBe(start.memory_reserved);
  });
});

describe.each(['steps', 'leak', 'expandable', 'rank_0', 'rank_2'])(
  '%s: the steps equal what torch reported after each step',
  (scenario) => {
    const recorded = truth.scenarios[scenario]!;

    it('each step found ends where torch measured it', async () => {
      const snapshot = await loadAnalyzedSnapshot(pathOf(scenario));
      const device = snapshot.devices[0]!;
      const found = stepsOf(snapshot, device);
      expect(found.source).toBe('annotations');
      const growth = analyzeGrowth(snapshot, device, found);
      expect(growth.steps.length).toBeGreaterThanOrEqual(4);
      for (const step of growth.steps) {
        // Measured inside the span, after the step's work, with nothing allocated after it.
        const measured = recorded.steps!.find((entry) => stepName(entry.step) === step.name)!;
        expect(measured).toBeDefined();
        expect(step.endActiveBytes).toBe(measured.stats['requested_bytes.all.current']);
        expect(step.endReservedBytes).toBe(measured.memory_reserved);
      }
      const planted = recorded.leak_bytes_per_step ?? 0;
      if (planted === 0) {
        expect(growth.growing).toBe(false);
        expect(growth.growthBytesPerStep).toBe(0);
        expect(growth.suspects).toEqual([]);
      } else {
        expect(growth.growing).toBe(true);
        expect(growth.growthBytesPerStep).toBeCloseTo(planted, 0);
        expect(growth.suspects[0]!.bytesPerStep).toBeCloseTo(planted, 0);
        expect(growth.suspects[0]!.topFrame).toMatch(/record-cuda-snapshots\.py:\d+ scenario_/);
        expect(growth.suspects[0]!.stepsGrown).toBe(growth.steps.length);
      }
    });

    // A trace that never wrapped, recorded from before the loop and dumped after it, holds both
    // marks of each step and every event between them, though the first step's START precedes
    // the first entry (leak: nothing is allocated before it) and the last step's END follows the
    // last entry (nothing is allocated between it and the dump).
    it('finds every step whose START and END the file records', async () => {
      const snapshot = await loadAnalyzedSnapshot(pathOf(scenario));
      const found = stepsOf(snapshot, snapshot.devices[0]!);
      expect(found.steps.map((step) => step.name)).toEqual(
        recorded.steps!.map((entry) => stepName(entry.step)),
      );
    });
  },
);

describe('oom: set_per_process_memory_fraction(2 GiB), then 256 MiB until OutOfMemoryError', () => {
  const recorded = truth.scenarios['oom']!;
  const thrown = recorded.ooms!;

  it('finds both OOMs with the sizes of the failed requests', async () => {
    const summary = await summarizeFile(pathOf('oom'));
    const ooms = summary.devices[0]!.oom;
    expect(ooms.map((oom) => oom.device_free_bytes)).toEqual(
      recorded.file.ooms.map((oom) => oom.device_free),
    );
    expect(thrown).toHaveLength(2);
    // 256 MiB: the size torch.empty asked for, as the exception says.
    expect(ooms[0]!.requested_bytes).toBe(thrown[0]!.requested_bytes);
    expect(ooms[0]!.requested_bytes).toBe(256 * MiB);
    expect(thrown[0]!.message).toMatch(/Tried to allocate 256\.00 MiB/);
    // 1 GiB + 12345 bytes: the oom entry holds the request already rounded up to 512 bytes (the
    // allocator's round_size), not the bytes torch.empty asked for; the exception prints it
    // rounded to the segment size ("1.00 GiB").
    expect(thrown[1]!.requested_bytes).toBe(2 ** 30 + 12345);
    expect(ooms[1]!.requested_bytes).toBe(Math.ceil(thrown[1]!.requested_bytes / 512) * 512);
    expect(thrown[1]!.message).toMatch(/Tried to allocate 1\.00 GiB/);
    // Nothing was cached free: every byte reserved is held by the 8 live 256 MiB tensors.
    expect(summary.devices[0]!.active_bytes.final).toBe(8 * 256 * MiB);
    expect(thrown[0]!.message).toMatch(/2\.00 GiB allowed/);
  });

  // 0 B cached free and 134 GiB free on the device: nothing was fragmented and expandable
  // segments would not help; the allocator refused because of a cap on this process
  // (set_per_process_memory_fraction, "2.00 GiB allowed").
  it('calls an OOM under a per-process limit a process limit, not fragmentation', async () => {
    const snapshot = await loadAnalyzedSnapshot(pathOf('oom'));
    const { ooms } = deviceExplanationsOf(snapshot, 0);
    expect(ooms).toHaveLength(2);
    for (const oom of ooms) {
      expect(oom.cachedFreeBytes).toBe(0);
      expect(oom.deviceFreeBytes! >= oom.roundedRequestBytes!).toBe(true);
      expect(oom.verdict).toBe('process-limit');
      expect(oom.verdictText).toMatch(/^Process limit: the GPU had [\d.]+ GiB free/);
      expect(oom.verdictText).toContain('set_per_process_memory_fraction');
    }
  });
});

describe('expandable: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True', () => {
  it('opens as expandable segments: mapped and unmapped pages, no cudaMalloc of segments', async () => {
    const snapshot = await loadAnalyzedSnapshot(pathOf('expandable'));
    expect(snapshot.allocatorSettings?.['expandable_segments']).toBe(true);
    const summary = await summarizeFile(pathOf('expandable'));
    const actions = summary.devices[0]!.actions;
    expect(actions['segment_map']).toBeGreaterThan(0);
    expect(actions['segment_unmap']).toBeGreaterThan(0); // empty_cache() before the dump
    expect(actions['segment_alloc']).toBeUndefined();
    // Reserved went up to 510 MiB (batch 4096) and back to what empty_cache() left.
    const recorded = truth.scenarios['expandable']!;
    expect(summary.devices[0]!.reserved_bytes!.peak).toBeGreaterThan(
      summary.devices[0]!.reserved_bytes!.final,
    );
    expect(summary.devices[0]!.reserved_bytes!.final).toBe(recorded.at_dump.memory_reserved);
  });
});

describe('ranks: four processes of one job, rank 2 keeping 16 MiB more every step', () => {
  const names = [0, 1, 2, 3].map((rank) => `rank_${rank}.pickle`);

  it('reads every rank, names rank 2 the highest and the outlier, with the most growth', async () => {
    const ordered = orderRanks(names);
    expect(ordered.map((entry) => entry.rank)).toEqual([0, 1, 2, 3]);
    const entries = [];
    const growthByRank: number[] = [];
    for (const { name, rank } of ordered) {
      const reply = await readRankFigures(join(DIR, 'ranks', name));
      if (!('figures' in reply)) throw new Error(`${name}: ${JSON.stringify(reply)}`);
      const recorded = truth.scenarios[`rank_${rank}`]!;
      expect(reply.figures.peakActiveBytes).toBe(
        recorded.at_dump.stats['requested_bytes.all.peak'],
      );
      expect(reply.figures.peakReservedBytes).toBe(recorded.at_dump.max_memory_reserved);
      expect(reply.figures.ooms).toBe(0);
      entries.push({ rank, figures: reply.figures });

      const snapshot = await loadAnalyzedSnapshot(join(DIR, 'ranks', name));
      const device = snapshot.devices[0]!;
      growthByRank.push(
        analyzeGrowth(snapshot, device, stepsOf(snapshot, device)).growthBytesPerStep,
      );
    }
    const finding = ranksFinding(entries);
    expect(finding.highestRank).toBe(2);
    expect(finding.outliers).toEqual([2]);
    expect(finding.oomRanks).toEqual([]);
    expect(growthByRank.indexOf(Math.max(...growthByRank))).toBe(2);
    expect(growthByRank[2]).toBeCloseTo(truth.scenarios['rank_2']!.leak_bytes_per_step!, 0);
  });
});
