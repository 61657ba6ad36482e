// Bands that touch in the picture never share a colour or a near one, on the real snapshots, by
// stack and by allocation, in both themes. Which bands touch is found here from the bands'
// geometry (the steps of their bottoms), not from the layout's own adjacency list.

import { describe, expect, it } from 'vitest';
import { analyzeFile } from '../../../test/support/analyzed';
import { realSnapshotPaths } from '../../../test/support/real-snapshots';
import { BAND_CLASHES, palette, THEME_NAMES } from '../render/palette';
import {
  ALLOCATION_COLORING,
  colorDifference,
  stackColoring,
  hexOfIndex,
  MIN_NEIGHBOUR_DIFFERENCE,
  resolveBandColors,
  allocationColorIndex,
  bandColorIndex,
} from './band-colors';
import { layoutTimeline, stepValueAt, type TimelineLayout } from './timeline-layout';
import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';

function fullLayout(device: AnalyzedDevice, maxBands: number): TimelineLayout {
  const start = device.traceLength === 0 ? -1 : -1;
  const end = Math.max(device.traceLength, 1);
  const columns = 200;
  const columnStartEvents = Int32Array.from({ length: columns + 1 }, (_, i) =>
    Math.round(start + ((end - start) * i) / columns),
  );
  return layoutTimeline({ device, startEvent: start, endEvent: end, columnStartEvents, maxBands });
}

/** Pairs of band indexes whose areas meet (one's top is the other's bottom) at some event. */
function touchingPairs(layout: TimelineLayout, device: AnalyzedDevice): [number, number][] {
  const table = device.allocations;
  const events = new Set<number>();
  for (const band of layout.bands) for (const event of band.stepEvents) events.add(event);
  const pairs = new Set<string>();
  for (const event of events) {
    const alive = layout.bands
      .map((band, index) => ({ band, index }))
      .filter(
        ({ band }) =>
          Math.max(table.startEvent[band.row]!, layout.startEvent) <= event &&
          band.endEvent > event &&
          band.sizeBytes > 0,
      )
      .map(({ band, index }) => ({
        index,
        bottom: stepValueAt(band, event),
        top: 0,
        size: band.sizeBytes,
      }))
      .sort((a, b) => a.bottom - b.bottom);
    for (let i = 1; i < alive.length; i++) {
      const below = alive[i - 1]!;
      const above = alive[i]!;
      if (below.bottom + below.size === above.bottom)
        pairs.add(`${Math.min(below.index, above.index)},${Math.max(below.index, above.index)}`);
    }
  }
  return [...pairs].map((pair) => pair.split(',').map(Number) as [number, number]);
}

describe.each(realSnapshotPaths())('band colours of %s', (path) => {
  it('keep touching bands of different stacks (or allocations) apart in both themes', async () => {
    const snapshot = await analyzeFile(path);
    for (const device of snapshot.devices) {
      const layout = fullLayout(device, 400);
      const pairs = touchingPairs(layout, device);
      const stackIds = device.allocations.stackId;
      for (const coloring of [stackColoring(stackIds), ALLOCATION_COLORING]) {
        const colorBy = coloring.name;
        const colors = resolveBandColors(layout, coloring, BAND_CLASHES);
        const keyOf = (index: number): number => coloring.keyOfRow(layout.bands[index]!.row);
        let checked = 0;
        for (const [a, b] of pairs) {
          if (keyOf(a) === keyOf(b)) continue;
          // Stackless allocations coloured by stack are hatched, told apart by the hatch.
          if (colors[a]! < 0 || colors[b]! < 0) continue;
          for (const theme of THEME_NAMES) {
            const bands = palette(theme).timeline.bands;
            const difference = colorDifference(
              hexOfIndex(colors[a]!, bands),
              hexOfIndex(colors[b]!, bands),
            );
            expect(difference, `${colorBy} ${theme} bands ${a}/${b}`).toBeGreaterThanOrEqual(
              MIN_NEIGHBOUR_DIFFERENCE,
            );
          }
          checked++;
        }
        // A key keeps one colour everywhere in the picture.
        const colorOfKey = new Map<number, number>();
        layout.bands.forEach((_, index) => {
          const key = keyOf(index);
          expect(colorOfKey.get(key) ?? colors[index]).toBe(colors[index]);
          colorOfKey.set(key, colors[index]!);
        });
        expect(checked).toBeGreaterThanOrEqual(0);
      }
    }
  });
});

describe('preferred band colours', () => {
  it('cycle through the palette by allocation and spread stacks by a hash', () => {
    expect([0, 1, 2, 24, 25].map(allocationColorIndex)).toEqual([0, 1, 2, 0, 1]);
    expect(bandColorIndex(-1)).toBe(-1);
    const used = new Set(Array.from({ length: 300 }, (_, id) => bandColorIndex(id)));
    expect(used.size).toBe(24);
  });

  it('do not clash with themselves or their far neighbours in the cycle', () => {
    const n = 24;
    for (let i = 0; i < n; i++) expect(BAND_CLASHES[i * n + i]).toBe(1);
    // Consecutive entries of the cycle (what consecutive allocations get) never clash.
    for (let i = 0; i + 1 < n; i++) expect(BAND_CLASHES[i * n + i + 1], `entry ${i}`).toBe(0);
  });
});
