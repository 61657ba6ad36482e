// "Colour by" for the timeline's bands, in the app and the exported SVG: by stack, by allocation,
// or by any grouping of the holders (./group-by.ts: category, top user frame, file, annotation
// span, stream, pool, ...). A grouping's colours are fixed and named by the legend: categories
// keep one colour each (the categories chart uses the same), and for the other groupings the
// groups holding the most at the active peak take the distinct colours in turn while the rest
// share the neutral one ("other groups"), so no two named groups look alike.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import {
  ALLOCATION_COLORING,
  DISTINCT_COLORS,
  NEUTRAL_COLOR,
  NO_STACK_COLOR,
  deviceStackColoring,
  type BandColoring,
} from '../chart/band-colors';
import { activePeakMoment } from '../analyzed/moments';
import { aliveRowsAt } from './alive-rows';
import { CATEGORIES, CATEGORY_COLOR_INDEX, CATEGORY_NAMES } from './categories';
import { DEFAULT_CATEGORY_RULES, type CategoryRules } from './category-rules';
import { categoriesOf } from './classify';
import {
  GROUP_BY_NAMES,
  groupingApplies,
  groupKeyOf,
  type GroupBy,
  type HolderSource,
} from './group-by';

/** What gives a band its colour: its stack, the allocation itself, or a grouping of holders. */
export type ColorBy = 'allocation' | GroupBy;

/** The choices, in the order the toggle lists them (every grouping: band-coloring.test.ts). */
export const COLOR_BYS = [
  'stack',
  'allocation',
  'category',
  'frame',
  'file',
  'op',
  'size',
  'annotation',
  'stream',
  'pool',
  'metadata',
  'compile_context',
  'forward_frame',
] as const satisfies readonly ColorBy[];

/** The colourings that apply to the device (by op: a profiler trace's only). */
export function colorBysOf(device: Pick<AnalyzedDevice, 'details'>): ColorBy[] {
  return COLOR_BYS.filter((colorBy) => groupingApplies(device, colorBy));
}

/**
 * The colouring drawn for a chosen one: the choice is remembered across files, and one that
 * does not apply to this device (by op on a snapshot) draws by stack, in the page and its export.
 */
export function colorByFor(device: Pick<AnalyzedDevice, 'details'>, chosen: ColorBy): ColorBy {
  return groupingApplies(device, chosen) ? chosen : 'stack';
}

/** What each colouring is called ("allocations by top user frame"). */
export const COLOR_BY_NAMES: Readonly<Record<ColorBy, string>> = {
  ...GROUP_BY_NAMES,
  allocation: 'allocation',
};

/** The words the legend gives the groups that share the neutral colour. */
export const OTHER_GROUPS = 'other groups';

/** The most characters of a group's name a legend writes. */
const LEGEND_NAME_CHARS = 36;

/**
 * A group's name as a legend writes it: whole, or its end after an ellipsis, because the end is
 * what tells groups apart ("…/benchmark.py:88 run_step", not "cs336_systems/bench…").
 */
export function legendName(name: string): string {
  return name.length <= LEGEND_NAME_CHARS ? name : `…${name.slice(-(LEGEND_NAME_CHARS - 1))}`;
}

/** One entry of a grouping's legend: what a colour means. */
export interface ColorLegendEntry {
  name: string;
  /** Palette index (NO_STACK_COLOR, NEUTRAL_COLOR for those looks). */
  color: number;
  /** Bytes of the group alive at the active peak (how the entries are ordered). */
  peakBytes: number;
}

/** A colouring by a grouping: the bands' colours and the legend that names them. */
export interface GroupColoring extends BandColoring {
  legend: ColorLegendEntry[];
}

/** Ties each colouring of a device (and rules document) to one object, built on first use. */
const colorings = new WeakMap<AnalyzedDevice, Map<string, BandColoring>>();
const rulesIds = new WeakMap<CategoryRules, number>();
let nextRulesId = 0;

/** The colouring `colorBy` of a device's bands (the same object for the same inputs). */
export function bandColoring(
  snapshot: HolderSource,
  device: AnalyzedDevice,
  colorBy: ColorBy,
  rules: CategoryRules = DEFAULT_CATEGORY_RULES,
): BandColoring {
  let byDevice = colorings.get(device);
  if (byDevice === undefined) {
    byDevice = new Map();
    colorings.set(device, byDevice);
  }
  let rulesId = rulesIds.get(rules);
  if (rulesId === undefined) {
    rulesId = nextRulesId++;
    rulesIds.set(rules, rulesId);
  }
  const cacheKey = colorBy === 'category' ? `category ${rulesId}` : colorBy;
  let coloring = byDevice.get(cacheKey);
  if (coloring === undefined) {
    coloring = buildColoring(snapshot, device, colorBy, rules);
    byDevice.set(cacheKey, coloring);
  }
  return coloring;
}

function buildColoring(
  snapshot: HolderSource,
  device: AnalyzedDevice,
  colorBy: ColorBy,
  rules: CategoryRules,
): BandColoring {
  switch (colorBy) {
    case 'stack':
      return deviceStackColoring(device);
    case 'allocation':
      return ALLOCATION_COLORING;
    case 'category':
      return categoryColoring(snapshot, device, rules);
    default:
      return groupColoring(snapshot, device, colorBy);
  }
}

/** The legend of a colouring, or null for one without (by stack, by allocation). */
export function coloringLegend(coloring: BandColoring): ColorLegendEntry[] | null {
  return 'legend' in coloring ? (coloring as GroupColoring).legend : null;
}

function categoryColoring(
  snapshot: HolderSource,
  device: AnalyzedDevice,
  rules: CategoryRules,
): GroupColoring {
  const column = categoriesOf(snapshot, device, rules);
  const peakBytes = new Float64Array(CATEGORIES.length);
  const sizes = device.allocations.sizeBytes;
  for (const row of aliveRowsAt(device, activePeakMoment(device)))
    peakBytes[column[row]!]! += sizes[row]!;
  return {
    name: COLOR_BY_NAMES.category,
    keyOfRow: (row) => column[row]!,
    colorOfKey: (key) => CATEGORY_COLOR_INDEX[CATEGORIES[key] ?? 'unknown'],
    fixed: true,
    noStackFill: false,
    // Every category, in their fixed order: the legend reads alike in every file.
    legend: CATEGORIES.map((category, index) => ({
      name: CATEGORY_NAMES[category],
      color: CATEGORY_COLOR_INDEX[category],
      peakBytes: peakBytes[index]!,
    })),
  };
}

/** Groupings whose key comes from the stack: a stackless allocation has the no-stack look. */
const FROM_STACK: ReadonlySet<GroupBy> = new Set(['stack', 'frame', 'file']);

function groupColoring(snapshot: HolderSource, device: AnalyzedDevice, by: GroupBy): GroupColoring {
  const table = device.allocations;
  const noStackLook = FROM_STACK.has(by);
  // Every row's group, as an index into `names` (-1: stackless, drawn with the no-stack look).
  // A key that comes from the stack is found once per stack, not once per allocation.
  const rowKeyOf = groupKeyOf(snapshot, device, by);
  const byStack = new Map<number, number>();
  const ids = new Map<string, number>();
  const names: string[] = [];
  const idOfName = (name: string): number => {
    let id = ids.get(name);
    if (id === undefined) {
      id = names.length;
      ids.set(name, id);
      names.push(name);
    }
    return id;
  };
  const groupOfRow = new Int32Array(table.count);
  for (let row = 0; row < table.count; row++) {
    const stackId = table.stackId[row]!;
    if (!noStackLook) groupOfRow[row] = idOfName(rowKeyOf(row));
    else if (stackId < 0) groupOfRow[row] = -1;
    else {
      let id = byStack.get(stackId);
      if (id === undefined) {
        id = idOfName(rowKeyOf(row));
        byStack.set(stackId, id);
      }
      groupOfRow[row] = id;
    }
  }
  // The groups at the peak, largest first: the first ones take the distinct colours.
  const peakBytes = new Float64Array(names.length);
  for (const row of aliveRowsAt(device, activePeakMoment(device))) {
    const id = groupOfRow[row]!;
    if (id >= 0) peakBytes[id] = peakBytes[id]! + table.sizeBytes[row]!;
  }
  const ranked = Array.from(names, (_, id) => id)
    .filter((id) => peakBytes[id]! > 0)
    .sort(
      (a, b) =>
        peakBytes[b]! - peakBytes[a]! ||
        (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0),
    );
  const named = ranked.slice(0, DISTINCT_COLORS.length);
  const colorOfGroup = new Int16Array(names.length).fill(NEUTRAL_COLOR);
  named.forEach((id, index) => (colorOfGroup[id] = DISTINCT_COLORS[index]!));
  const legend: ColorLegendEntry[] = named.map((id, index) => ({
    name: names[id]!,
    color: DISTINCT_COLORS[index]!,
    peakBytes: peakBytes[id]!,
  }));
  // The rest share the neutral colour: named when there are any (at the peak or elsewhere).
  if (names.length > named.length)
    legend.push({
      name: OTHER_GROUPS,
      color: NEUTRAL_COLOR,
      peakBytes: ranked.slice(named.length).reduce((sum, id) => sum + peakBytes[id]!, 0),
    });
  return {
    name: COLOR_BY_NAMES[by],
    // Keys are group ids; -1 (stackless, by a grouping from the stack) has the no-stack look,
    // named by the timeline's own "no stack recorded" entry.
    keyOfRow: (row) => groupOfRow[row]!,
    colorOfKey: (key) => (key < 0 ? NO_STACK_COLOR : colorOfGroup[key]!),
    fixed: true,
    noStackFill: noStackLook,
    legend,
  };
}
