// Each group's bytes over the trace (the sparklines of the group table): at sampled moments, the
// bytes of the allocations alive then whose key is the group's. One pass over the allocations, as
// holders/category-series.ts does for categories; groupings that depend on the stack alone
// (stack, frame, file) compute each stack's key once.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { groupKeyOf, type GroupBy, type GroupOptions, type HolderView } from './group-by';

/** Groupings whose key is a function of the allocation's stack. */
const BY_STACK: ReadonlySet<GroupBy> = new Set(['stack', 'frame', 'file']);

/**
 * Bytes of each of `keys` at each of `moments` (ascending): series[k][i]. Allocations whose key
 * is not listed are left out.
 */
export function groupSeries(
  view: HolderView,
  device: AnalyzedDevice,
  by: GroupBy,
  keys: readonly string[],
  moments: readonly number[],
  options: GroupOptions = {},
  /** Only the allocations with mask[row] === 1 (a search, a flame graph node); null: all. */
  mask: Uint8Array | null = null,
): Float64Array[] {
  const table = device.allocations;
  const count = moments.length;
  const series = keys.map(() => new Float64Array(count + 1));
  const indexOfKey = new Map(keys.map((key, i) => [key, i]));
  const keyOf = groupKeyOf(view, device, by, options);
  const byStack = BY_STACK.has(by);
  // Stack id + 1 -> key index (-1: not listed, -2: not computed yet).
  const stackIndex = byStack ? new Int32Array(view.stacks.offsets.length + 1).fill(-2) : null;
  const firstAtOrAfter = (event: number): number => {
    let low = 0;
    let high = count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (moments[middle]! < event) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  for (let row = 0; row < table.count; row++) {
    if (mask !== null && mask[row] !== 1) continue;
    let k: number;
    if (stackIndex !== null) {
      const slot = table.stackId[row]! + 1;
      k = stackIndex[slot]!;
      if (k === -2) {
        k = indexOfKey.get(keyOf(row)) ?? -1;
        stackIndex[slot] = k;
      }
    } else {
      k = indexOfKey.get(keyOf(row)) ?? -1;
    }
    if (k < 0) continue;
    const from = firstAtOrAfter(table.startEvent[row]!);
    const to = firstAtOrAfter(table.endEvent[row]!);
    if (from >= to) continue;
    series[k]![from]! += table.sizeBytes[row]!;
    series[k]![to]! -= table.sizeBytes[row]!;
  }
  for (const values of series) for (let i = 1; i < count; i++) values[i]! += values[i - 1]!;
  return series.map((values) => values.subarray(0, count));
}
