// Long export work (every allocation as CSV, a fragmentation series) runs in slices: a slice
// holds the page's thread for at most `sliceMs`, then hands it back so input and painting go on.

export interface Slicing {
  /** Hands the thread back between slices (the page: a macrotask; tests: nothing). */
  pause: () => Promise<void>;
  /** Milliseconds, for measuring a slice. */
  now: () => number;
  /** Longest a slice may hold the thread. */
  sliceMs: number;
}

/** Well under the 50 ms at which the browser reports a long task. */
export const PAGE_SLICING: Slicing = {
  pause: () => new Promise((resolve) => setTimeout(resolve, 0)),
  now: () => performance.now(),
  sliceMs: 12,
};
