// A training run dumped right after its last step (`_dump_snapshot()` after the loop): that
// step's ProfilerStep END lies after the last trace event. Generated runs (the project's
// generator, a planted leak at a known stack) dumped at once after the 12th whole step, and with
// one more event after it: every step the file records whole is found, the last one included,
// and the leak's bytes per step are within 1% of what was planted; a clean run has no growth.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import type { AnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { findSteps } from '../../src/shared/steps/find-steps';
import { analyzeGrowth } from '../../src/shared/steps/growth';
import { analyzeBytes } from '../support/analyzed';

const MiB = 2 ** 20;
const LEAK = 64 * MiB + 4096;
const STEPS = 12;
const directory = mkdtempSync(join(tmpdir(), 'allocscope-dump-after-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function dumpedAfterSteps(
  name: string,
  leakBytesPerStep: number,
  eventsAfterLastStep: number,
): Promise<AnalyzedSnapshot> {
  const path = join(directory, `${name}.pickle`);
  generateLargeSnapshot(path, 256 * MiB, {
    seed: 5,
    devices: 1,
    leakBytesPerStep,
    maxAnnotations: 100_000,
    dumpAfterSteps: STEPS,
    eventsAfterLastStep,
  });
  return analyzeBytes(new Uint8Array(readFileSync(path)));
}

/** The ProfilerStep spans whose START lies inside the trace, paired by hand: the truth. */
function recordedSteps(
  snapshot: AnalyzedSnapshot,
): { name: string; startUs: number; endUs: number }[] {
  const device = snapshot.devices[0]!;
  const firstUs = device.timeUs![0]!;
  const starts = new Map<string, number>();
  const steps = [];
  for (const mark of snapshot.annotations) {
    if (!mark.name.startsWith('ProfilerStep#')) continue;
    if (mark.stage === 'START') starts.set(mark.name, mark.timeUs);
    else if ((starts.get(mark.name) ?? -Infinity) >= firstUs)
      steps.push({ name: mark.name, startUs: starts.get(mark.name)!, endUs: mark.timeUs });
  }
  return steps;
}

describe.each([0, 1])('a run dumped with %i events after its last step’s END', (after) => {
  it('finds every step and the leak’s bytes per step', async () => {
    const snapshot = await dumpedAfterSteps(`leak-${after}`, LEAK, after);
    const device = snapshot.devices[0]!;
    const lastUs = device.timeUs![device.traceLength - 1]!;
    const truth = recordedSteps(snapshot);
    expect(truth).toHaveLength(STEPS);
    // The case at hand: the last END after the last event, or before the one event after it.
    if (after === 0) expect(truth.at(-1)!.endUs).toBeGreaterThan(lastUs);
    else expect(truth.at(-1)!.endUs).toBeLessThanOrEqual(lastUs);

    const found = findSteps(snapshot, device);
    expect(found.source).toBe('annotations');
    expect(found.steps.map((step) => step.name)).toEqual(truth.map((step) => step.name));
    expect(found.steps.at(-1)!.endEvent).toBe(device.traceLength - 1 - after);
    // Left out: the step cut by the trace's start (recording began mid-step) and, with an event
    // after the last END, the step that event begins (its START recorded, its END never).
    const unfinished = snapshot.annotations.filter(
      (mark) =>
        mark.stage === 'START' &&
        mark.name.startsWith('ProfilerStep#') &&
        mark.timeUs > truth.at(-1)!.endUs,
    );
    expect(unfinished).toHaveLength(after);
    expect(found.note).toMatch(
      after === 0
        ? /; 1 span is cut by the trace’s ends or never ended$/
        : /; 2 spans are cut by the trace’s ends or never ended$/,
    );

    const growth = analyzeGrowth(snapshot, device, found);
    expect(growth.growing).toBe(true);
    expect(Math.abs(growth.growthBytesPerStep - LEAK) / LEAK).toBeLessThan(0.01);
    expect(Math.abs(growth.suspects[0]!.bytesPerStep - LEAK) / LEAK).toBeLessThan(0.01);
    expect(growth.suspects[0]!.stepsGrown).toBe(STEPS);
    // Independently: what the last step ends with, over what the first ended with, read from the
    // curve at the events the truth's END marks fall on, is the leak times the steps between.
    const eventAt = (timeUs: number): number => {
      let event = device.traceLength - 1;
      while (event > 0 && device.timeUs![event]! > timeUs) event--;
      return event;
    };
    const kept =
      device.activeBytes[eventAt(truth.at(-1)!.endUs)]! -
      device.activeBytes[eventAt(truth[0]!.endUs)]!;
    expect(Math.abs(kept - LEAK * (STEPS - 1)) / (LEAK * (STEPS - 1))).toBeLessThan(0.01);
  });

  it('reports no growth on a clean run', async () => {
    const snapshot = await dumpedAfterSteps(`clean-${after}`, 0, after);
    const device = snapshot.devices[0]!;
    const found = findSteps(snapshot, device);
    expect(found.steps).toHaveLength(STEPS);
    const growth = analyzeGrowth(snapshot, device, found);
    expect(growth.growing).toBe(false);
    expect(growth.growthBytesPerStep).toBe(0);
    expect(growth.suspects).toEqual([]);
  });
});
