// The two curves of each trace list while the file is still being decoded (issue 25, "Overlap"):
// memory_allocated and memory_reserved over the entries read so far, so that the page draws a
// first timeline as the entries arrive instead of a bare progress bar for a minute. The decoder's
// columns (TraceTableBuilder) are followed as they grow: each follow() reads only the rows added
// since the one before, so the whole decode reads each row once more, in a few nanoseconds.
//
// What can be known before the last byte, and what cannot:
// - A curve's level is anchored on the final state and the sum of every delta (curve-stats.ts),
//   known only at the end: here each list's curves are the change since just before its first
//   entry. The shape and the swings are those of the final timeline.
// - Which entries end an allocation depends on whether the trace has free_completed entries at
//   all (action-semantics.ts): both sums are kept, and the one the rule picks for the entries
//   seen so far is given, so the last preview is the final curve less its baseline.
// - Which device a list is: lists arrive in device order, but a device without entries has no
//   rows to show; the preview numbers the lists it saw, never devices.
//
// Bounded whatever the file: PREVIEW_BUCKETS buckets per list (pairs merged as the list grows, so
// a bucket covers a power of two of rows) and PREVIEW_MAX_LISTS lists followed.

import { ActionCode } from '../snapshot/model';
import type { TraceRowsSoFar } from '../snapshot/trace-table-builder';
import { activeDeltaSigns, freeingActions, reservedDeltaSigns } from './action-semantics';

/** One trace list's curves so far, bucket by bucket. */
export interface CurvePreviewList {
  /** Rows of the list read so far. */
  rows: number;
  /** Rows per bucket (a power of two); bucket b holds rows b * bucketRows .. (b + 1) * bucketRows - 1. */
  bucketRows: number;
  /** Which entries end an allocation, by the rule for the entries so far. */
  freeing: 'free_completed' | 'free_requested';
  /**
   * Per bucket, the lowest and highest value of each curve after its rows: bytes relative to
   * just before the list's first entry.
   */
  allocatedLow: Float64Array;
  allocatedHigh: Float64Array;
  reservedLow: Float64Array;
  reservedHigh: Float64Array;
}

/** What the decode worker posts to the page with its progress. */
export interface CurvePreviewData {
  lists: CurvePreviewList[];
  /** Trace lists seen, those past MAX_LISTS included. */
  listCount: number;
}

export const PREVIEW_BUCKETS = 512;
export const PREVIEW_MAX_LISTS = 16;

// The three curves each list sums: active with free_requested ending allocations, active with
// free_completed ending them, reserved.
const CURVES = 3;
const REQUESTED = 0;
const COMPLETED = 1;
const RESERVED = 2;

const SIGNS = [
  activeDeltaSigns(freeingActions(false)),
  activeDeltaSigns(freeingActions(true)),
  reservedDeltaSigns(),
];

class ListCurves {
  rows = 0;
  bucketRows = 1;
  sawFreeCompleted = false;
  private readonly sums = new Float64Array(CURVES);
  private readonly low = Array.from({ length: CURVES }, () => new Float64Array(PREVIEW_BUCKETS));
  private readonly high = Array.from({ length: CURVES }, () => new Float64Array(PREVIEW_BUCKETS));

  add(action: Uint8Array, sizeBytes: Float64Array, from: number, to: number): void {
    const { sums, low, high } = this;
    for (let row = from; row < to; row++) {
      const code = action[row]!;
      const size = sizeBytes[row]!;
      if (code === ActionCode.free_completed) this.sawFreeCompleted = true;
      let bucket = Math.floor(this.rows / this.bucketRows);
      if (bucket === PREVIEW_BUCKETS) {
        this.mergePairs();
        bucket = Math.floor(this.rows / this.bucketRows);
      }
      const opens = this.rows % this.bucketRows === 0;
      for (let curve = 0; curve < CURVES; curve++) {
        const value = (sums[curve]! += SIGNS[curve]![code]! * size);
        if (opens) {
          low[curve]![bucket] = value;
          high[curve]![bucket] = value;
        } else {
          if (value < low[curve]![bucket]!) low[curve]![bucket] = value;
          if (value > high[curve]![bucket]!) high[curve]![bucket] = value;
        }
      }
      this.rows++;
    }
  }

  /** Every bucket full: each pair becomes one, twice as wide. */
  private mergePairs(): void {
    for (let curve = 0; curve < CURVES; curve++) {
      const low = this.low[curve]!;
      const high = this.high[curve]!;
      for (let bucket = 0; bucket < PREVIEW_BUCKETS / 2; bucket++) {
        low[bucket] = Math.min(low[2 * bucket]!, low[2 * bucket + 1]!);
        high[bucket] = Math.max(high[2 * bucket]!, high[2 * bucket + 1]!);
      }
    }
    this.bucketRows *= 2;
  }

  data(): CurvePreviewList {
    const buckets = Math.ceil(this.rows / this.bucketRows);
    const active = this.sawFreeCompleted ? COMPLETED : REQUESTED;
    return {
      rows: this.rows,
      bucketRows: this.bucketRows,
      freeing: this.sawFreeCompleted ? 'free_completed' : 'free_requested',
      allocatedLow: this.low[active]!.slice(0, buckets),
      allocatedHigh: this.high[active]!.slice(0, buckets),
      reservedLow: this.low[RESERVED]!.slice(0, buckets),
      reservedHigh: this.high[RESERVED]!.slice(0, buckets),
    };
  }
}

/** Follows a decoder's rows; data() is what the page draws. */
export class CurvePreview {
  private readonly lists: ListCurves[] = [];
  private listCount = 0;

  /** Reads the rows added since the last call. */
  follow(rows: TraceRowsSoFar): void {
    let index = 0;
    for (const range of rows.ranges.values()) {
      if (index === PREVIEW_MAX_LISTS) break;
      const list = (this.lists[index] ??= new ListCurves());
      if (list.rows < range.count) {
        list.add(rows.action, rows.sizeBytes, range.first + list.rows, range.first + range.count);
      }
      index++;
    }
    this.listCount = Math.max(this.listCount, rows.ranges.size);
  }

  /** The curves so far (copies: the caller may post them). */
  data(): CurvePreviewData {
    return { lists: this.lists.map((list) => list.data()), listCount: this.listCount };
  }
}
