// The Compare view's figures side by side on real files: two CUDA snapshots keep their reserved
// peaks and B − A; two recorded CPU profiler traces (Total Reserved 0 at every [memory] event)
// show reserved as not recorded with no difference, never 0 B; a snapshot against a CPU trace
// says which side records none. Every figure against the files' own [memory] events or the
// analysis read independently.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { alignMoments } from '../../src/shared/compare/phase-alignment';
import { sideBySideFigures } from '../../src/shared/compare/side-by-side-figures';
import { defaultDeviceIndex } from '../../src/shared/analyzed/moments';
import type { AnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { analyzeFile } from '../support/analyzed';

const PROFILER = resolve(import.meta.dirname, '../fixtures/profiler');
const CUDA = resolve(import.meta.dirname, '../fixtures/cuda-h200');

function side(snapshot: AnalyzedSnapshot) {
  const device = snapshot.devices[defaultDeviceIndex(snapshot.devices)]!;
  return { snapshot, device, source: snapshot.source };
}

/** The [memory] events' Bytes and Total Reserved, read straight from the trace. */
function memoryEventsOf(path: string): { bytes: number; reserved: number }[] {
  const trace = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as {
    traceEvents: { name?: string; args?: Record<string, number> }[];
  };
  return trace.traceEvents
    .filter((event) => event.name === '[memory]')
    .map((event) => ({ bytes: event.args!['Bytes']!, reserved: event.args!['Total Reserved']! }));
}

function peakOfRunningSum(values: readonly number[]): number {
  let sum = 0;
  let peak = 0;
  for (const value of values) peak = Math.max(peak, (sum += value));
  return peak;
}

describe('figures side by side', () => {
  it('two CPU profiler traces: reserved not recorded, no difference; active from the events', async () => {
    const leakPath = join(PROFILER, 'leak.pt.trace.json.gz');
    const cleanPath = join(PROFILER, 'clean.pt.trace.json.gz');
    // What makes it "not recorded": PyTorch wrote Total Reserved 0 at every event.
    for (const path of [leakPath, cleanPath])
      expect(new Set(memoryEventsOf(path).map((event) => event.reserved))).toEqual(new Set([0]));
    const a = side(await analyzeFile(cleanPath));
    const b = side(await analyzeFile(leakPath));
    const rows = sideBySideFigures(a, b, [], null);
    const reserved = rows.find((row) => row.name === 'peak reserved')!;
    expect(reserved).toEqual({
      name: 'peak reserved',
      a: null,
      b: null,
      delta: null,
      bytes: true,
      notRecorded:
        "Neither A nor B records reserved bytes (a profiler trace of CPU memory: the [memory] events' Total Reserved is 0 throughout)",
    });
    // The active peaks are still there, from the running sum of Bytes (Total Allocated from 0).
    const active = rows.find((row) => row.name === 'peak active')!;
    const peakA = peakOfRunningSum(memoryEventsOf(cleanPath).map((event) => event.bytes));
    const peakB = peakOfRunningSum(memoryEventsOf(leakPath).map((event) => event.bytes));
    expect([active.a, active.b, active.delta]).toEqual([peakA, peakB, peakB - peakA]);
    expect(active.notRecorded).toBeNull();
  });

  it('two CUDA snapshots keep their reserved peaks and B − A', async () => {
    const a = side(await analyzeFile(join(CUDA, 'leak.pickle')));
    const b = side(await analyzeFile(join(CUDA, 'expandable.pickle')));
    const peakA = Math.max(a.device.figures.reserved.baselineBytes, ...a.device.reservedBytes);
    const peakB = Math.max(b.device.figures.reserved.baselineBytes, ...b.device.reservedBytes);
    expect(peakA).toBeGreaterThan(0);
    const reserved = sideBySideFigures(a, b, [], null).find((row) => row.name === 'peak reserved');
    expect(reserved).toEqual({
      name: 'peak reserved',
      a: peakA,
      b: peakB,
      delta: peakB - peakA,
      bytes: true,
      notRecorded: null,
    });
  });

  it('a snapshot against a CPU trace: the trace side is not recorded, and says so', async () => {
    const snapshot = side(await analyzeFile(join(CUDA, 'leak.pickle')));
    const trace = side(await analyzeFile(join(PROFILER, 'leak.pt.trace.json.gz')));
    const phases = alignMoments(snapshot, trace, 'phases').matchedPhases;
    const forward = sideBySideFigures(snapshot, trace, phases, null);
    const reservedAB = forward.find((row) => row.name === 'peak reserved')!;
    expect(reservedAB.a).toBe(snapshot.device.figures.reserved.peakBytes);
    expect(reservedAB.b).toBeNull();
    expect(reservedAB.delta).toBeNull();
    expect(reservedAB.notRecorded).toMatch(/^B records no reserved bytes \(a profiler trace/);
    const backward = sideBySideFigures(trace, snapshot, [], null);
    const reservedBA = backward.find((row) => row.name === 'peak reserved')!;
    expect([reservedBA.a, reservedBA.b]).toEqual([
      null,
      snapshot.device.figures.reserved.peakBytes,
    ]);
    expect(reservedBA.notRecorded).toMatch(/^A records no reserved bytes/);
    // Phases both have are listed with their peaks and difference, as before.
    for (const phase of phases)
      expect(forward.find((row) => row.name === `${phase.name} peak`)).toMatchObject({
        a: phase.a.peakActiveBytes,
        b: phase.b.peakActiveBytes,
        delta: phase.deltaBytes,
      });
  });

  it('a memory timeline says why it records none', async () => {
    const timeline = side(await analyzeFile(join(PROFILER, 'leak.memory-timeline.json')));
    const snapshot = side(await analyzeFile(join(CUDA, 'oom.pickle')));
    const reserved = sideBySideFigures(snapshot, timeline, [], null).find(
      (row) => row.name === 'peak reserved',
    )!;
    expect(reserved.notRecorded).toBe(
      'B records no reserved bytes (a memory timeline records no reserved bytes)',
    );
    expect(reserved.a).toBe(snapshot.device.figures.reserved.peakBytes);
  });
});
