import { describe, expect, it } from 'vitest';
import { ActionCode, type DeviceTrace } from '../snapshot/model';
import { activeDeltaSigns, freeingActionsOf, reservedDeltaSigns } from './action-semantics';
import {
  computeCurveStats,
  computeDeviceCurveStats,
  materializeCurve,
  materializeCurves,
} from './curve-stats';

function trace(entries: [keyof typeof ActionCode, number][]): DeviceTrace {
  return {
    device: 0,
    length: entries.length,
    action: Uint8Array.from(entries.map(([action]) => ActionCode[action])),
    addr: new Float64Array(entries.length),
    sizeBytes: Float64Array.from(entries.map(([, size]) => size)),
    streamId: new Uint32Array(entries.length),
    timeUs: new Float64Array(entries.length).fill(NaN),
    stackId: new Int32Array(entries.length).fill(-1),
    deviceFreeBytes: new Map(),
    compileContextId: null,
    userMetadataId: null,
  };
}

describe('computeCurveStats', () => {
  it('anchors on the final state: baseline = final - Σ deltas, first peak index', () => {
    const t = trace([
      ['alloc', 100],
      ['free_requested', 100],
      ['free_completed', 100],
      ['alloc', 300],
      ['alloc', 50],
      ['free_completed', 50],
      ['alloc', 50],
    ]);
    const signs = activeDeltaSigns(freeingActionsOf(t));
    const stats = computeCurveStats(t, signs, 1000);
    // Σ deltas = 100 - 100 + 300 + 50 - 50 + 50 = 350 → baseline 650; values 750 750 650 950 1000 950 1000 (free_requested does not count when free_completed exists).
    expect(stats).toEqual({
      finalBytes: 1000,
      baselineBytes: 650,
      peakBytes: 1000,
      peakEventIndex: 4,
      clampedByBytes: 0,
    });
    expect([...materializeCurve(t, signs, stats)]).toEqual([750, 750, 650, 950, 1000, 950, 1000]);
  });

  it('uses free_requested when the trace has no free_completed', () => {
    const t = trace([
      ['alloc', 10],
      ['free_requested', 10],
    ]);
    expect(computeCurveStats(t, activeDeltaSigns(freeingActionsOf(t)), 0)).toMatchObject({
      baselineBytes: 0,
      peakBytes: 10,
      peakEventIndex: 0,
    });
  });

  it('raises an inconsistent curve so it never goes below zero', () => {
    const t = trace([
      ['segment_free', 500],
      ['segment_alloc', 100],
    ]);
    // final 0 → unclamped baseline 400, after entry 0: -100. Raised by 100.
    const stats = computeCurveStats(t, reservedDeltaSigns(), 0);
    expect(stats).toEqual({
      finalBytes: 0,
      baselineBytes: 500,
      peakBytes: 500,
      peakEventIndex: -1,
      clampedByBytes: 100,
    });
  });

  it('reports -1 when the baseline is the peak, including an empty trace', () => {
    expect(computeCurveStats(trace([]), reservedDeltaSigns(), 42)).toMatchObject({
      baselineBytes: 42,
      peakBytes: 42,
      peakEventIndex: -1,
    });
  });
});

/** Deterministic pseudo-random numbers (xorshift32). */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

const ACTIONS = Object.keys(ActionCode) as (keyof typeof ActionCode)[];

function randomTrace(random: () => number, length: number): DeviceTrace {
  return trace(
    Array.from({ length }, () => [
      ACTIONS[Math.floor(random() * ACTIONS.length)]!,
      // Sizes up to 2^40, some odd: the sums stay exact, as with real byte counts.
      Math.floor(random() * 2 ** 40) + (random() < 0.5 ? 1 : 0),
    ]),
  );
}

describe('computeDeviceCurveStats', () => {
  it('gives both curves and the action counts as separate passes do', () => {
    const random = randomSource(7);
    for (let trial = 0; trial < 100; trial++) {
      const t = randomTrace(random, Math.floor(random() * 300));
      const activeSigns = activeDeltaSigns(freeingActionsOf(t));
      const reservedSigns = reservedDeltaSigns();
      // Finals from 0 (the curves get clamped) to well above the deltas.
      const finalActive = random() < 0.3 ? 0 : Math.floor(random() * 2 ** 45);
      const finalReserved = random() < 0.3 ? 0 : Math.floor(random() * 2 ** 45);
      const counts = new Uint32Array(256);
      for (const code of t.action) counts[code]!++;
      expect(
        computeDeviceCurveStats(t, activeSigns, finalActive, reservedSigns, finalReserved),
      ).toEqual({
        active: computeCurveStats(t, activeSigns, finalActive),
        reserved: computeCurveStats(t, reservedSigns, finalReserved),
        actionCounts: counts,
      });
    }
  });
});

describe('materializeCurves', () => {
  it('gives both curves as materializeCurve does, value for value', () => {
    const random = randomSource(11);
    for (let trial = 0; trial < 100; trial++) {
      const t = randomTrace(random, Math.floor(random() * 300));
      const activeSigns = activeDeltaSigns(freeingActionsOf(t));
      const reservedSigns = reservedDeltaSigns();
      const active = computeCurveStats(t, activeSigns, Math.floor(random() * 2 ** 45));
      const reserved = computeCurveStats(t, reservedSigns, Math.floor(random() * 2 ** 45));
      const curves = materializeCurves(t, activeSigns, active, reservedSigns, reserved);
      expect(curves.active).toEqual(materializeCurve(t, activeSigns, active));
      expect(curves.reserved).toEqual(materializeCurve(t, reservedSigns, reserved));
    }
  });
});
