// The timeline coloured by a grouping of the holders (src/shared/holders/band-coloring.ts), on every
// real snapshot: each band takes the colour of its group and nothing else; the groups the legend
// names are the largest at the active peak by an independent count, each with a colour of its own
// that no other named group shares; every other group is drawn in the neutral colour the legend
// calls "other groups"; by category, each allocation's colour is its category's (independently
// classified), in the app's canvas colouring and in the exported SVG alike.

import { describe, expect, it } from 'vitest';
import type { AnalyzedDevice } from '../../src/shared/analyzed/analyzed-snapshot';
import {
  colorDifference,
  DISTINCT_COLORS,
  hexOfIndex,
  MIN_NEIGHBOUR_DIFFERENCE,
  NEUTRAL_COLOR,
  NO_STACK_COLOR,
  resolveBandColors,
} from '../../src/shared/chart/band-colors';
import { layoutTimeline } from '../../src/shared/chart/timeline-layout';
import {
  bandColoring,
  COLOR_BYS,
  coloringLegend,
  legendName,
  OTHER_GROUPS,
  type ColorBy,
} from '../../src/shared/holders/band-coloring';
import { CATEGORIES, CATEGORY_COLOR_INDEX } from '../../src/shared/holders/categories';
import { categoriesOf, categoryAt } from '../../src/shared/holders/classify';
import { GROUP_BYS, groupKeyOf } from '../../src/shared/holders/group-by';
import { BAND_CLASHES, palette, THEME_NAMES } from '../../src/shared/render/palette';
import { renderTimelineSvg } from '../../src/shared/render/timeline-svg';
import { analyzeFile } from '../support/analyzed';
import { realSnapshotPath, realSnapshotPaths } from '../support/real-snapshots';

/** Bytes of each group alive after the peak, counted row by row over the whole table. */
function bruteGroupsAtPeak(
  device: AnalyzedDevice,
  keyOf: (row: number) => string,
  skipStackless: boolean,
): Map<string, number> {
  const peak = device.traceLength === 0 ? -1 : device.figures.active.peakEventIndex;
  const table = device.allocations;
  const bytes = new Map<string, number>();
  for (let row = 0; row < table.count; row++) {
    if (table.startEvent[row]! > peak || table.endEvent[row]! <= peak) continue;
    if (skipStackless && table.stackId[row]! < 0) continue;
    const key = keyOf(row);
    bytes.set(key, (bytes.get(key) ?? 0) + table.sizeBytes[row]!);
  }
  return bytes;
}

function fullLayout(device: AnalyzedDevice) {
  const end = Math.max(1, device.traceLength);
  const columns = 300;
  return layoutTimeline({
    device,
    startEvent: device.traceLength === 0 ? -1 : 0,
    endEvent: end,
    columnStartEvents: Int32Array.from({ length: columns }, (_, i) =>
      Math.floor((i * end) / columns),
    ),
    maxBands: 2000,
  });
}

describe('colour by', () => {
  it('offers every grouping of the holders, by stack and by allocation', () => {
    expect(new Set<string>(COLOR_BYS)).toEqual(new Set<string>([...GROUP_BYS, 'allocation']));
  });

  it('gives named groups colours far apart from each other and from the neutral and no-stack looks', () => {
    for (const theme of THEME_NAMES) {
      const { bands, other } = palette(theme).timeline;
      // (The no-stack look is also hatched: it is told apart by the hatch, as by stack.)
      const looks = [...DISTINCT_COLORS, NEUTRAL_COLOR];
      for (let i = 0; i < looks.length; i++)
        for (let j = i + 1; j < looks.length; j++)
          expect(
            colorDifference(hexOfIndex(looks[i]!, bands), hexOfIndex(looks[j]!, bands)),
            `${theme}: ${looks[i]} / ${looks[j]}`,
          ).toBeGreaterThanOrEqual(MIN_NEIGHBOUR_DIFFERENCE);
      // The neutral groups never read as the merged "smaller allocations" area.
      expect(colorDifference(bands.neutral, other)).toBeGreaterThanOrEqual(10);
    }
    // Each category has its own colour.
    expect(new Set(CATEGORIES.map((category) => CATEGORY_COLOR_INDEX[category])).size).toBe(
      CATEGORIES.length,
    );
  });

  it('writes long names by their end', () => {
    expect(legendName('train.py:40 main')).toBe('train.py:40 main');
    const long = 'cs336_systems/very/deep/path/benchmark_nvtx.py:169 run_step';
    const short = legendName(long);
    expect(short.startsWith('…')).toBe(true);
    expect(long.endsWith(short.slice(1))).toBe(true);
    expect(short.length).toBeLessThan(long.length);
  });
});

describe.each(realSnapshotPaths())('the timeline of %s coloured by a grouping', (path) => {
  it('draws each band in its group’s colour, the largest groups at the peak named', async () => {
    const snapshot = await analyzeFile(path);
    for (const device of snapshot.devices) {
      const layout = fullLayout(device);
      const stackIds = device.allocations.stackId;
      for (const by of COLOR_BYS.filter(
        (colorBy) => colorBy !== 'stack' && colorBy !== 'allocation',
      )) {
        const coloring = bandColoring(snapshot, device, by);
        const legend = coloringLegend(coloring)!;
        expect(legend, by).not.toBeNull();
        const colors = resolveBandColors(layout, coloring, BAND_CLASHES);
        if (by === 'category') {
          // Independent classification: each band's colour is its category's.
          const column = categoriesOf(snapshot, device);
          layout.bands.forEach((band, index) => {
            expect(colors[index], `row ${band.row}`).toBe(
              CATEGORY_COLOR_INDEX[categoryAt(column, band.row)],
            );
          });
          expect(legend.map((entry) => entry.color)).toEqual(
            CATEGORIES.map((category) => CATEGORY_COLOR_INDEX[category]),
          );
          continue;
        }
        const fromStack = by === 'frame' || by === 'file';
        const keyOf = groupKeyOf(snapshot, device, by);
        const peak = [...bruteGroupsAtPeak(device, keyOf, fromStack)].sort(
          (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1),
        );
        const named = legend.filter((entry) => entry.name !== OTHER_GROUPS);
        // The named groups are the largest at the peak, in order, with their bytes there.
        expect(
          named.map((entry) => [entry.name, entry.peakBytes]),
          by,
        ).toEqual(peak.slice(0, DISTINCT_COLORS.length));
        expect(new Set(named.map((entry) => entry.color)).size).toBe(named.length);
        // "Other groups" is named exactly when some allocation is in a group not named.
        const others = Array.from({ length: device.allocations.count }, (_, row) => row).some(
          (row) =>
            !(fromStack && stackIds[row]! < 0) && !named.some((entry) => entry.name === keyOf(row)),
        );
        expect(legend.some((entry) => entry.name === OTHER_GROUPS)).toBe(others);
        const colorOfName = new Map(named.map((entry) => [entry.name, entry.color]));
        layout.bands.forEach((band, index) => {
          const expected =
            fromStack && stackIds[band.row]! < 0
              ? NO_STACK_COLOR
              : (colorOfName.get(keyOf(band.row)) ?? NEUTRAL_COLOR);
          expect(colors[index], `${by} row ${band.row}`).toBe(expected);
        });
      }
    }
  });
});

describe('the exported timeline coloured by a grouping', () => {
  const fills = (svg: string, group: string): Set<string> => {
    const markup = new RegExp(`<g class="${group}"[^>]*>(.*?)</g>`).exec(svg)?.[1] ?? '';
    return new Set([...markup.matchAll(/fill="(#[0-9a-f]{6})"/g)].map((match) => match[1]!));
  };

  it.each<ColorBy>(['category', 'frame', 'annotation'])(
    'names every colour its bands are drawn in (%s)',
    async (colorBy) => {
      const snapshot = await analyzeFile(realSnapshotPath('LINYUN'));
      const device = snapshot.devices[0]!;
      const svg = renderTimelineSvg(snapshot, 0, { width: 1280, height: 600, colorBy });
      const legend = coloringLegend(bandColoring(snapshot, device, colorBy))!;
      const { bands } = palette('light').timeline;
      const named = new Set(legend.map((entry) => hexOfIndex(entry.color, bands)));
      named.add(bands.noStack); // named by the "no stack recorded" entry
      const drawn = new Set([...fills(svg, 'bands'), ...fills(svg, 'bands-edged')]);
      expect(drawn.size).toBeGreaterThan(0);
      for (const color of drawn) expect(named, color).toContain(color);
      for (const entry of legend)
        expect(svg).toContain(`data-legend-group="${entry.name.replaceAll('&', '&amp;')}"`);
      expect(svg).toContain(
        `allocations (colour = ${bandColoring(snapshot, device, colorBy).name})`,
      );
    },
  );
});
