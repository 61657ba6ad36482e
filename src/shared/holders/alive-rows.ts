// The allocations alive at a moment ("the state after event e", -1 = before the first entry):
// the rows of the device's allocation table with start <= e < end. Their requested bytes add up
// to the active curve at e, the figure the timeline shows (analysis/allocation-table.test.ts).
// Found through the alive checkpoints, so a moment of a 1 GB snapshot costs one checkpoint's rows
// plus the rows started since, not a pass over 1.3M allocations.

import { aliveCheckpointsOf, rowsOverlapping } from '../analyzed/alive-checkpoints';
import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';

/** Rows alive after event `moment`, in table order (the order of the timeline's bands). */
export function aliveRowsAt(
  device: Pick<AnalyzedDevice, 'allocations' | 'traceLength' | 'derived'>,
  moment: number,
): Int32Array {
  const table = device.allocations;
  if (moment < 0 || device.traceLength === 0) {
    // Before the first entry: the allocations made before the trace (the table starts with them).
    const rows: number[] = [];
    for (let row = 0; row < table.count && table.startEvent[row]! < 0; row++) {
      if (table.endEvent[row]! > moment) rows.push(row);
    }
    return Int32Array.from(rows);
  }
  const rows = Int32Array.from(
    rowsOverlapping(table, aliveCheckpointsOf(device), moment, moment + 1),
  );
  return rows.sort();
}

/** Requested bytes of `rows`. */
export function bytesOfRows(device: Pick<AnalyzedDevice, 'allocations'>, rows: Int32Array): number {
  let total = 0;
  for (const row of rows) total += device.allocations.sizeBytes[row]!;
  return total;
}

/** Active bytes after event `moment` as the timeline shows them (-1: before the first entry). */
export function activeBytesAt(
  device: Pick<AnalyzedDevice, 'activeBytes' | 'traceLength' | 'figures'>,
  moment: number,
): number {
  return moment < 0 || device.traceLength === 0
    ? device.figures.active.baselineBytes
    : device.activeBytes[moment]!;
}
