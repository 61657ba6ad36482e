// Two snapshots (or two devices, or two moments) side by side: the memory alive at a moment of
// each, grouped the same way (holders/group-by.ts), matched by key: what appeared, disappeared,
// grew or shrank, with the bytes of each side. Without a search every allocation alive is in one
// group, so the groups' deltas add up to the difference of the two moments' active bytes.

import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { formatBytes, formatSignedBytes } from '../format/units';
import { activeBytesAt, aliveRowsAt } from '../holders/alive-rows';
import { CATEGORY_NAMES } from '../holders/categories';
import { DEFAULT_CATEGORY_RULES, type CategoryRules } from '../holders/category-rules';
import { categoriesOf, categoryAt } from '../holders/classify';
import { groupRows, type GroupBy, type HolderGroup } from '../holders/group-by';

/** One side of a comparison: a device of a snapshot at a moment. */
export interface CompareSide {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  /** The state after this event (-1: before the first). */
  moment: number;
}

export type GroupChange = 'appeared' | 'disappeared' | 'grew' | 'shrank' | 'same';

export interface ComparedGroup {
  key: string;
  title: string;
  aBytes: number;
  bBytes: number;
  /** bBytes − aBytes. */
  deltaBytes: number;
  aAllocations: number;
  bAllocations: number;
  change: GroupChange;
  /** The category holding most of the group's bytes on the side that holds more. */
  category: string;
}

export interface Comparison {
  by: GroupBy;
  aActiveBytes: number;
  bActiveBytes: number;
  /** Every group of either side, the largest change first. */
  groups: ComparedGroup[];
}

export interface CompareOptions {
  by?: GroupBy;
  rules?: CategoryRules;
}

export function compareMoments(
  a: CompareSide,
  b: CompareSide,
  options: CompareOptions = {},
): Comparison {
  const by = options.by ?? 'frame';
  const rules = options.rules ?? DEFAULT_CATEGORY_RULES;
  const sideGroups = (side: CompareSide): Map<string, HolderGroup> =>
    new Map(
      groupRows(side.snapshot, side.device, aliveRowsAt(side.device, side.moment), by, {
        rules,
      }).map((group) => [group.key, group]),
    );
  const aGroups = sideGroups(a);
  const bGroups = sideGroups(b);
  const keys = new Set([...aGroups.keys(), ...bGroups.keys()]);
  const groups: ComparedGroup[] = [];
  for (const key of keys) {
    const inA = aGroups.get(key);
    const inB = bGroups.get(key);
    const aBytes = inA?.bytes ?? 0;
    const bBytes = inB?.bytes ?? 0;
    const larger = bBytes >= aBytes ? { side: b, group: inB } : { side: a, group: inA };
    groups.push({
      key,
      title: inB?.title ?? inA?.title ?? key,
      aBytes,
      bBytes,
      deltaBytes: bBytes - aBytes,
      aAllocations: inA?.allocations ?? 0,
      bAllocations: inB?.allocations ?? 0,
      change:
        inA === undefined
          ? 'appeared'
          : inB === undefined
            ? 'disappeared'
            : bBytes > aBytes
              ? 'grew'
              : bBytes < aBytes
                ? 'shrank'
                : 'same',
      category:
        larger.group === undefined ? 'unknown' : mainCategory(larger.side, larger.group, rules),
    });
  }
  groups.sort(
    (x, y) =>
      Math.abs(y.deltaBytes) - Math.abs(x.deltaBytes) ||
      y.bBytes + y.aBytes - (x.bBytes + x.aBytes) ||
      (x.key < y.key ? -1 : x.key > y.key ? 1 : 0),
  );
  return {
    by,
    aActiveBytes: activeBytesAt(a.device, a.moment),
    bActiveBytes: activeBytesAt(b.device, b.moment),
    groups,
  };
}

function mainCategory(side: CompareSide, group: HolderGroup, rules: CategoryRules): string {
  const column = categoriesOf(side.snapshot, side.device, rules);
  const bytes = new Map<string, number>();
  for (const row of group.rows) {
    const name = CATEGORY_NAMES[categoryAt(column, row)];
    bytes.set(name, (bytes.get(name) ?? 0) + side.device.allocations.sizeBytes[row]!);
  }
  return [...bytes].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0]?.[0] ?? 'unknown';
}

/** The comparison in one sentence: which side peaks higher, and the largest change. */
export function comparisonVerdict(comparison: Comparison, momentWords: string): string {
  const delta = comparison.bActiveBytes - comparison.aActiveBytes;
  const head =
    delta === 0
      ? `A and B hold the same ${formatBytes(comparison.aActiveBytes)} at ${momentWords}`
      : `B holds ${formatBytes(Math.abs(delta))} ${delta > 0 ? 'more' : 'less'} than A at ${momentWords} (${formatBytes(comparison.aActiveBytes)} → ${formatBytes(comparison.bActiveBytes)})`;
  return `${head}; ${largestChangeWords(comparison)}`;
}

/** "the largest change: +1.2 GiB activation from train.py:12 forward (grew)." */
export function largestChangeWords(comparison: Comparison): string {
  const top = comparison.groups[0];
  if (top === undefined || top.deltaBytes === 0) return 'no group changed.';
  const what = comparison.by === 'category' ? top.title : `${top.category} from ${top.title}`;
  return `the largest change: ${formatSignedBytes(top.deltaBytes)} ${what} (${top.change}).`;
}
