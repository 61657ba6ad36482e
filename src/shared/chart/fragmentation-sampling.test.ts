import { describe, expect, it } from 'vitest';
import { testDevice } from '../../../test/support/builders/analyzed-device';
import { fullTraceMoments, windowSamples, zoomedRange } from './fragmentation-sampling';

describe('fullTraceMoments', () => {
  it('samples every moment of a short trace, the peak and the OOMs among them', () => {
    expect(Array.from(fullTraceMoments(testDevice()))).toEqual([-1, 0, 1, 2, 3]);
  });
});

describe('zoomedRange', () => {
  const device = { traceLength: 1000 };

  it('gives a window under half the trace its own samples', () => {
    expect(zoomedRange(device, { startEvent: 100.5, endEvent: 300.2 })).toEqual([100, 301]);
  });

  it('leaves wide windows, no window and tiny traces to the whole trace’s samples', () => {
    expect(zoomedRange(device, { startEvent: 0, endEvent: 500 })).toBeNull();
    expect(zoomedRange(device, null)).toBeNull();
    expect(zoomedRange({ traceLength: 1 }, { startEvent: 0, endEvent: 0.2 })).toBeNull();
  });
});

describe('windowSamples', () => {
  it('takes every moment of a short window and the one before it', () => {
    expect(Array.from(windowSamples(10, 14))).toEqual([9, 10, 11, 12, 13]);
    expect(Array.from(windowSamples(0, 3))).toEqual([0, 1, 2]);
  });

  it('spreads at most 300 samples over a long window, both ends included', () => {
    const samples = windowSamples(1000, 101_000);
    expect(samples.length).toBe(301);
    expect(samples[0]).toBe(999);
    expect(samples[1]).toBe(1000);
    expect(samples.at(-1)).toBe(100_999);
  });
});
