// Allocations as intervals: an `alloc` lives until the next freeing entry at the same address
// (addresses are reused constantly, so order matters). Frees with no alloc in the trace belong to
// allocations made before it: a wrapped ring buffer starts that way.

import { ActionCode, type DeviceTrace } from '../snapshot/model';
import { AddressMap } from './address-map';
import type { FreeingActions } from './action-semantics';

/** endRowOfAlloc value for allocations alive at the end of the trace. */
export const ALIVE_AT_END = -1;
/** endRowOfAlloc value for rows that are not allocs. */
export const NOT_AN_ALLOC = -2;

export interface AllocationMatch {
  /** For each alloc row, the row of the entry that ended it, or ALIVE_AT_END; NOT_AN_ALLOC otherwise. */
  endRowOfAlloc: Int32Array;
  /** Freeing rows whose allocation was made before the trace, in trace order. */
  unmatchedFreeRows: Int32Array;
  /** Allocs at an address that was already allocated (the earlier one is ended there). */
  doubleAllocCount: number;
  /** Address -> alloc row of allocations still alive at the end of the trace. */
  openAtEnd: AddressMap;
  /**
   * Where free_completed ends allocations, the free_requested row after which each became pending
   * (record_stream): per alloc row, and per unmatched free row (same order); -1 when none.
   */
  freeRequestRowOfAlloc: Int32Array;
  freeRequestRowOfUnmatched: Int32Array;
  /** Address -> free_requested row of allocations from before the trace never completed. */
  openPreTraceRequests: AddressMap;
}

export function matchAllocations(trace: DeviceTrace, freeing: FreeingActions): AllocationMatch {
  const { action, addr, length } = trace;
  const endRowOfAlloc = new Int32Array(length).fill(NOT_AN_ALLOC);
  // Sized by the trace (it grows as needed): a device with a handful of entries costs bytes, not
  // the 24 KB of a table for a thousand open allocations.
  const open = new AddressMap(Math.min(1024, length));
  const unmatched: number[] = [];
  const isFreeing = freeing.isFreeing;
  // free_requested only marks "pending" when free_completed is what ends allocations.
  const tracksRequests = freeing.primary === 'free_completed';
  const freeRequestRowOfAlloc = new Int32Array(tracksRequests ? length : 0).fill(-1);
  const unmatchedRequests: number[] = [];
  const preTraceRequests = new AddressMap(64);
  let doubleAllocCount = 0;
  for (let row = 0; row < length; row++) {
    const code = action[row]!;
    if (code === ActionCode.alloc) {
      endRowOfAlloc[row] = ALIVE_AT_END;
      const previous = open.set(addr[row]!, row);
      if (previous >= 0) {
        endRowOfAlloc[previous] = row;
        doubleAllocCount++;
      }
    } else if (isFreeing[code] === 1) {
      const allocRow = open.delete(addr[row]!);
      if (allocRow >= 0) endRowOfAlloc[allocRow] = row;
      else {
        unmatched.push(row);
        unmatchedRequests.push(tracksRequests ? preTraceRequests.delete(addr[row]!) : -1);
      }
    } else if (code === ActionCode.free_requested && tracksRequests) {
      const at = addr[row]!;
      const allocRow = open.get(at);
      if (allocRow >= 0) {
        if (freeRequestRowOfAlloc[allocRow]! < 0) freeRequestRowOfAlloc[allocRow] = row;
      } else if (preTraceRequests.get(at) < 0) {
        preTraceRequests.set(at, row);
      }
    }
  }
  return {
    endRowOfAlloc,
    unmatchedFreeRows: Int32Array.from(unmatched),
    doubleAllocCount,
    openAtEnd: open,
    freeRequestRowOfAlloc,
    freeRequestRowOfUnmatched: Int32Array.from(unmatchedRequests),
    openPreTraceRequests: preTraceRequests,
  };
}
