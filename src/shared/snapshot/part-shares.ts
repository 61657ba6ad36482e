// How much of a file each part of a parallel decode takes (issue 25; docs/parallel-decode.md).
// Equal parts leave the spine waiting: before a worker decodes its part it needs the memo of every
// part before its own (its MEMOIZE opcodes counted, with checkpoints to find objects again), which
// the workers count side by side, each the part before its own; a part costs more per byte than the spine's
// serial decode (it reads foreign objects again and interns its stacks itself); and the spine
// takes each part in after decoding its own. Shares that make each part ready just as the spine
// reaches it keep every thread busy until the end.

/** Costs per byte, relative to the serial decode's. */
export interface PartCosts {
  /** Counting a part's memo (countMemoCheckpoints). */
  readonly scan: number;
  /** Decoding a part on its own (decodeTracePart). */
  readonly part: number;
  /** The spine taking a decoded part in. */
  readonly takeIn: number;
}

/**
 * Measured on the bench's 1 GB generated file (per byte, against the main thread's decode:
 * docs/parallel-decode.md): the worker's count of the part before its own (countMemoCheckpoints,
 * 2.0-2.5 ms/MB where the decode takes 7-8.7) 0.3, its own part 1.0 (CPU profiles of `summary
 * --jobs 2`; an earlier bench in one isolate had read 1.3-1.45), taking a part in about 0.1.
 */
export const MEASURED_PART_COSTS: PartCosts = { scan: 0.3, part: 1, takeIn: 0.1 };

/**
 * Where parts 1..parts-1 begin, as ascending fractions of the file, for `parts` threads. With
 * part 0 the spine's (x0 = 1 before scaling): the spine reaches part k at
 * x0 + takeIn * (x1 + ... + x(k-1)); worker k can begin once the scans of parts 0..k-1 are done
 * (they run at once, on workers 1..k), the longest being scan * max(x0..x(k-1)); so
 * x_k = (reach_k - scan * max(x0..x(k-1))) / part.
 */
export function partShares(parts: number, costs: PartCosts = MEASURED_PART_COSTS): number[] {
  if (parts < 2) return [];
  const sizes = [1];
  let reach = 1;
  let largest = 1;
  for (let part = 1; part < parts; part++) {
    const size = Math.max(0, (reach - costs.scan * largest) / costs.part);
    sizes.push(size);
    reach += costs.takeIn * size;
    largest = Math.max(largest, size);
  }
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const starts: number[] = [];
  let before = 0;
  for (let part = 0; part + 1 < parts; part++) {
    before += sizes[part]!;
    starts.push(before / total);
  }
  return starts;
}

/**
 * The wall time of a decode in `parts` parts with those shares, as a fraction of the serial
 * decode's (the spine's own part, then each part taken in), on idle cores: what the README's
 * projection to 8 and 32 cores reads.
 */
export function projectedDecodeTime(parts: number, costs: PartCosts = MEASURED_PART_COSTS): number {
  if (parts < 2) return 1;
  const first = partShares(parts, costs)[0]!;
  return first + costs.takeIn * (1 - first);
}
