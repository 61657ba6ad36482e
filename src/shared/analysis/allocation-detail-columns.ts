// What the newest snapshots record per allocation beyond size and stack, as columns of one device:
// the trace entries' optional fields (copied out of the model's shared buffer), the final blocks'
// forward_frames for allocations made before the trace, and the `annotate` entries with the
// allocation each one names. Read row by row by analyzed/allocation-details.ts.

import {
  BlockStateCode,
  NO_LIST,
  type DeviceTrace,
  type SnapshotModel,
  type TraceAnnotation,
} from '../snapshot/model';
import { AllocationOrigin, type AllocationTable } from './allocation-table';
import type { FinalState } from './final-state';

export interface AllocationDetailColumns {
  /** Per trace entry (row of the device's trace): index into strings, or NO_STRING; null when none. */
  compileContextId: Int32Array | null;
  userMetadataId: Int32Array | null;
  internalMetadataId: Int32Array | null;
  categoryId: Int32Array | null;
  /** Per trace entry: index into pools, or NO_STRING. */
  poolIndex: Int32Array | null;
  /** Per trace entry: index into forwardFrames, or NO_LIST. */
  forwardFramesId: Int32Array | null;
  /** Per trace entry of a profiler trace: its op (index into strings, or NO_STRING); absent else. */
  opNameId?: Int32Array | null;
  /** Per allocation row: forward_frames of its final block (allocations alive through the trace). */
  blockForwardFramesId: Int32Array | null;
  /** The device's `annotate` entries, in trace order. */
  annotations: TraceAnnotation[];
  /** Per annotation: the allocation row it names (alive at its base address then), or -1. */
  annotationRow: Int32Array;
}

export function allocationDetailColumnsOf(
  model: SnapshotModel,
  trace: DeviceTrace | null,
  finalState: FinalState,
  allocations: AllocationTable,
): AllocationDetailColumns {
  const annotations = trace?.annotations ?? [];
  return {
    compileContextId: trace?.compileContextId?.slice() ?? null,
    userMetadataId: trace?.userMetadataId?.slice() ?? null,
    internalMetadataId: trace?.internalMetadataId?.slice() ?? null,
    categoryId: trace?.categoryId?.slice() ?? null,
    poolIndex: trace?.poolIndex?.slice() ?? null,
    forwardFramesId: trace?.forwardFramesId?.slice() ?? null,
    ...(trace?.opNameId === undefined ? {} : { opNameId: trace.opNameId?.slice() ?? null }),
    blockForwardFramesId: blockForwardFrames(model, finalState, allocations),
    annotations,
    annotationRow: annotationRows(annotations, allocations),
  };
}

/** forward_frames of the final block of each allocation alive through the whole trace. */
function blockForwardFrames(
  model: SnapshotModel,
  finalState: FinalState,
  allocations: AllocationTable,
): Int32Array | null {
  const { segments, blocks } = model;
  const column = blocks.forwardFramesId;
  if (column === undefined || column === null) return null;
  const byAddress = new Map<number, number>();
  for (const s of finalState.segmentIndexes) {
    for (let b = segments.blockOffsets[s]!; b < segments.blockOffsets[s + 1]!; b++) {
      if (blocks.state[b] !== BlockStateCode.inactive && column[b] !== NO_LIST) {
        byAddress.set(blocks.address[b]!, column[b]!);
      }
    }
  }
  if (byAddress.size === 0) return null;
  const result = new Int32Array(allocations.count).fill(NO_LIST);
  for (let row = 0; row < allocations.count; row++) {
    if (allocations.origin[row] !== AllocationOrigin.liveThroughout) continue;
    result[row] = byAddress.get(allocations.address[row]!) ?? NO_LIST;
  }
  return result;
}

/**
 * The allocation each annotation names: the one alive just after `afterEvent` whose base address
 * is `addr`. An address is live in at most one allocation at a time, so the first match is it.
 */
function annotationRows(
  annotations: readonly TraceAnnotation[],
  allocations: AllocationTable,
): Int32Array {
  const rows = new Int32Array(annotations.length).fill(-1);
  if (annotations.length === 0) return rows;
  const wanted = new Map<number, number[]>();
  annotations.forEach((annotation, index) => {
    const list = wanted.get(annotation.addr);
    if (list === undefined) wanted.set(annotation.addr, [index]);
    else list.push(index);
  });
  for (let row = 0; row < allocations.count; row++) {
    const indexes = wanted.get(allocations.address[row]!);
    if (indexes === undefined) continue;
    const start = allocations.startEvent[row]!;
    const end = allocations.endEvent[row]!;
    for (const index of indexes) {
      const moment = annotations[index]!.afterEvent;
      if (rows[index] === -1 && start <= moment && end > moment) rows[index] = row;
    }
  }
  return rows;
}
