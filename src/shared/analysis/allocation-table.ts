// Every allocation of a device as one row: where it starts and ends in the trace, its size and
// stack. This is what the timeline draws and what tables list; built once per device.

import { ActionCode, BlockStateCode, type SnapshotModel } from '../snapshot/model';
import { ALIVE_AT_END, NOT_AN_ALLOC, type AllocationMatch } from './allocation-matching';
import type { DeviceAnalysis } from './snapshot-analysis';

/** startEvent of allocations made before the trace. */
export const BEFORE_TRACE = -1;

export const AllocationOrigin = {
  /** An `alloc` entry in the trace. */
  trace: 0,
  /** Made before the trace; seen through its free. */
  freedInTrace: 1,
  /** Made before the trace; still a live block at the end. */
  liveThroughout: 2,
} as const;

export interface AllocationTable {
  count: number;
  address: Float64Array;
  /** Requested bytes. */
  sizeBytes: Float64Array;
  /** Rounded bytes of the block, where known (allocations alive at the end); NaN otherwise. */
  blockSizeBytes: Float64Array;
  /** Index of the alloc entry, or BEFORE_TRACE. */
  startEvent: Int32Array;
  /** Index of the entry that freed it, or the trace length when alive at the end. */
  endEvent: Int32Array;
  stackId: Int32Array;
  /** Index into SnapshotModel.streams; for final blocks the segment's stream. */
  streamId: Uint32Array;
  origin: Uint8Array;
  /**
   * The `free_requested` entry after which the block was pending (freed by the user, still in use
   * on another stream), NOT_PENDING when it never was, BEFORE_TRACE when it already was.
   */
  freeRequestedEvent: Int32Array;
}

/** freeRequestedEvent of allocations that were never pending while alive. */
export const NOT_PENDING = 0x7fffffff;

/**
 * Rows in drawing order: allocations alive through the whole trace first, then those freed in
 * the trace that predate it (by free), then the trace's own allocations in trace order.
 */
export function buildAllocationTable(
  model: SnapshotModel,
  device: DeviceAnalysis,
): AllocationTable {
  const { trace, match, finalState } = device;
  const traceLength = trace?.length ?? 0;
  const { segments, blocks } = model;

  const liveBlocks: number[] = [];
  const blockSegment: number[] = [];
  for (const s of finalState.segmentIndexes) {
    for (let b = segments.blockOffsets[s]!; b < segments.blockOffsets[s + 1]!; b++) {
      if (blocks.state[b] === BlockStateCode.inactive) continue;
      liveBlocks.push(b);
      blockSegment.push(s);
    }
  }
  // Block size by address, for allocations still open at the end.
  const blockSizeByAddress = new Map<number, number>();
  const pendingAtEnd = new Set<number>();
  for (const b of liveBlocks) {
    blockSizeByAddress.set(blocks.address[b]!, blocks.sizeBytes[b]!);
    if (blocks.state[b] === BlockStateCode.active_pending_free)
      pendingAtEnd.add(blocks.address[b]!);
  }

  const preTraceLive: number[] = [];
  liveBlocks.forEach((b, i) => {
    if (match === null || match.openAtEnd.get(blocks.address[b]!) < 0) preTraceLive.push(i);
  });
  const unmatched = match?.unmatchedFreeRows ?? new Int32Array(0);
  // Every alloc entry is a row (matchAllocations gives each one an end).
  const traceAllocs = match === null ? 0 : device.actionCounts[ActionCode.alloc]!;

  const count = preTraceLive.length + unmatched.length + traceAllocs;
  const address = new Float64Array(count);
  const sizeBytes = new Float64Array(count);
  const blockSizeBytes = new Float64Array(count).fill(NaN);
  const startEvent = new Int32Array(count);
  const endEvent = new Int32Array(count);
  const stackId = new Int32Array(count);
  const streamId = new Uint32Array(count);
  const origin = new Uint8Array(count);
  let row = 0;
  for (const i of preTraceLive) {
    const b = liveBlocks[i]!;
    address[row] = blocks.address[b]!;
    sizeBytes[row] = blocks.requestedSizeBytes[b]!;
    blockSizeBytes[row] = blocks.sizeBytes[b]!;
    startEvent[row] = BEFORE_TRACE;
    endEvent[row] = traceLength;
    stackId[row] = blocks.stackId[b]!;
    streamId[row] = segments.streamId[blockSegment[i]!]!;
    origin[row] = AllocationOrigin.liveThroughout;
    row++;
  }
  if (trace !== null && match !== null) {
    const traceAddr = trace.addr;
    const traceSize = trace.sizeBytes;
    const traceStack = trace.stackId;
    const traceStream = trace.streamId;
    for (const freeRow of unmatched) {
      address[row] = traceAddr[freeRow]!;
      sizeBytes[row] = traceSize[freeRow]!;
      startEvent[row] = BEFORE_TRACE;
      endEvent[row] = freeRow;
      stackId[row] = traceStack[freeRow]!;
      streamId[row] = traceStream[freeRow]!;
      origin[row] = AllocationOrigin.freedInTrace;
      row++;
    }
    const { endRowOfAlloc } = match;
    for (let event = 0; event < traceLength; event++) {
      const end = endRowOfAlloc[event]!;
      if (end === NOT_AN_ALLOC) continue;
      const at = traceAddr[event]!;
      address[row] = at;
      sizeBytes[row] = traceSize[event]!;
      startEvent[row] = event;
      if (end === ALIVE_AT_END) {
        blockSizeBytes[row] = blockSizeByAddress.get(at) ?? NaN;
        endEvent[row] = traceLength;
      } else {
        endEvent[row] = end;
      }
      stackId[row] = traceStack[event]!;
      streamId[row] = traceStream[event]!;
      origin[row] = AllocationOrigin.trace;
      row++;
    }
  }
  if (row !== count) throw new Error(`internal: ${row} allocation rows, expected ${count}`);
  const freeRequestedEvent = findFreeRequests(
    match,
    { address, startEvent, endEvent },
    preTraceLive.length,
    preTraceLive.length + unmatched.length,
    trace?.action ?? new Uint8Array(0),
    pendingAtEnd,
  );
  return {
    count,
    address,
    sizeBytes,
    blockSizeBytes,
    startEvent,
    endEvent,
    stackId,
    streamId,
    origin,
    freeRequestedEvent,
  };
}

/**
 * When each allocation became pending: the first `free_requested` at its address while it was
 * alive (found by the matching pass). Blocks still pending at the end without such an entry were
 * pending since they appear (before the trace, or from their alloc).
 */
function findFreeRequests(
  match: AllocationMatch | null,
  rows: Pick<AllocationTable, 'address' | 'startEvent' | 'endEvent'>,
  firstUnmatchedRow: number,
  firstTraceRow: number,
  actions: Uint8Array,
  pendingAtEnd: ReadonlySet<number>,
): Int32Array {
  const count = rows.address.length;
  const traceLength = actions.length;
  const result = new Int32Array(count).fill(NOT_PENDING);
  if (match !== null) {
    const perAlloc = match.freeRequestRowOfAlloc;
    for (let row = 0; row < firstUnmatchedRow; row++) {
      const request = match.openPreTraceRequests.get(rows.address[row]!);
      if (request >= 0) result[row] = request;
    }
    const perUnmatched = match.freeRequestRowOfUnmatched;
    for (let i = 0; i < perUnmatched.length; i++) {
      if (perUnmatched[i]! >= 0) result[firstUnmatchedRow + i] = perUnmatched[i]!;
    }
    if (perAlloc.length > 0) {
      for (let row = firstTraceRow; row < count; row++) {
        const request = perAlloc[rows.startEvent[row]!]!;
        if (request >= 0) result[row] = request;
      }
    }
  }
  for (let row = 0; row < count; row++) {
    if (result[row] !== NOT_PENDING) continue;
    const end = rows.endEvent[row]!;
    // A free_completed always follows a free_requested: when none was seen (it came before the
    // trace, or the file lost it), the block was pending from the time it appears.
    const completed = end < traceLength && actions[end] === ActionCode.free_completed;
    const pendingAtTheEnd = end === traceLength && pendingAtEnd.has(rows.address[row]!);
    if (completed || pendingAtTheEnd) result[row] = rows.startEvent[row]!;
  }
  return result;
}

/** Rows alive after `event` (-1 = before the first entry), largest first (ties: address, then start). */
export function allocationsAliveAt(table: AllocationTable, event: number): Int32Array {
  const alive: number[] = [];
  for (let row = 0; row < table.count; row++) {
    if (table.startEvent[row]! <= event && table.endEvent[row]! > event) alive.push(row);
  }
  alive.sort(
    (a, b) =>
      table.sizeBytes[b]! - table.sizeBytes[a]! ||
      table.address[a]! - table.address[b]! ||
      table.startEvent[a]! - table.startEvent[b]!,
  );
  return Int32Array.from(alive);
}
