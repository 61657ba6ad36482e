// The bytes alive at the active peak by the category the file itself gives each allocation:
// a memory timeline's (export_memory_timeline: PyTorch's PARAMETER, GRADIENT, ..., unknown), or
// the one a trace took from the timeline given beside it. The figure PyTorch's own plot shows at
// its highest point, computed from the same allocations as the timeline's curve, so the rows add
// up to the active peak.

import type { LiveAllocation } from '../analysis/live-allocations';
import { NO_STRING, type DeviceTrace } from '../snapshot/model';
import { TIMELINE_CATEGORIES } from '../snapshot/memory-timeline-reader';

/** Bytes alive at the peak whose allocation has no category (not matched, or made before). */
export const NO_FILE_CATEGORY = '(no category)';

export interface CategoryAtPeak {
  /** PyTorch's word (TIMELINE_CATEGORIES), another the file wrote, or NO_FILE_CATEGORY. */
  category: string;
  bytes: number;
  allocations: number;
}

/**
 * One row per PyTorch category (zero where none is alive: the eight are always listed), then any
 * other word the file wrote, then NO_FILE_CATEGORY when some bytes have none; null when the
 * device's trace records no category at all.
 */
export function categoriesAtPeak(
  trace: DeviceTrace | null,
  strings: readonly string[],
  live: readonly LiveAllocation[],
): CategoryAtPeak[] | null {
  const ids = trace?.categoryId ?? null;
  if (ids === null) return null;
  const rows = new Map<string, CategoryAtPeak>();
  for (const category of TIMELINE_CATEGORIES)
    rows.set(category, { category, bytes: 0, allocations: 0 });
  for (const allocation of live) {
    const id =
      allocation.allocEventIndex === null
        ? NO_STRING
        : (ids[allocation.allocEventIndex] ?? NO_STRING);
    const category = id === NO_STRING ? NO_FILE_CATEGORY : (strings[id] ?? NO_FILE_CATEGORY);
    let row = rows.get(category);
    if (row === undefined) rows.set(category, (row = { category, bytes: 0, allocations: 0 }));
    row.bytes += allocation.bytes;
    row.allocations++;
  }
  const none = rows.get(NO_FILE_CATEGORY);
  if (none !== undefined) {
    rows.delete(NO_FILE_CATEGORY);
    rows.set(NO_FILE_CATEGORY, none);
  }
  return [...rows.values()];
}
