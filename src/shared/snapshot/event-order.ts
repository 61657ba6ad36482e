// Orders of a profiler trace's events without an object per event: index arrays sorted by
// columns. A trace lists each thread's events in time order almost always, so the work is a
// counting sort by thread (few threads, linear) and a check that each thread's run is already in
// order; only a run that is not is sorted with the comparator (n log n calls of a JS function,
// tens of seconds for tens of millions of events).

export type IndexCompare = (a: number, b: number) => number;

/**
 * The indexes 0..count-1 grouped by `key` (a small non-negative integer per index, e.g. its
 * thread), in ascending key order, file order kept within a key; then each group ordered by
 * `compare` (which must break ties, so the order is total).
 */
export function orderByKeyThen(
  count: number,
  key: Int32Array | null,
  compare: IndexCompare,
): Uint32Array {
  const order = new Uint32Array(count);
  if (key === null) {
    for (let i = 0; i < count; i++) order[i] = i;
    sortRun(order, compare);
    return order;
  }
  let keys = 0;
  for (let i = 0; i < count; i++) if (key[i]! + 1 > keys) keys = key[i]! + 1;
  const starts = new Uint32Array(keys + 1);
  for (let i = 0; i < count; i++) starts[key[i]! + 1]!++;
  for (let k = 0; k < keys; k++) starts[k + 1]! += starts[k]!;
  const next = starts.slice(0, keys);
  for (let i = 0; i < count; i++) order[next[key[i]!]!++] = i;
  for (let k = 0; k < keys; k++) sortRun(order.subarray(starts[k]!, starts[k + 1]!), compare);
  return order;
}

/** Sorts a run of indexes by `compare`, unless it is in order already (the usual case). */
export function sortRun(run: Uint32Array, compare: IndexCompare): void {
  for (let i = 1; i < run.length; i++) {
    if (compare(run[i - 1]!, run[i]!) > 0) {
      run.sort(compare);
      return;
    }
  }
}
