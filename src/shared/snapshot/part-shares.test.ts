import { describe, expect, it } from 'vitest';
import {
  MEASURED_PART_COSTS,
  partShares,
  projectedDecodeTime,
  type PartCosts,
} from './part-shares';

/**
 * An independent schedule of a decode in parts: the time the spine ends, and how long it waited,
 * for parts beginning at `starts` (fractions), stepping each thread's work in order.
 */
function simulate(starts: readonly number[], costs: PartCosts): { end: number; waited: number } {
  const bounds = [0, ...starts, 1];
  const sizes = bounds.slice(1).map((end, part) => end - bounds[part]!);
  // Worker k scans part k-1 from time 0; it decodes once every part before its own is scanned.
  const scanned = sizes.slice(0, -1).map((size) => costs.scan * size);
  const ready = sizes.map((size, part) =>
    part === 0 ? 0 : Math.max(...scanned.slice(0, part)) + costs.part * size,
  );
  let time = sizes[0]!;
  let waited = 0;
  for (let part = 1; part < sizes.length; part++) {
    if (ready[part]! > time) {
      waited += ready[part]! - time;
      time = ready[part]!;
    }
    time += costs.takeIn * sizes[part]!;
  }
  return { end: time, waited };
}

describe('part shares', () => {
  it.each([2, 3, 4, 8, 16, 32])('keep the spine from waiting at %i parts', (parts) => {
    const starts = partShares(parts);
    expect(starts).toHaveLength(parts - 1);
    starts.forEach((start, index) => {
      expect(start).toBeGreaterThan(index === 0 ? 0 : starts[index - 1]!);
      expect(start).toBeLessThan(1);
    });
    const planned = simulate(starts, MEASURED_PART_COSTS);
    expect(planned.waited).toBeLessThan(1e-9);
    expect(planned.end).toBeCloseTo(projectedDecodeTime(parts), 9);
    // Equal parts make the spine wait for the workers' scans and their dearer bytes.
    const equal = simulate(
      Array.from({ length: parts - 1 }, (_, index) => (index + 1) / parts),
      MEASURED_PART_COSTS,
    );
    expect(equal.end).toBeGreaterThan(planned.end);
  });

  it('give the spine a larger first part and project the speed-ups the docs quote', () => {
    expect(partShares(2)[0]).toBeCloseTo(1 / (1 + (1 - 0.3) / 1), 9);
    const speedUps = [2, 8, 32].map((parts) => 1 / projectedDecodeTime(parts));
    // docs/parallel-decode.md and the README quote these, rounded to one decimal.
    expect(speedUps.map((speedUp) => speedUp.toFixed(1))).toEqual(['1.6', '4.6', '9.1']);
  });

  it('are free costs: with no scan, no take-in and parts as dear as the spine, equal', () => {
    const free = { scan: 0, part: 1, takeIn: 0 };
    expect(partShares(4, free)).toEqual([0.25, 0.5, 0.75]);
    expect(projectedDecodeTime(4, free)).toBeCloseTo(0.25, 12);
  });

  it('give no cut to one part', () => {
    expect(partShares(1)).toEqual([]);
    expect(projectedDecodeTime(1)).toBe(1);
  });
});
