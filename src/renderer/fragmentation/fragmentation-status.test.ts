import { describe, expect, it } from 'vitest';
import { testDevice } from '../../../test/support/builders/analyzed-device';
import { fragmentationStatusText, hoverText } from './fragmentation-status';

const device = testDevice();
const ready = {
  computing: false,
  done: 0,
  total: 0,
  hoverEvent: null,
  sampleCount: 600,
  windowSampleCount: null,
};

describe('fragmentationStatusText', () => {
  it('shows the sampling progress while computing', () => {
    expect(fragmentationStatusText(device, { ...ready, computing: true, done: 1, total: 3 })).toBe(
      'Sampling the allocator state… 33%',
    );
    expect(fragmentationStatusText(device, { ...ready, computing: true })).toBe(
      'Sampling the allocator state…',
    );
  });

  it('describes the hovered moment', () => {
    expect(fragmentationStatusText(device, { ...ready, hoverEvent: 1 })).toBe(hoverText(device, 1));
    expect(hoverText(device, 1)).toBe('event 1 · 100 µs · reserved − active 5.0 KiB');
  });

  it('counts the samples, with the window’s', () => {
    expect(fragmentationStatusText(device, ready)).toBe(
      '600 sampled moments · click to select a moment',
    );
    expect(
      fragmentationStatusText(device, { ...ready, sampleCount: 1, windowSampleCount: 1200 }),
    ).toBe('1 sampled moment (+1,200 in view) · click to select a moment');
  });
});
