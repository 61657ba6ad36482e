import { describe, expect, it } from 'vitest';
import { ActionCode, type DeviceTrace } from '../snapshot/model';
import { activeDeltaSigns, freeingActionsOf, reservedDeltaSigns } from './action-semantics';
import { computeCurveStats, materializeCurve } from './curve-stats';

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
