// Steps and growth (src/shared/steps) on generated training runs whose truth the generator knows:
// a run with a planted leak (a known stack keeping a known number of bytes every step) and one
// without. Steps found from the annotations equal the ProfilerStep spans paired here by hand;
// without annotations, the steps found from the curve's repeats match them; the leak's stack is
// the first suspect, its bytes per step within 1% of what was planted; the clean run has no
// growth. On every real snapshot the steps lie inside the trace, in order, and never overlap.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { findSteps, type TrainingStep } from '../../src/shared/steps/find-steps';
import { analyzeGrowth, growthVerdict } from '../../src/shared/steps/growth';
import { fitLine, type StepFigures } from '../../src/shared/steps/step-figures';
import { renderStepsSvg } from '../../src/shared/render/steps-svg';
import { runSteps } from '../../src/cli/run-steps';
import { parseCliOptions, type StepsCliOptions } from '../../src/cli/cli-options';
import { analyzeBytes, analyzeFile } from '../support/analyzed';
import { realSnapshotPaths } from '../support/real-snapshots';

const MiB = 2 ** 20;
const LEAK = 96 * MiB + 4096; // not a round number: the figure must come from the data
const directory = mkdtempSync(join(tmpdir(), 'allocscope-steps-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function generated(
  name: string,
  leakBytesPerStep: number,
): Promise<{ path: string; snapshot: AnalyzedSnapshot }> {
  const path = join(directory, `${name}.pickle`);
  generateLargeSnapshot(path, 6_000_000, {
    seed: 11,
    devices: 1,
    leakBytesPerStep,
    maxAnnotations: 100_000,
  });
  return { path, snapshot: await analyzeBytes(new Uint8Array(readFileSync(path))) };
}

/** ProfilerStep#N spans paired by name, mapped to events by a scan: the steps, independently. */
function annotatedSteps(snapshot: AnalyzedSnapshot, device: AnalyzedDevice): TrainingStep[] {
  const times = device.timeUs!;
  const starts = new Map<string, number>();
  const steps: TrainingStep[] = [];
  for (const mark of snapshot.annotations) {
    if (!/^ProfilerStep#\d+$/.test(mark.name)) continue;
    if (mark.stage === 'START') starts.set(mark.name, mark.timeUs);
    else if (starts.has(mark.name)) {
      const startUs = starts.get(mark.name)!;
      if (startUs < times[0]! || mark.timeUs > times[device.traceLength - 1]!) continue;
      let startEvent = 0;
      while (times[startEvent]! < startUs) startEvent++;
      let endEvent = device.traceLength - 1;
      while (times[endEvent]! > mark.timeUs) endEvent--;
      steps.push({ index: steps.length, name: mark.name, startEvent, endEvent });
    }
  }
  return steps;
}

/**
 * The steps as the curve shows them: the annotated ones, and a step an OOM aborted (a START
 * without its END), which runs to the entry before the next step's START.
 */
function curveSteps(snapshot: AnalyzedSnapshot, device: AnalyzedDevice): TrainingStep[] {
  const times = device.timeUs!;
  const eventAt = (timeUs: number): number => {
    let event = 0;
    while (event < device.traceLength && times[event]! < timeUs) event++;
    return event;
  };
  const starts = snapshot.annotations.filter(
    (mark) => /^ProfilerStep#\d+$/.test(mark.name) && mark.stage === 'START',
  );
  const steps = annotatedSteps(snapshot, device);
  starts.forEach((mark, i) => {
    const ended = snapshot.annotations.some((end) => end.name === mark.name && end.stage === 'END');
    const next = starts[i + 1];
    if (ended || next === undefined || mark.timeUs < times[0]!) return;
    steps.push({
      index: -1,
      name: mark.name,
      startEvent: eventAt(mark.timeUs),
      endEvent: eventAt(next.timeUs) - 1,
    });
  });
  return steps;
}

describe('steps and growth of a generated training run', () => {
  it('finds the leak a training loop plants: its stack first, its bytes per step', async () => {
    const { snapshot, path } = await generated('leak', LEAK);
    const device = snapshot.devices[0]!;
    const truth = annotatedSteps(snapshot, device);
    expect(truth.length).toBeGreaterThanOrEqual(10);

    const found = findSteps(snapshot, device);
    expect(found.source).toBe('annotations');
    expect(found.steps).toEqual(truth);
    // The trace starts mid-run: the step cut by its start is left out, and said.
    expect(found.note).toMatch(/cut by the trace’s ends or never ended/);

    const growth = analyzeGrowth(snapshot, device, found);
    const first = growth.suspects[0]!;
    expect(first.topFrame).toBe('nanogpt/train.py:88 train_step');
    expect(Math.abs(first.bytesPerStep - LEAK) / LEAK).toBeLessThan(0.01);
    expect(first.stepsGrown).toBe(truth.length);
    expect(growth.growing).toBe(true);
    expect(Math.abs(growth.growthBytesPerStep - LEAK) / LEAK).toBeLessThan(0.01);
    expect(growth.verdict).toMatch(
      /^Active memory grows 96\.0 MiB per step over \d+ steps; 96\.0 MiB of it is allocated at nanogpt\/train\.py:88 train_step/,
    );
    // Each step's figures, from the curve directly.
    for (const step of growth.steps) {
      const slice = Array.from(device.activeBytes.subarray(step.startEvent, step.endEvent + 1));
      expect(step.peakActiveBytes).toBe(Math.max(...slice));
      expect(step.endActiveBytes).toBe(slice.at(-1));
      expect(step.endReservedBytes).toBe(device.reservedBytes[step.endEvent]);
    }

    // The same through the CLI's document.
    const document = JSON.parse(
      await runSteps(parseCliOptions(['steps', path, '--json']) as StepsCliOptions),
    );
    expect(document.schema).toBe('allocscope.steps/1');
    expect(document.source).toBe('annotations');
    expect(document.steps.map((step: { start_event: number }) => step.start_event)).toEqual(
      truth.map((step) => step.startEvent),
    );
    expect(document.suspects[0].top_frame).toBe('nanogpt/train.py:88 train_step');
    expect(Math.abs(document.suspects[0].bytes_per_step - LEAK) / LEAK).toBeLessThan(0.01);

    // The picture (the Steps view's export, render --view steps): one column per step as tall as
    // the step's peak on the byte axis, the verdict, the leaking line first among the suspects.
    const height = 600;
    const svg = renderStepsSvg(snapshot, 0, growth, { width: 1200, height });
    expect(svg).toContain(growth.verdict.slice(0, 40));
    const columns = /data-mark="step-peaks" d="([^"]*)"/.exec(svg)![1]!.split('Z').filter(Boolean);
    expect(columns.length).toBe(truth.length);
    const tops = columns.map((column) => Number(/^M[\d.]+ ([\d.]+)/.exec(column)![1]));
    const bottom = Number(/V([\d.]+)/.exec(columns[0]!)![1]);
    // Heights in proportion to the peaks (to the rounding of 0.1 px).
    const scale = (bottom - tops[0]!) / growth.steps[0]!.peakActiveBytes;
    growth.steps.forEach((step, i) =>
      expect(bottom - tops[i]!).toBeCloseTo(step.peakActiveBytes * scale, 0),
    );
    expect(svg.lastIndexOf('nanogpt/train.py:88 train_step')).toBeGreaterThan(
      svg.indexOf('Leak suspects'),
    );
    // With the moment on screen: the title names it and its step's column is outlined, the
    // step whose events hold it (its last event here: what the step leaves behind).
    const third = growth.steps[2]!;
    const marked = renderStepsSvg(snapshot, 0, growth, {
      width: 1200,
      height,
      moment: third.endEvent,
    });
    expect(marked).toContain(
      `moment: after event ${third.endEvent.toLocaleString('en-US')} (step 3)`,
    );
    const outline = /data-mark="moment-step" x="([\d.]+)" y="([\d.]+)"/.exec(marked)!;
    const column = columns[2]!;
    expect(Number(outline[1])).toBeCloseTo(Number(/^M([\d.]+)/.exec(column)![1]), 0);
    expect(Number(outline[2])).toBeCloseTo(tops[2]!, 0);
    expect(svg).not.toContain('moment-step');
  });

  it('finds the same steps from the curve when the file records no annotations', async () => {
    for (const leak of [0, LEAK]) {
      const { snapshot } = await generated(`pattern-${leak}`, leak);
      const device = snapshot.devices[0]!;
      // Device 0 ends in an OOM: the step it aborted is a step of the curve too.
      const truth = curveSteps(snapshot, device);
      expect(truth.length).toBe(annotatedSteps(snapshot, device).length + 1);
      const found = findSteps({ annotations: [] }, device);
      expect(found.source).toBe('pattern');
      expect(Math.abs(found.steps.length - truth.length)).toBeLessThanOrEqual(1);
      // Every step found starts and ends within 1% of a step's length of a true step's.
      const length = truth[0]!.endEvent - truth[0]!.startEvent + 1;
      for (const step of found.steps) {
        const nearest = truth.reduce((best, candidate) =>
          Math.abs(candidate.startEvent - step.startEvent) <
          Math.abs(best.startEvent - step.startEvent)
            ? candidate
            : best,
        );
        expect(Math.abs(nearest.startEvent - step.startEvent), step.name).toBeLessThanOrEqual(
          length * 0.01,
        );
        expect(Math.abs(nearest.endEvent - step.endEvent), step.name).toBeLessThanOrEqual(
          length * 0.01,
        );
      }
      const growth = analyzeGrowth({ ...snapshot, annotations: [] }, device, found);
      if (leak === 0) {
        expect(growth.growing).toBe(false);
        expect(growth.suspects).toEqual([]);
        expect(growth.verdict).toMatch(/^No growth across \d+ steps/);
      } else {
        expect(growth.suspects[0]!.topFrame).toBe('nanogpt/train.py:88 train_step');
        expect(Math.abs(growth.suspects[0]!.bytesPerStep - LEAK) / LEAK).toBeLessThan(0.01);
      }
    }
  });

  it('reports no growth on the clean run with its annotations', async () => {
    const { snapshot } = await generated('clean', 0);
    const device = snapshot.devices[0]!;
    const growth = analyzeGrowth(snapshot, device, findSteps(snapshot, device));
    expect(growth.steps.length).toBeGreaterThanOrEqual(10);
    expect(growth.growing).toBe(false);
    expect(growth.suspects).toEqual([]);
    expect(growth.verdict).toMatch(/^No growth across \d+ steps/);
  });
});

describe('fitLine', () => {
  it('fits a line exactly and says how well', () => {
    expect(fitLine([3, 5, 7, 9])).toEqual({ slope: 2, intercept: 3, r2: 1 });
    expect(fitLine([4, 4, 4]).slope).toBe(0);
    expect(fitLine([0, 10, 0, 10]).r2).toBeLessThan(0.5);
  });
});

describe.each(realSnapshotPaths())('steps of %s', (path) => {
  it('lie inside the trace, in order, never overlapping, and say where they came from', async () => {
    const snapshot = await analyzeFile(path);
    for (const device of snapshot.devices) {
      const found = findSteps(snapshot, device);
      expect(found.note.length).toBeGreaterThan(0);
      expect(found.source === null).toBe(found.steps.length === 0);
      let previousEnd = -1;
      for (const step of found.steps) {
        expect(step.startEvent).toBeGreaterThan(previousEnd);
        expect(step.endEvent).toBeGreaterThanOrEqual(step.startEvent);
        expect(step.endEvent).toBeLessThan(device.traceLength);
        previousEnd = step.endEvent;
      }
      const growth = analyzeGrowth(snapshot, device, found);
      expect(growth.verdict.length).toBeGreaterThan(0);
      for (const suspect of growth.suspects) {
        expect(suspect.stepsGrown).toBeGreaterThanOrEqual(2);
        expect(suspect.totalBytes).toBe(
          suspect.rows.reduce((sum, row) => sum + device.allocations.sizeBytes[row]!, 0),
        );
      }
    }
  });
});

describe('growthVerdict', () => {
  const GiB = 2 ** 30;
  /** Steps whose ends are these levels (peaks and reserved do not enter the verdict). */
  function stepsEnding(levels: readonly number[]): StepFigures[] {
    return levels.map((bytes, index) => ({
      index,
      name: `step ${index + 1}`,
      startEvent: index * 10,
      endEvent: index * 10 + 9,
      peakActiveBytes: bytes + GiB,
      peakEvent: index * 10 + 5,
      endActiveBytes: bytes,
      endReservedBytes: bytes + 2 * GiB,
      endActiveDeltaBytes: index === 0 ? null : bytes - levels[index - 1]!,
    }));
  }
  const verdictOf = (levels: readonly number[]): string => {
    const steps = stepsEnding(levels);
    const fit = fitLine(levels);
    return growthVerdict(steps, fit, false, []);
  };

  it('names growth that climbed to a limit and stopped, not "no growth"', () => {
    const levels = [8, 9, 9, 10, 11, 11, 12, 13, 14, ...Array(40).fill(14)].map((g) => g * GiB);
    expect(verdictOf(levels)).toBe(
      'Active memory climbs from 8.0 GiB to 14.0 GiB from step 1 to step 9 (768.0 MiB per step), then holds at about 14.0 GiB for the other 40 steps: growth that stopped at a limit or a full cache.',
    );
  });

  it('says how often a level that is not growth moves, and where most', () => {
    const once = [4, 4, 4, 5, 5, 5, 5].map((g) => g * GiB);
    expect(verdictOf(once)).toBe(
      "No steady growth across 7 steps (active at the steps' ends 4.0 GiB – 5.0 GiB); the level rises by 1.0 GiB once, in step 4.",
    );
    const wobbly = [4, 5, 4, 6, 4, 5, 4].map((g) => g * GiB);
    expect(verdictOf(wobbly)).toBe(
      "No steady growth across 7 steps (active at the steps' ends 4.0 GiB – 6.0 GiB); the level moves in 6 steps, most in step 4 (+2.0 GiB).",
    );
    expect(verdictOf([4, 4, 4, 4].map((g) => g * GiB))).toBe(
      "No growth across 4 steps (active at the steps' ends 4.0 GiB – 4.0 GiB).",
    );
  });
});
