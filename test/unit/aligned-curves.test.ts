// Two curves on one axis (src/shared/compare/aligned-curves.ts) on every real snapshot: by event
// index each bucket holds the most the curve held in its events (counted here over the raw
// curve), the highest bucket is the device's active peak, by time as well; a device against
// itself differs by zero wherever both have data, by step too; a side with no data in a bucket
// (a shorter trace) leaves it empty, and the difference with it.

import { describe, expect, it } from 'vitest';
import { alignCurves, canAlign } from '../../src/shared/compare/aligned-curves';
import { findSteps } from '../../src/shared/steps/find-steps';
import { analyzeFile } from '../support/analyzed';
import { realSnapshotPaths } from '../support/real-snapshots';

const finiteMax = (values: Float64Array): number =>
  Math.max(...Array.from(values).filter(Number.isFinite));

describe.each(realSnapshotPaths())('aligned curves of %s', (path) => {
  it('hold the curve’s envelope, its peak, and differ by zero from themselves', async () => {
    const snapshot = await analyzeFile(path);
    for (const device of snapshot.devices) {
      if (device.traceLength === 0) continue;
      const side = { device, steps: findSteps(snapshot, device).steps };
      const byEvent = alignCurves(side, side, 'event', 400);
      for (let i = 0; i < byEvent.x.length; i++) {
        const start = Math.floor(byEvent.x[i]!);
        const end = Math.min(
          device.traceLength,
          Math.max(start + 1, Math.floor(byEvent.x[i]! + byEvent.bucket)),
        );
        let most = -Infinity;
        for (let event = start; event < end; event++)
          most = Math.max(most, device.activeBytes[event]!);
        if (start >= device.traceLength) expect(byEvent.a[i]).toBeNaN();
        else expect(byEvent.a[i], `bucket ${i}`).toBe(most);
      }
      const peak = device.figures.active.peakEventIndex;
      if (peak >= 0) expect(finiteMax(byEvent.a)).toBe(device.figures.active.peakBytes);
      for (const alignBy of ['event', 'time', 'step'] as const) {
        if (!canAlign(side, side, alignBy)) continue;
        const curves = alignCurves(side, side, alignBy, 300);
        for (const value of curves.difference) if (!Number.isNaN(value)) expect(value).toBe(0);
        if (alignBy === 'time' && peak >= 0)
          expect(finiteMax(curves.a)).toBe(device.figures.active.peakBytes);
      }
    }
  });
});

describe('aligned curves of two lengths', () => {
  it('leave the shorter side empty past its end, and the difference with it', async () => {
    const [first, second] = await Promise.all(
      realSnapshotPaths()
        .filter((path) => /LINYUN|a0kuma/.test(path))
        .map(analyzeFile),
    );
    const sides = [first!, second!].map((snapshot) => ({
      device: snapshot.devices[0]!,
      steps: [],
    }));
    const [long, short] = sides.sort((a, b) => b.device.traceLength - a.device.traceLength);
    const curves = alignCurves(long!, short!, 'event', 200);
    const lastShort = curves.x.findIndex((x) => x >= short!.device.traceLength);
    expect(lastShort).toBeGreaterThan(-1);
    expect(curves.b[lastShort]).toBeNaN();
    expect(curves.difference[lastShort]).toBeNaN();
    expect(curves.a[lastShort]).not.toBeNaN();
    expect(curves.difference[0]).toBe(curves.b[0]! - curves.a[0]!);
  });
});
