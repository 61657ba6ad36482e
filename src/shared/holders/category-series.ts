// The live memory by category over time, for the categories chart: at sampled moments across the
// trace (and the moments asked for, such as the OOM or the peak), the bytes of each category.
// Each sample adds up to the active bytes of the timeline at that moment.

import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { CATEGORIES } from './categories';
import { DEFAULT_CATEGORY_RULES, type CategoryRules } from './category-rules';
import { categoriesOf } from './classify';
import { sampledSeries } from './sampled-series';

export interface CategorySeries {
  /** The moments sampled, ascending (-1: before the first entry). */
  moments: number[];
  /** Per category (CATEGORIES order), bytes at each moment. */
  bytes: Float64Array[];
}

/** Up to `count` moments spread over the trace, plus `extra` ones, ascending and distinct. */
export function seriesMoments(
  traceLength: number,
  count: number,
  extra: readonly number[],
): number[] {
  const moments = new Set<number>(extra.filter((m) => m >= -1 && m < traceLength));
  const last = traceLength - 1;
  if (last < 0) moments.add(-1);
  for (let i = 0; i < count && last >= 0; i++)
    moments.add(Math.round((last * i) / Math.max(1, count - 1)));
  return [...moments].sort((a, b) => a - b);
}

export function categorySeries(
  snapshot: Pick<AnalyzedSnapshot, 'frames' | 'stacks' | 'strings'>,
  device: AnalyzedDevice,
  moments: readonly number[],
  rules: CategoryRules = DEFAULT_CATEGORY_RULES,
): CategorySeries {
  const column = categoriesOf(snapshot, device, rules);
  const bytes = sampledSeries(
    device.allocations,
    moments,
    CATEGORIES.length,
    (row) => column[row]!,
  );
  return { moments: [...moments], bytes };
}
