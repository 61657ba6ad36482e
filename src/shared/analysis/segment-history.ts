// The allocator's segments over the whole trace, found by walking back from the final
// `segments` list through segment_alloc / segment_free / segment_map / segment_unmap entries.
// One row per segment extent and the span of moments it existed; an expandable segment whose
// mapped extent grows or shrinks gets a new row for each extent it had.

import type { FinalState } from './final-state';
import { ActionCode, NO_STACK, type DeviceTrace, type SnapshotModel } from '../snapshot/model';
import { deviceLabel } from '../format/words';

export const SegmentTypeCode = { large: 0, small: 1, unknown: 2 } as const;

/** Moments are "the state after event e", e in -1 (before the first entry) .. traceLength - 1. */
export interface SegmentHistory {
  count: number;
  address: Float64Array;
  sizeBytes: Float64Array;
  /** Index into AnalyzedSnapshot.streams. */
  streamId: Uint32Array;
  /** Index into AnalyzedSnapshot.pools (0 = the default pool). */
  poolIndex: Uint32Array;
  /** SegmentTypeCode. */
  segmentType: Uint8Array;
  isExpandable: Uint8Array;
  /** Stack of the cudaMalloc / map, NO_STACK when unknown. */
  stackId: Int32Array;
  /** The row exists in the states after events fromEvent .. toEvent - 1. */
  fromEvent: Int32Array;
  toEvent: Int32Array;
}

/** Segments of exactly this size are the small pool's (kSmallBuffer); larger ones the large pool's. */
const SMALL_SEGMENT_BYTES = 2 * 1024 * 1024;

interface Extent {
  address: number;
  sizeBytes: number;
  streamId: number;
  poolIndex: number;
  segmentType: number;
  isExpandable: boolean;
  stackId: number;
  /** The history row this extent will become; its fromEvent is found when the walk undoes its creation. */
  toEvent: number;
}

class HistoryRows {
  readonly address: number[] = [];
  readonly sizeBytes: number[] = [];
  readonly streamId: number[] = [];
  readonly poolIndex: number[] = [];
  readonly segmentType: number[] = [];
  readonly isExpandable: number[] = [];
  readonly stackId: number[] = [];
  readonly fromEvent: number[] = [];
  readonly toEvent: number[] = [];

  close(extent: Extent, fromEvent: number): void {
    this.address.push(extent.address);
    this.sizeBytes.push(extent.sizeBytes);
    this.streamId.push(extent.streamId);
    this.poolIndex.push(extent.poolIndex);
    this.segmentType.push(extent.segmentType);
    this.isExpandable.push(extent.isExpandable ? 1 : 0);
    this.stackId.push(extent.stackId);
    this.fromEvent.push(fromEvent);
    this.toEvent.push(extent.toEvent);
  }

  toTable(): SegmentHistory {
    return {
      count: this.address.length,
      address: Float64Array.from(this.address),
      sizeBytes: Float64Array.from(this.sizeBytes),
      streamId: Uint32Array.from(this.streamId),
      poolIndex: Uint32Array.from(this.poolIndex),
      segmentType: Uint8Array.from(this.segmentType),
      isExpandable: Uint8Array.from(this.isExpandable),
      stackId: Int32Array.from(this.stackId),
      fromEvent: Int32Array.from(this.fromEvent),
      toEvent: Int32Array.from(this.toEvent),
    };
  }
}

/**
 * Walks the trace backwards from the final segments: undoing a segment_alloc removes the
 * segment, undoing a segment_free brings it back, undoing a segment_map shrinks the expandable
 * segment holding it, undoing a segment_unmap grows (and re-joins) it. Entries that do not fit
 * the state (a file trimmed or inconsistent) are counted in one warning, never thrown.
 */
export function buildSegmentHistory(
  model: SnapshotModel,
  // What of a device's analysis the history needs (snapshot-analysis.ts builds it from these).
  device: { device: number; trace: DeviceTrace | null; finalState: FinalState },
  warnings: string[],
): SegmentHistory {
  const { segments } = model;
  const trace = device.trace;
  const traceLength = trace?.length ?? 0;
  const current = new Map<number, Extent>();
  for (const s of device.finalState.segmentIndexes) {
    current.set(segments.address[s]!, {
      address: segments.address[s]!,
      sizeBytes: segments.totalSizeBytes[s]!,
      streamId: segments.streamId[s]!,
      poolIndex: segments.poolId[s]!,
      segmentType: segments.segmentType[s]!,
      isExpandable: segments.isExpandable[s] === 1,
      stackId: segments.stackId[s]!,
      toEvent: traceLength,
    });
  }
  const rows = new HistoryRows();
  let misfits = 0;
  if (trace !== null) {
    for (let event = traceLength - 1; event >= 0; event--) {
      const action = trace.action[event]!;
      if (action < ActionCode.segment_alloc || action > ActionCode.segment_unmap) continue;
      const address = trace.addr[event]!;
      const sizeBytes = trace.sizeBytes[event]!;
      const streamId = trace.streamId[event]!;
      const stackId = trace.stackId[event]!;
      if (action === ActionCode.segment_alloc) {
        const extent = current.get(address);
        if (extent === undefined) {
          misfits++;
          continue;
        }
        if (extent.stackId === NO_STACK) extent.stackId = stackId;
        rows.close(extent, event);
        current.delete(address);
      } else if (action === ActionCode.segment_free) {
        if (current.has(address)) {
          misfits++;
          continue;
        }
        current.set(address, {
          address,
          sizeBytes,
          streamId,
          poolIndex: 0,
          segmentType: typeOfSize(sizeBytes),
          isExpandable: false,
          stackId,
          toEvent: event,
        });
      } else if (action === ActionCode.segment_map) {
        if (!unmap(current, rows, address, sizeBytes, event)) misfits++;
      } else if (!map(current, rows, address, sizeBytes, streamId, stackId, event)) {
        misfits++;
      }
    }
  }
  for (const extent of current.values()) rows.close(extent, -1);
  if (misfits > 0) {
    warnings.push(
      `${deviceLabel(device.device)}: ${misfits} segment entries of the trace do not fit the segments ` +
        `at the end (the file is trimmed or inconsistent); the segments view skips them`,
    );
  }
  return rows.toTable();
}

function typeOfSize(sizeBytes: number): number {
  return sizeBytes === SMALL_SEGMENT_BYTES ? SegmentTypeCode.small : SegmentTypeCode.large;
}

/** Undo of a segment_map: the pages leave the extent holding them, which may split in two. */
function unmap(
  current: Map<number, Extent>,
  rows: HistoryRows,
  address: number,
  sizeBytes: number,
  event: number,
): boolean {
  const end = address + sizeBytes;
  let holder: Extent | undefined;
  for (const extent of current.values()) {
    if (extent.address <= address && end <= extent.address + extent.sizeBytes) {
      holder = extent;
      break;
    }
  }
  if (holder === undefined) return false;
  rows.close(holder, event);
  current.delete(holder.address);
  const holderEnd = holder.address + holder.sizeBytes;
  if (holder.address < address) {
    current.set(holder.address, {
      ...holder,
      sizeBytes: address - holder.address,
      toEvent: event,
    });
  }
  if (end < holderEnd) {
    current.set(end, { ...holder, address: end, sizeBytes: holderEnd - end, toEvent: event });
  }
  return true;
}

/** Undo of a segment_unmap: the pages come back, joining the expandable extents beside them. */
function map(
  current: Map<number, Extent>,
  rows: HistoryRows,
  address: number,
  sizeBytes: number,
  streamId: number,
  stackId: number,
  event: number,
): boolean {
  const end = address + sizeBytes;
  let before: Extent | undefined;
  let after: Extent | undefined;
  for (const extent of current.values()) {
    const extentEnd = extent.address + extent.sizeBytes;
    if (extent.address < end && address < extentEnd) return false; // already mapped
    if (!extent.isExpandable || extent.streamId !== streamId) continue;
    if (extentEnd === address) before = extent;
    if (extent.address === end) after = extent;
  }
  const template = before ?? after;
  let start = address;
  let total = sizeBytes;
  for (const neighbour of [before, after]) {
    if (neighbour === undefined) continue;
    rows.close(neighbour, event);
    current.delete(neighbour.address);
    start = Math.min(start, neighbour.address);
    total += neighbour.sizeBytes;
  }
  current.set(start, {
    address: start,
    sizeBytes: total,
    streamId,
    poolIndex: template?.poolIndex ?? 0,
    segmentType: template?.segmentType ?? typeOfSize(sizeBytes),
    isExpandable: true,
    stackId: template?.stackId ?? stackId,
    toEvent: event,
  });
  return true;
}

export function emptySegmentHistory(): SegmentHistory {
  return new HistoryRows().toTable();
}
