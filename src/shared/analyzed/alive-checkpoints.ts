// Which allocations are alive somewhere in a narrow window, without scanning the whole table:
// the rows alive at every CHECKPOINT_EVENTS-th event are kept, and the table's rows are in
// start order, so a window's allocations are (alive at the checkpoint before it, still alive at
// its start) + (started between the checkpoint and the window's end).

import type { AllocationTable } from '../analysis/allocation-table';
import { int32Column } from '../snapshot/growable-column';
import type { AnalyzedDevice } from './analyzed-snapshot';
import { postableDerivedKey } from './derived-cache';

export const CHECKPOINT_EVENTS = 4096;

export interface AliveCheckpoints {
  /** Rows alive after event k * CHECKPOINT_EVENTS are rows[offsets[k] .. offsets[k + 1]). */
  offsets: Int32Array;
  rows: Int32Array;
}

const ALIVE_CHECKPOINTS = postableDerivedKey<AliveCheckpoints>('alive checkpoints');

/**
 * The checkpoints of a device's table, built once: the timeline (narrow windows) and the
 * allocator state (any moment) both need them.
 */
export function aliveCheckpointsOf(
  device: Pick<AnalyzedDevice, 'allocations' | 'traceLength' | 'derived'>,
): AliveCheckpoints {
  return device.derived.get(ALIVE_CHECKPOINTS, () =>
    buildAliveCheckpoints(device.allocations, device.traceLength),
  );
}

export function buildAliveCheckpoints(
  table: AllocationTable,
  traceLength: number,
): AliveCheckpoints {
  const checkpoints = Math.floor(Math.max(0, traceLength - 1) / CHECKPOINT_EVENTS) + 1;
  // Rows by end event (counting sort), so the sweep can drop them in order.
  const endCounts = new Int32Array(traceLength + 2);
  for (let row = 0; row < table.count; row++)
    endCounts[Math.min(table.endEvent[row]!, traceLength) + 1]!++;
  for (let i = 1; i < endCounts.length; i++) endCounts[i]! += endCounts[i - 1]!;
  const rowsByEnd = new Int32Array(table.count);
  const cursor = endCounts.slice();
  for (let row = 0; row < table.count; row++)
    rowsByEnd[cursor[Math.min(table.endEvent[row]!, traceLength)]!++] = row;

  // The alive set as a dense list with positions, for O(1) removal.
  const alive = new Int32Array(table.count);
  const positionOf = new Int32Array(table.count).fill(-1);
  let aliveCount = 0;
  const offsets = new Int32Array(checkpoints + 1);
  // The rows of every checkpoint, one after another, copied a checkpoint at a time (a JS array
  // pushed one row at a time took 0.8 s of the 6 GB file's first screen).
  const collected = int32Column();
  let nextStart = 0;
  let nextEnd = 0;
  for (let k = 0; k < checkpoints; k++) {
    const event = k * CHECKPOINT_EVENTS;
    // Alive after `event`: start <= event < end.
    while (nextStart < table.count && table.startEvent[nextStart]! <= event) {
      positionOf[nextStart] = aliveCount;
      alive[aliveCount++] = nextStart;
      nextStart++;
    }
    while (
      nextEnd < table.count &&
      Math.min(table.endEvent[rowsByEnd[nextEnd]!]!, traceLength) <= event
    ) {
      const row = rowsByEnd[nextEnd++]!;
      const at = positionOf[row]!;
      if (at < 0) continue; // ended before it started (only in inconsistent tables)
      const last = alive[--aliveCount]!;
      alive[at] = last;
      positionOf[last] = at;
      positionOf[row] = -1;
    }
    offsets[k] = collected.length;
    collected.pushAll(alive.subarray(0, aliveCount));
  }
  offsets[checkpoints] = collected.length;
  return { offsets, rows: collected.values().slice() };
}

/**
 * Rows alive somewhere in [startEvent, endEvent) (start < endEvent and end > startEvent), in no
 * order; for windows starting at event 0 or later.
 */
export function rowsOverlapping(
  table: AllocationTable,
  checkpoints: AliveCheckpoints,
  startEvent: number,
  endEvent: number,
): number[] {
  const from = Math.max(0, startEvent);
  const k = Math.min(Math.floor(from / CHECKPOINT_EVENTS), checkpoints.offsets.length - 2);
  const checkpointEvent = k * CHECKPOINT_EVENTS;
  const found: number[] = [];
  for (let i = checkpoints.offsets[k]!; i < checkpoints.offsets[k + 1]!; i++) {
    const row = checkpoints.rows[i]!;
    if (table.endEvent[row]! > startEvent && table.startEvent[row]! < endEvent) found.push(row);
  }
  // Rows are in start order: those starting after the checkpoint and before the window's end.
  for (let row = firstRowStartingAfter(table, checkpointEvent); row < table.count; row++) {
    if (table.startEvent[row]! >= endEvent) break;
    if (table.endEvent[row]! > startEvent) found.push(row);
  }
  return found;
}

/** The first row whose allocation starts after `event` (rows are in start order); count if none. */
export function firstRowStartingAfter(table: AllocationTable, event: number): number {
  let low = 0;
  let high = table.count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (table.startEvent[middle]! <= event) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** How many rows start inside [startEvent, endEvent): decides whether the window is narrow. */
export function rowsStartingIn(
  table: AllocationTable,
  startEvent: number,
  endEvent: number,
): number {
  return firstRowStartingAfter(table, endEvent - 1) - firstRowStartingAfter(table, startEvent - 1);
}
