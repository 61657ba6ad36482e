// Phases of a step (forward, backward, optimizer, other) on generated runs whose truth the
// generator records (where each phase of each step starts, generators/snapshot/device-
// simulation.ts onPhase): single-step and multi-step runs, with their annotations (ProfilerStep,
// Optimizer.step) and without any (phases from the stacks alone). Each boundary between phases
// lies within 1% of the trace's events of the truth; each phase's figures are recomputed from the
// curve here. On the real snapshots, every file with a backward pass gets forward and backward
// phases, every file with an optimizer step an optimizer phase.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import type { PhaseStart } from '../../generators/snapshot/device-simulation';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { pairAnnotations } from '../../src/shared/chart/annotation-spans';
import { stackFrameIds } from '../../src/shared/snapshot/stack-source';
import { stepsOf, type TrainingStep } from '../../src/shared/steps/find-steps';
import { phasesOf, type Phase } from '../../src/shared/steps/phases';
import { analyzeBytes, analyzeFile } from '../support/analyzed';
import { runSteps } from '../../src/cli/run-steps';
import { parseCliOptions, type StepsCliOptions } from '../../src/cli/cli-options';
import { realSnapshotPaths } from '../support/real-snapshots';

const MiB = 2 ** 20;
const directory = mkdtempSync(join(tmpdir(), 'allocscope-phases-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function generatedRun(
  name: string,
  options: { steps: number; annotations: boolean; fromStart: boolean },
): Promise<{ snapshot: AnalyzedSnapshot; truth: PhaseStart[]; path: string }> {
  const path = join(directory, `${name}.pickle`);
  const result = generateLargeSnapshot(path, 256 * MiB, {
    seed: 21,
    devices: 1,
    truth: true,
    maxAnnotations: options.annotations ? 100_000 : 0,
    dumpAfterSteps: options.steps,
    recordFromStart: options.fromStart,
  });
  const snapshot = await analyzeBytes(new Uint8Array(readFileSync(path)));
  return { snapshot, truth: result.truth![0]!.phaseStarts, path };
}

/**
 * The truth's boundaries between phases (where backward, optimizer and other start) in the whole
 * steps the trace holds: the step that recording began in the middle of has no forward start,
 * and phases are found inside the steps found (the whole trace when none are), which leave out
 * the partial steps at the trace's ends.
 */
function truthBoundaries(
  truth: readonly PhaseStart[],
  device: AnalyzedDevice,
  steps: readonly TrainingStep[],
): PhaseStart[] {
  const whole = new Set(truth.filter((start) => start.phase === 'forward').map((s) => s.step));
  const inside = (event: number): boolean =>
    steps.length === 0 || steps.some((step) => step.startEvent <= event && event <= step.endEvent);
  return truth.filter(
    (start) =>
      start.phase !== 'forward' &&
      whole.has(start.step) &&
      start.event < device.traceLength &&
      inside(start.event),
  );
}

/** Each phase's figures from the curve and the allocation table, independently. */
function checkFigures(device: AnalyzedDevice, phase: Phase): void {
  const slice = Array.from(device.activeBytes.subarray(phase.startEvent, phase.endEvent + 1));
  expect(phase.peakActiveBytes).toBe(Math.max(...slice));
  expect(phase.endActiveBytes).toBe(slice.at(-1));
  const before =
    phase.startEvent > 0
      ? device.activeBytes[phase.startEvent - 1]!
      : device.figures.active.baselineBytes;
  expect(phase.addedBytes).toBe(slice.at(-1)! - before);
  // What the phase made and kept, by category, adds up to the bytes of its allocations alive
  // after it, counted here by a scan of the table.
  const t = device.allocations;
  let kept = 0;
  for (let row = 0; row < t.count; row++)
    if (
      t.startEvent[row]! >= phase.startEvent &&
      t.startEvent[row]! <= phase.endEvent &&
      t.endEvent[row]! > phase.endEvent
    )
      kept += t.sizeBytes[row]!;
  const byCategory = Object.values(phase.keptByCategory).reduce((sum, bytes) => sum + bytes, 0);
  expect(byCategory).toBe(kept);
}

describe.each([
  { steps: 1, annotations: true, fromStart: true },
  { steps: 1, annotations: false, fromStart: true },
  { steps: 6, annotations: true, fromStart: false },
  { steps: 6, annotations: false, fromStart: false },
])('a generated run of $steps step(s), annotations: $annotations', (options) => {
  it('puts each boundary between phases within 1% of the trace of the truth', async () => {
    const { snapshot, truth, path } = await generatedRun(
      `run-${options.steps}-${options.annotations}`,
      options,
    );
    const device = snapshot.devices[0]!;
    const { phases, note } = phasesOf(snapshot, device);
    const boundaries = truthBoundaries(truth, device, stepsOf(snapshot, device).steps);
    // Every step's three (the pattern's steps may leave out one more step at the ends).
    expect(boundaries.length).toBeGreaterThanOrEqual(
      3 * (options.steps - (options.annotations ? 0 : 2)),
    );
    const tolerance = device.traceLength * 0.01;
    for (const boundary of boundaries) {
      const nearest = phases
        .filter((phase) => phase.name === boundary.phase)
        .reduce<Phase | null>(
          (best, phase) =>
            best === null ||
            Math.abs(phase.startEvent - boundary.event) < Math.abs(best.startEvent - boundary.event)
              ? phase
              : best,
          null,
        );
      expect(nearest, `${boundary.step} ${boundary.phase}`).not.toBeNull();
      expect(
        Math.abs(nearest!.startEvent - boundary.event),
        `${boundary.step} ${boundary.phase} at ${boundary.event}`,
      ).toBeLessThanOrEqual(tolerance);
    }
    // Phases in order, never overlapping, inside the trace.
    let previous = -1;
    for (const phase of phases) {
      expect(phase.startEvent).toBeGreaterThan(previous);
      expect(phase.endEvent).toBeGreaterThanOrEqual(phase.startEvent);
      expect(phase.endEvent).toBeLessThan(device.traceLength);
      previous = phase.endEvent;
      checkFigures(device, phase);
    }
    // With the annotations the optimizer's phase is Optimizer.step's span; without, the stacks'.
    const optimizer = phases.find((phase) => phase.name === 'optimizer')!;
    expect(optimizer.source).toBe(options.annotations ? 'annotations' : 'stacks');
    expect(phases.find((phase) => phase.name === 'backward')!.source).toBe('stacks');
    const steps = stepsOf(snapshot, device).steps;
    if (options.steps === 1 && !options.annotations) {
      expect(steps).toEqual([]);
      expect(note).toBe('phases over the trace, from the stacks');
    }
    // steps --json lists the same phases.
    const document = JSON.parse(
      await runSteps(parseCliOptions(['steps', path, '--json']) as StepsCliOptions),
    );
    expect(document.phases_note).toBe(note);
    expect(
      document.phases.map((phase: { name: string; start_event: number; end_event: number }) => [
        phase.name,
        phase.start_event,
        phase.end_event,
      ]),
    ).toEqual(phases.map((phase) => [phase.name, phase.startEvent, phase.endEvent]));
    expect(document.phases[0].peak_active_bytes).toBe(phases[0]!.peakActiveBytes);
    if (options.annotations) {
      expect(steps).toHaveLength(options.steps);
      expect(new Set(phases.map((phase) => phase.step))).toEqual(
        new Set(steps.map((step) => step.index)),
      );
    }
  });
});

/** Independent of the rule under test: autograd's frames by their plainest names. */
const BACKWARD_FRAME = /autograd::Engine::|Backward\d*::apply|AccumulateGrad/;

function hasBackwardPass(snapshot: AnalyzedSnapshot, device: AnalyzedDevice): boolean {
  const t = device.allocations;
  for (let row = 0; row < t.count; row++) {
    if (t.startEvent[row]! < 0) continue;
    for (const frame of stackFrameIds(snapshot, t.stackId[row]!))
      if (BACKWARD_FRAME.test(snapshot.frames.name[frame]!)) return true;
  }
  return false;
}

function hasOptimizerStep(snapshot: AnalyzedSnapshot, device: AnalyzedDevice): boolean {
  const first = device.timeUs?.[0] ?? Infinity;
  const last = device.timeUs?.[device.traceLength - 1] ?? -Infinity;
  const annotated = pairAnnotations(snapshot.annotations, device.device).some(
    (span) =>
      span.name.startsWith('Optimizer.step#') && span.endUs >= first && span.startUs <= last,
  );
  if (annotated) return true;
  const t = device.allocations;
  for (let row = 0; row < t.count; row++) {
    if (t.startEvent[row]! < 0) continue;
    for (const frame of stackFrameIds(snapshot, t.stackId[row]!))
      if (/[\\/]torch[\\/]optim[\\/]/.test(snapshot.frames.filename[frame]!)) return true;
  }
  return false;
}

describe.each(realSnapshotPaths())('phases of %s', (path) => {
  it('forward and backward where it has a backward pass, optimizer where it steps', async () => {
    const snapshot = await analyzeFile(path);
    for (const device of snapshot.devices) {
      if (device.traceLength === 0) continue;
      const names = new Set(phasesOf(snapshot, device).phases.map((phase) => phase.name));
      if (hasBackwardPass(snapshot, device)) {
        expect(names.has('forward'), `cuda:${device.device}`).toBe(true);
        expect(names.has('backward'), `cuda:${device.device}`).toBe(true);
      }
      if (hasOptimizerStep(snapshot, device))
        expect(names.has('optimizer'), `cuda:${device.device}`).toBe(true);
      for (const phase of phasesOf(snapshot, device).phases) checkFigures(device, phase);
    }
  });
});
