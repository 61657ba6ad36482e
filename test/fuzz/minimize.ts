// Shrinks an input while a predicate (the same defect) still holds: drops chunks of halving size
// (ddmin, greedy), within a budget of oracle runs and time. Byte-level, so it mostly trims what
// comes after the culprit and unrelated records; good enough for a repro file.

export interface MinimizeBudget {
  evaluations: number;
  ms: number;
}

export async function minimize(
  input: Uint8Array,
  stillFails: (candidate: Uint8Array) => Promise<boolean>,
  budget: MinimizeBudget = { evaluations: 400, ms: 30_000 },
): Promise<Uint8Array> {
  const deadline = performance.now() + budget.ms;
  let evaluations = 0;
  let best = input;
  const within = (): boolean => evaluations < budget.evaluations && performance.now() < deadline;
  // The shortest failing prefix first (binary search; `hi` always fails): most inputs fail
  // early, and everything after the failure point is noise.
  let lo = 1;
  let hi = best.length;
  while (lo < hi && within()) {
    const mid = (lo + hi) >> 1;
    evaluations++;
    if (await stillFails(best.subarray(0, mid))) hi = mid;
    else lo = mid + 1;
  }
  best = best.slice(0, hi);
  for (let chunk = best.length >> 1; chunk >= 1 && within(); chunk >>= 1) {
    for (let at = 0; at + chunk <= best.length && within();) {
      const candidate = new Uint8Array(best.length - chunk);
      candidate.set(best.subarray(0, at), 0);
      candidate.set(best.subarray(at + chunk), at);
      evaluations++;
      if (await stillFails(candidate)) best = candidate;
      else at += chunk;
    }
  }
  return best;
}
