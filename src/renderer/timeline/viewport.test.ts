import { describe, expect, it } from 'vitest';
import { clampDomain, domainsEqual, panBy, wheelZoomFactor, zoomAround } from './viewport';

const bounds = { min: 0, max: 1000, minSpan: 10 };

describe('zoomAround', () => {
  it('keeps the anchor at the same screen fraction', () => {
    const next = zoomAround({ x0: 0, x1: 1000 }, 250, 2, bounds);
    expect(next).toEqual({ x0: 125, x1: 625 });
    expect((250 - next.x0) / (next.x1 - next.x0)).toBeCloseTo(0.25);
  });

  it('zooming in then out by the same factor returns to the start', () => {
    const start = { x0: 200, x1: 600 };
    const back = zoomAround(zoomAround(start, 300, 3, bounds), 300, 1 / 3, bounds);
    expect(domainsEqual(back, start, 1e-12)).toBe(true);
  });

  it('stops at the smallest span and at the full range', () => {
    expect(zoomAround({ x0: 0, x1: 1000 }, 500, 1e6, bounds)).toEqual({ x0: 495, x1: 505 });
    expect(zoomAround({ x0: 100, x1: 200 }, 150, 1e-6, bounds)).toEqual({ x0: 0, x1: 1000 });
  });

  it('zooming out near an edge slides the window back inside', () => {
    const next = zoomAround({ x0: 900, x1: 1000 }, 990, 0.5, bounds);
    expect(next).toEqual({ x0: 800, x1: 1000 });
  });

  it('ignores nonsense factors', () => {
    expect(zoomAround({ x0: 10, x1: 20 }, 15, 0, bounds)).toEqual({ x0: 10, x1: 20 });
    expect(zoomAround({ x0: 10, x1: 20 }, 15, NaN, bounds)).toEqual({ x0: 10, x1: 20 });
  });
});

describe('panBy and clampDomain', () => {
  it('pans and stops at the ends without changing the span', () => {
    expect(panBy({ x0: 100, x1: 200 }, 50, bounds)).toEqual({ x0: 150, x1: 250 });
    expect(panBy({ x0: 100, x1: 200 }, -500, bounds)).toEqual({ x0: 0, x1: 100 });
    expect(panBy({ x0: 100, x1: 200 }, 5000, bounds)).toEqual({ x0: 900, x1: 1000 });
  });

  it('repairs empty, inverted and oversized domains', () => {
    expect(clampDomain({ x0: 5, x1: 5 }, bounds)).toEqual({ x0: 0, x1: 1000 });
    expect(clampDomain({ x0: 50, x1: 10 }, bounds)).toEqual({ x0: 0, x1: 1000 });
    expect(clampDomain({ x0: -100, x1: 5000 }, bounds)).toEqual({ x0: 0, x1: 1000 });
    expect(clampDomain({ x0: 500, x1: 502 }, bounds)).toEqual({ x0: 500, x1: 510 });
  });

  it('allows a full range smaller than the smallest span', () => {
    const tiny = { min: -1, max: 0, minSpan: 8 };
    expect(clampDomain({ x0: -1, x1: 0 }, tiny)).toEqual({ x0: -1, x1: 0 });
    expect(zoomAround({ x0: -1, x1: 0 }, -0.5, 4, tiny)).toEqual({ x0: -1, x1: 0 });
  });
});

describe('wheelZoomFactor', () => {
  it('zooms in on a negative delta, out on a positive one, symmetrically', () => {
    const inward = wheelZoomFactor(-100, 0, false);
    expect(inward).toBeGreaterThan(1);
    expect(inward * wheelZoomFactor(100, 0, false)).toBeCloseTo(1);
  });

  it('scales line and page deltas and amplifies pinches', () => {
    expect(wheelZoomFactor(-3, 1, false)).toBeCloseTo(wheelZoomFactor(-48, 0, false));
    expect(wheelZoomFactor(-1, 2, false)).toBeCloseTo(wheelZoomFactor(-400, 0, false));
    expect(wheelZoomFactor(-10, 0, true)).toBeGreaterThan(wheelZoomFactor(-10, 0, false));
  });
});
