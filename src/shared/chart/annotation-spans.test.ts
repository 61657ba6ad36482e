import { describe, expect, it } from 'vitest';
import type { ExternalAnnotation } from '../snapshot/model';
import { nearestEvent, pairAnnotations, placeAnnotationSpans, spansAt } from './annotation-spans';

const mark = (stage: string, name: string, timeUs: number, device = 0): ExternalAnnotation => ({
  stage,
  name,
  timeUs,
  device,
});

describe('pairAnnotations', () => {
  it('pairs START and END by name, nested and repeated, on one device', () => {
    const spans = pairAnnotations(
      [
        mark('START', 'compile', 100),
        mark('START', 'pass', 110),
        mark('END', 'pass', 120),
        mark('START', 'pass', 130),
        mark('END', 'pass', 140),
        mark('END', 'compile', 150),
        mark('START', 'other device', 100, 1),
      ],
      0,
    );
    expect(spans).toEqual([
      { name: 'compile', startUs: 100, endUs: 150, depth: 0 },
      { name: 'pass', startUs: 110, endUs: 120, depth: 1 },
      { name: 'pass', startUs: 130, endUs: 140, depth: 1 },
    ]);
  });

  it('leaves unmatched marks open towards the ends of the trace', () => {
    const spans = pairAnnotations([mark('END', 'step', 50), mark('START', 'zero_grad', 60)], 0);
    expect(spans).toEqual([
      { name: 'step', startUs: -Infinity, endUs: 50, depth: 0 },
      { name: 'zero_grad', startUs: 60, endUs: Infinity, depth: 0 },
    ]);
  });

  it('sorts marks by time before pairing', () => {
    const spans = pairAnnotations([mark('END', 'a', 20), mark('START', 'a', 10)], 0);
    expect(spans).toEqual([{ name: 'a', startUs: 10, endUs: 20, depth: 0 }]);
  });
});

describe('placeAnnotationSpans', () => {
  const timeUs = Float64Array.from([1000, 1010, 1020, 1030]);
  const spans = [
    { name: 'before', startUs: 0, endUs: 500, depth: 0 },
    { name: 'inside', startUs: 1008, endUs: 1021, depth: 0 },
    { name: 'open', startUs: 1025, endUs: Infinity, depth: 1 },
  ];

  it('clips to the trace and drops what lies outside, in time mode', () => {
    expect(placeAnnotationSpans(spans, timeUs, 4, 'time')).toEqual([
      { name: 'inside', depth: 0, x0: 8, x1: 21 },
      { name: 'open', depth: 1, x0: 25, x1: 37.5 },
    ]);
  });

  it('snaps to the nearest events in event mode', () => {
    expect(placeAnnotationSpans(spans, timeUs, 4, 'event')).toEqual([
      { name: 'inside', depth: 0, x0: 1, x1: 2 },
      { name: 'open', depth: 1, x0: 2, x1: 4 },
    ]);
  });

  it('places nothing without times', () => {
    expect(placeAnnotationSpans(spans, null, 4, 'time')).toEqual([]);
  });

  it('lists the spans at x, outermost first', () => {
    const placed = [
      { name: 'inner', depth: 1, x0: 2, x1: 3 },
      { name: 'outer', depth: 0, x0: 0, x1: 10 },
    ];
    expect(spansAt(placed, 2.5)).toEqual(['outer', 'inner']);
    expect(spansAt(placed, 11)).toEqual([]);
  });
});

describe('nearestEvent', () => {
  it('finds the nearest time, the earlier on a tie', () => {
    const times = Float64Array.from([0, 10, 10, 40]);
    expect(nearestEvent(times, 4, -5)).toBe(0);
    expect(nearestEvent(times, 4, 4)).toBe(0);
    expect(nearestEvent(times, 4, 5)).toBe(0);
    expect(nearestEvent(times, 4, 6)).toBe(1);
    expect(nearestEvent(times, 4, 30)).toBe(3);
    expect(nearestEvent(times, 4, 99)).toBe(3);
  });
});
