// The allocations alive at one moment of a device's trace, with where each came from: the trace
// itself, or from before it (seen only through a free, or through a block still live at the end).

import {
  BlockStateCode,
  ActionCode,
  type DeviceTrace,
  type SnapshotModel,
} from '../snapshot/model';
import { ALIVE_AT_END, type AllocationMatch } from './allocation-matching';
import type { FinalState } from './final-state';

export interface LiveAllocation {
  address: number;
  /** Requested bytes. */
  bytes: number;
  /** Row of the alloc entry; null when the allocation was made before the trace. */
  allocEventIndex: number | null;
  /** Row of the entry that frees it; null when it is alive at the end. */
  freeEventIndex: number | null;
  stackId: number;
}

/**
 * Allocations live after entry `eventIndex` (-1 = before the first entry), sorted by bytes
 * descending, then address, then alloc index (pre-trace first).
 */
export function liveAllocationsAt(
  model: SnapshotModel,
  trace: DeviceTrace | null,
  match: AllocationMatch | null,
  finalState: FinalState,
  eventIndex: number,
): LiveAllocation[] {
  const live: LiveAllocation[] = [];
  if (trace !== null && match !== null) {
    const { action, addr, sizeBytes, stackId } = trace;
    for (let row = 0; row <= eventIndex; row++) {
      if (action[row] !== ActionCode.alloc) continue;
      const end = match.endRowOfAlloc[row]!;
      if (end !== ALIVE_AT_END && end <= eventIndex) continue;
      live.push({
        address: addr[row]!,
        bytes: sizeBytes[row]!,
        allocEventIndex: row,
        freeEventIndex: end === ALIVE_AT_END ? null : end,
        stackId: stackId[row]!,
      });
    }
    for (const row of match.unmatchedFreeRows) {
      if (row <= eventIndex) continue;
      live.push({
        address: addr[row]!,
        bytes: sizeBytes[row]!,
        allocEventIndex: null,
        freeEventIndex: row,
        stackId: stackId[row]!,
      });
    }
  }
  const { segments, blocks } = model;
  for (const s of finalState.segmentIndexes) {
    for (let b = segments.blockOffsets[s]!; b < segments.blockOffsets[s + 1]!; b++) {
      if (blocks.state[b] === BlockStateCode.inactive) continue;
      if (match !== null && match.openAtEnd.get(blocks.address[b]!) >= 0) continue;
      live.push({
        address: blocks.address[b]!,
        bytes: blocks.requestedSizeBytes[b]!,
        allocEventIndex: null,
        freeEventIndex: null,
        stackId: blocks.stackId[b]!,
      });
    }
  }
  live.sort(
    (a, b) =>
      b.bytes - a.bytes ||
      a.address - b.address ||
      (a.allocEventIndex ?? -1) - (b.allocEventIndex ?? -1),
  );
  return live;
}
