// What the OOM explainer says about one failed allocation (or, without one, the active peak).

import type { Category } from '../holders/categories';

export type OomVerdict =
  /** Enough bytes were cached free in the pool, but no single hole was large enough. */
  | 'fragmentation'
  /** Live allocations held (nearly) everything: the memory was really used. */
  | 'out-of-memory'
  /** A free block large enough existed in the request's pool and stream (the failure came from elsewhere). */
  | 'fits-in-cache'
  /**
   * The device itself had room for the request (device_free >= it), yet the allocator refused:
   * a cap on this process (torch.cuda.set_per_process_memory_fraction) stopped it.
   */
  | 'process-limit'
  /** No oom in the trace: the figures describe the active peak ("what if" one more request came). */
  | 'what-if';

/** One stack of the allocations a holder groups. */
export interface OomHolderStack {
  stackId: number;
  /** The first caller where the row's stacks part ways ("train.py:88 step"), or null. */
  via: string | null;
  bytes: number;
  count: number;
}

/**
 * Live allocations grouped by their top user frame (the label shown): one row per label, however
 * many stacks lead there, with those stacks inside (largest first).
 */
export interface OomHolder {
  /** The group's largest stack. */
  stackId: number;
  /** Top user frame, "dir/file.py:12 name" (format/words.ts frameText), or null when the stack has none. */
  topFrame: string | null;
  bytes: number;
  count: number;
  stacks: OomHolderStack[];
}

export interface OomExplanation {
  device: number;
  /** The oom entry, or the active peak's event for 'what-if'. */
  event: number;
  timeUs: number | null;
  /** Requested bytes (null for 'what-if'). */
  requestedBytes: number | null;
  /** What the allocator would have needed for it (rounded like the allocator rounds). */
  roundedRequestBytes: number | null;
  /** `device_free` as CUDA reported it; null when absent. */
  deviceFreeBytes: number | null;
  reservedBytes: number;
  activeBytes: number;
  cachedFreeBytes: number;
  largestFreeBytes: number;
  /** The pool and stream the request would use, and the largest free block there. */
  poolIndex: number;
  /** The pool's id as written ("0,0" is the default pool). */
  pool: string;
  /** Raw cudaStream_t (0 is the default stream). */
  stream: number;
  segmentType: 'large' | 'small';
  poolCachedFreeBytes: number;
  poolLargestFreeBytes: number;
  expandableSegments: boolean;
  /** Live allocations grouped by stack, largest total first. */
  holders: OomHolder[];
  /**
   * The live memory by category (holders/categories.ts, the built-in rules), largest first:
   * requested bytes of the allocations alive after `event`, adding up to the timeline's active
   * bytes there. Categories holding nothing are left out.
   */
  categories: { category: Category; bytes: number }[];
  verdict: OomVerdict;
  /** One or two sentences in plain words, with human units. */
  verdictText: string;
}
