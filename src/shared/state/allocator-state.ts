// The allocator's full state (segments and the blocks tiling them) at any moment of the trace.
// Segments come from the segment history; allocated and pending-free blocks are the allocations
// alive at that moment (from the allocation table, which matched every alloc to its free);
// free blocks are the holes between them, as the allocator merges adjacent free blocks.

import { BEFORE_TRACE, type AllocationTable } from '../analysis/allocation-table';
import {
  aliveCheckpointsOf,
  rowsOverlapping,
  type AliveCheckpoints,
} from '../analyzed/alive-checkpoints';
import type { AllocatorSettings } from '../snapshot/model';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { derivedKey } from '../analyzed/derived-cache';
import { keepsRemainder, roundedRequestBytes } from './block-rounding';
import { SegmentTypeCode, type SegmentHistory } from '../analysis/segment-history';

export const BlockKind = { allocated: 0, pendingFree: 1, free: 2 } as const;
export type BlockKindCode = (typeof BlockKind)[keyof typeof BlockKind];

export interface StateSegment {
  /** Row of the segment history. */
  historyRow: number;
  address: number;
  sizeBytes: number;
  streamId: number;
  poolIndex: number;
  /** SegmentTypeCode. */
  segmentType: number;
  isExpandable: boolean;
  stackId: number;
  /** Its blocks are rows firstBlock .. endBlock - 1 of AllocatorState.blocks, in address order. */
  firstBlock: number;
  endBlock: number;
}

export interface StateBlocks {
  count: number;
  address: Float64Array;
  /** Bytes of the block (rounded); for blocks of allocations not alive at the end, estimated. */
  sizeBytes: Float64Array;
  /** Requested bytes; 0 for free blocks. */
  requestedBytes: Float64Array;
  /** BlockKind. */
  kind: Uint8Array;
  /** Row of the allocation table; -1 for free blocks. */
  allocationRow: Int32Array;
  /** 1 when sizeBytes is the allocator's rounding applied to the request, not a recorded size. */
  sizeIsEstimate: Uint8Array;
}

export interface AllocatorState {
  device: number;
  /** The state after this event (-1 = before the first entry). */
  event: number;
  /** In address order. */
  segments: StateSegment[];
  blocks: StateBlocks;
  /** Allocation rows alive at this moment that lie in no segment (only in inconsistent files). */
  outsideSegments: number[];
  /** Allocations whose block overlapped the next one and was cut to fit (estimates only). */
  clippedBlocks: number;
}

export interface AllocatorStateIndex {
  device: number;
  traceLength: number;
  /** The state after `event` (-1 = before the first entry, traceLength - 1 = the final state). */
  stateAt(event: number): AllocatorState;
}

/**
 * Moving the moment costs O(segments + allocations alive then): alive checkpoints every few
 * thousand events give the live set without replaying the trace, so scrubbing a 1M-event trace
 * stays interactive.
 */
const ALLOCATOR_STATE_INDEX = derivedKey<AllocatorStateIndex>('allocator-state index');

/** The device's allocator-state index, built on first use and kept with the device. */
export function allocatorStateIndexOf(
  snapshot: Pick<AnalyzedSnapshot, 'allocatorSettings'>,
  device: AnalyzedDevice,
): AllocatorStateIndex {
  return device.derived.get(ALLOCATOR_STATE_INDEX, () =>
    createAllocatorStateIndex(device, snapshot.allocatorSettings),
  );
}

/** The index if it was built already (the page builds it after its first paint), else null. */
export function builtAllocatorStateIndex(device: AnalyzedDevice): AllocatorStateIndex | null {
  return device.derived.peek(ALLOCATOR_STATE_INDEX) ?? null;
}

export function createAllocatorStateIndex(
  device: AnalyzedDevice,
  settings: AllocatorSettings | null,
): AllocatorStateIndex {
  const table = device.allocations;
  const checkpoints = aliveCheckpointsOf(device);
  const history = device.segmentHistory;
  let cachedEvent = Number.NaN;
  let cachedState: AllocatorState | null = null;
  return {
    device: device.device,
    traceLength: device.traceLength,
    stateAt(event: number): AllocatorState {
      const moment = Math.max(-1, Math.min(device.traceLength - 1, Math.trunc(event)));
      if (cachedState !== null && cachedEvent === moment) return cachedState;
      const rows = aliveRowsAt(table, checkpoints, moment);
      cachedState = assembleState(device.device, moment, history, table, rows, settings);
      cachedEvent = moment;
      return cachedState;
    },
  };
}

function aliveRowsAt(
  table: AllocationTable,
  checkpoints: AliveCheckpoints,
  event: number,
): number[] {
  if (event >= 0) return rowsOverlapping(table, checkpoints, event, event + 1);
  // Before the first entry: the rows made before the trace (they come first in the table).
  const rows: number[] = [];
  for (let row = 0; row < table.count && table.startEvent[row] === BEFORE_TRACE; row++) {
    if (table.endEvent[row]! > event) rows.push(row);
  }
  return rows;
}

function segmentsAt(history: SegmentHistory, event: number): StateSegment[] {
  const found: StateSegment[] = [];
  for (let row = 0; row < history.count; row++) {
    if (history.fromEvent[row]! > event || history.toEvent[row]! <= event) continue;
    found.push({
      historyRow: row,
      address: history.address[row]!,
      sizeBytes: history.sizeBytes[row]!,
      streamId: history.streamId[row]!,
      poolIndex: history.poolIndex[row]!,
      segmentType: history.segmentType[row]!,
      isExpandable: history.isExpandable[row] === 1,
      stackId: history.stackId[row]!,
      firstBlock: 0,
      endBlock: 0,
    });
  }
  return found.sort((a, b) => a.address - b.address);
}

/** Growable block columns. */
class BlockColumns {
  address: number[] = [];
  sizeBytes: number[] = [];
  requestedBytes: number[] = [];
  kind: number[] = [];
  allocationRow: number[] = [];
  sizeIsEstimate: number[] = [];

  push(
    address: number,
    sizeBytes: number,
    requestedBytes: number,
    kind: number,
    row: number,
    estimate: boolean,
  ): void {
    this.address.push(address);
    this.sizeBytes.push(sizeBytes);
    this.requestedBytes.push(requestedBytes);
    this.kind.push(kind);
    this.allocationRow.push(row);
    this.sizeIsEstimate.push(estimate ? 1 : 0);
  }

  get count(): number {
    return this.address.length;
  }

  toBlocks(): StateBlocks {
    return {
      count: this.address.length,
      address: Float64Array.from(this.address),
      sizeBytes: Float64Array.from(this.sizeBytes),
      requestedBytes: Float64Array.from(this.requestedBytes),
      kind: Uint8Array.from(this.kind),
      allocationRow: Int32Array.from(this.allocationRow),
      sizeIsEstimate: Uint8Array.from(this.sizeIsEstimate),
    };
  }
}

function assembleState(
  device: number,
  event: number,
  history: SegmentHistory,
  table: AllocationTable,
  aliveRows: number[],
  settings: AllocatorSettings | null,
): AllocatorState {
  const segments = segmentsAt(history, event);
  // Address order. Rows alive at the same address (only in inconsistent files: a live block at
  // the end that the trace freed, a free of the live block with no alloc, ...) cannot share the
  // bytes: the one allocated last holds them (a later alloc at an address proves the earlier
  // occupant gone), the others overlap it and go to outsideSegments below. Rows made before the
  // trace tie at BEFORE_TRACE; the later row wins there too (rows freed in the trace come after
  // the final blocks: the trace saw them). Consistent files never have two, so nothing changes.
  aliveRows.sort(
    (a, b) =>
      table.address[a]! - table.address[b]! || table.startEvent[b]! - table.startEvent[a]! || b - a,
  );
  const blocks = new BlockColumns();
  const outsideSegments: number[] = [];
  let clippedBlocks = 0;
  let next = 0;
  /** The first row whose address is above the current row's (see `limit`). */
  let above = 0;
  for (const segment of segments) {
    const segmentEnd = segment.address + segment.sizeBytes;
    // Rows below this segment lie in no segment.
    while (next < aliveRows.length && table.address[aliveRows[next]!]! < segment.address) {
      outsideSegments.push(aliveRows[next++]!);
    }
    segment.firstBlock = blocks.count;
    let cursor = segment.address;
    while (next < aliveRows.length && table.address[aliveRows[next]!]! < segmentEnd) {
      const row = aliveRows[next++]!;
      const address = table.address[row]!;
      if (address < cursor) {
        outsideSegments.push(row); // overlaps the block before it: the file disagrees with itself
        continue;
      }
      // The block ends at the next allocation above it at the latest. Rows at this same address
      // (overlapping this one) are skipped here: a limit at `address` would cut this block to 0
      // bytes, leaving its requested bytes in no block (negative rounding waste).
      // (`above` only moves forward: rows come in address order, so this stays linear even
      // when a hostile file has a million rows at one address.)
      if (above < next) above = next;
      while (above < aliveRows.length && table.address[aliveRows[above]!]! <= address) above++;
      const limit =
        above < aliveRows.length
          ? Math.min(segmentEnd, table.address[aliveRows[above]!]!)
          : segmentEnd;
      const requested = table.sizeBytes[row]!;
      let size = table.blockSizeBytes[row]!;
      const estimate = Number.isNaN(size);
      if (estimate) {
        size = roundedRequestBytes(requested, settings);
        const smallPool = segment.segmentType === SegmentTypeCode.small;
        if (keepsRemainder(limit - address - size, smallPool, segment.isExpandable)) {
          size = limit - address;
        }
      }
      if (address + size > limit) {
        size = limit - address;
        clippedBlocks++;
      }
      if (address > cursor) {
        blocks.push(cursor, address - cursor, 0, BlockKind.free, -1, false);
      }
      const pending = table.freeRequestedEvent[row]! <= event;
      const kind = pending ? BlockKind.pendingFree : BlockKind.allocated;
      blocks.push(address, size, requested, kind, row, estimate);
      cursor = address + size;
    }
    if (cursor < segmentEnd) blocks.push(cursor, segmentEnd - cursor, 0, BlockKind.free, -1, false);
    segment.endBlock = blocks.count;
  }
  while (next < aliveRows.length) outsideSegments.push(aliveRows[next++]!);
  return {
    device,
    event,
    segments,
    blocks: blocks.toBlocks(),
    outsideSegments,
    clippedBlocks,
  };
}
