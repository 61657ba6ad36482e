// Each group's bytes over the trace (the sparklines of the group table): at sampled moments, the
// bytes of the allocations alive then whose key is the group's. One pass over the allocations, as
// holders/category-series.ts does for categories; groupings that depend on the stack alone
// (stack, frame, file) compute each stack's key once.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { groupKeyOf, type GroupBy, type GroupOptions, type HolderSource } from './group-by';
import { sampledSeries } from './sampled-series';

/** Groupings whose key is a function of the allocation's stack. */
const BY_STACK: ReadonlySet<GroupBy> = new Set(['stack', 'frame', 'file']);

/**
 * Bytes of each of `keys` at each of `moments` (ascending): series[k][i]. Allocations whose key
 * is not listed are left out.
 */
export function groupSeries(
  snapshot: HolderSource,
  device: AnalyzedDevice,
  by: GroupBy,
  keys: readonly string[],
  moments: readonly number[],
  options: GroupOptions = {},
  /** Only the allocations with mask[row] === 1 (a search, a flame graph node); null: all. */
  mask: Uint8Array | null = null,
): Float64Array[] {
  const table = device.allocations;
  const indexOfKey = new Map(keys.map((key, i) => [key, i]));
  const keyOf = groupKeyOf(snapshot, device, by, options);
  // Stack id + 1 -> key index (-1: not listed, -2: not computed yet).
  const stackIndex = BY_STACK.has(by)
    ? new Int32Array(snapshot.stacks.offsets.length + 1).fill(-2)
    : null;
  return sampledSeries(table, moments, keys.length, (row) => {
    if (mask !== null && mask[row] !== 1) return -1;
    if (stackIndex === null) return indexOfKey.get(keyOf(row)) ?? -1;
    const slot = table.stackId[row]! + 1;
    let k = stackIndex[slot]!;
    if (k === -2) {
      k = indexOfKey.get(keyOf(row)) ?? -1;
      stackIndex[slot] = k;
    }
    return k;
  });
}
