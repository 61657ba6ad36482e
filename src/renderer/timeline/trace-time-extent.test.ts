import { describe, expect, it } from 'vitest';
import { pairAnnotations, placeAnnotationSpans } from '@shared/chart/annotation-spans';
import { relativeTimes } from '@shared/analyzed/device-times';
import { hasUsableTimes } from '@shared/chart/event-axis';
import { countSpansInTrace, traceTimeExtent } from './trace-time-extent';

const times = (values: number[]): Float64Array => Float64Array.from(values);

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

const cases: [string, Float64Array | null, number][] = [
  ['no times', null, 3],
  ['empty trace', times([]), 0],
  ['shorter than the trace', times([1, 2]), 3],
  ['NaN first', times([NaN, 5, 6]), 3],
  ['all equal', times([5, 5, 5]), 3],
  ['increasing', times([10, 20, 35]), 3],
  ['one event', times([7]), 1],
  ['going back and forth', times([100, 90, 130, 120, 125]), 5],
  ['NaN inside', times([100, NaN, 104, NaN]), 4],
  ['only a prefix used', times([1, 2, 3, 1000]), 3],
  ['tiny span', times([1e15, 1e15 + 1, 1e15 + 1]), 3],
];

describe('traceTimeExtent', () => {
  it.each(cases)('agrees with relativeTimes: %s', (_name, timeUs, length) => {
    const extent = traceTimeExtent(timeUs, length);
    const relative = relativeTimes(timeUs, length);
    expect(extent !== null).toBe(hasUsableTimes({ timeUs, traceLength: length }));
    if (relative === null) {
      expect(extent).toBeNull();
    } else {
      expect(extent).toEqual({ firstUs: timeUs![0], lastX: relative[length] });
    }
  });

  it('agrees with relativeTimes on random traces', () => {
    const random = randomSource(12345);
    for (let trial = 0; trial < 200; trial++) {
      const length = 1 + Math.floor(random() * 50);
      const values = Array.from({ length }, () =>
        random() < 0.1 ? NaN : 1.7e15 + Math.floor(random() * 1e6),
      );
      const timeUs = times(values);
      const relative = relativeTimes(timeUs, length);
      const extent = traceTimeExtent(timeUs, length);
      expect(extent === null ? null : extent.lastX).toBe(
        relative === null ? null : relative[length],
      );
    }
  });
});

describe('countSpansInTrace', () => {
  it('counts the spans placeAnnotationSpans places, in either mode', () => {
    const random = randomSource(99);
    for (let trial = 0; trial < 200; trial++) {
      const length = 1 + Math.floor(random() * 30);
      const base = 1.7e15;
      const timeUs = times(
        Array.from({ length }, (_, i) => base + i * 10 + Math.floor(random() * 5)),
      );
      const annotations = Array.from({ length: Math.floor(random() * 8) }, () => ({
        stage: random() < 0.5 ? 'START' : 'END',
        name: random() < 0.5 ? 'forward' : 'backward',
        device: random() < 0.8 ? 0 : 1,
        timeUs: base - 200 + Math.floor(random() * (length * 10 + 400)),
      }));
      const spans = pairAnnotations(annotations, 0);
      const extent = traceTimeExtent(timeUs, length);
      for (const mode of ['time', 'event'] as const) {
        expect(countSpansInTrace(spans, extent)).toBe(
          placeAnnotationSpans(spans, timeUs, length, mode).length,
        );
      }
    }
  });

  it('places nothing without usable times', () => {
    const spans = pairAnnotations([{ stage: 'START', name: 'a', device: 0, timeUs: 5 }], 0);
    expect(countSpansInTrace(spans, traceTimeExtent(null, 3))).toBe(0);
    expect(countSpansInTrace(spans, traceTimeExtent(times([5, 5]), 2))).toBe(0);
  });
});
