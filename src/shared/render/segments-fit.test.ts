import { describe, expect, it } from 'vitest';
import type { FlowConfig, FlowLayout } from './segments-flow';
import { fitSegmentsFlow, fitToHeight } from './segments-fit';

/**
 * A stand-in for the flow: 1000 bytes of bars on lines of 100 px below a 100 px header, each
 * line as tall as its bars plus 5 px.
 */
function layoutWith(config: FlowConfig): FlowLayout {
  const lines = Math.ceil(1000 / config.bytesPerPixel / 100);
  return { bars: [], groups: [], height: 100 + lines * (config.barHeight + 5) };
}

describe('fitSegmentsFlow', () => {
  it('grows the document to fit without a height', () => {
    const fitted = fitSegmentsFlow(layoutWith, 1, undefined);
    expect(fitted.config).toEqual({ bytesPerPixel: 1, barHeight: 18, labels: true });
    expect(fitted.height).toBe(100 + 10 * 23 + 16);
  });

  it('gives few bars taller bars when the height leaves room', () => {
    const fitted = fitSegmentsFlow(layoutWith, 10, 600);
    expect(fitted.config.barHeight).toBe(56);
    expect(fitted.height).toBe(600);
  });

  it('shrinks and packs the bars to fit a given height', () => {
    const fitted = fitSegmentsFlow(layoutWith, 1, 200);
    expect(fitted.height).toBe(200);
    expect(fitted.layout.height).toBeLessThanOrEqual(200 - 16);
    expect(fitted.config.barHeight).toBe(18);
    expect(fitted.config.bytesPerPixel).toBeGreaterThan(1);
  });
});

describe('fitToHeight', () => {
  it('falls back to the most compact layout when nothing fits', () => {
    const fitted = fitToHeight(layoutWith, 1, 50);
    expect(fitted.config.barHeight).toBe(2);
    expect(fitted.layout.height).toBe(107);
  });
});
