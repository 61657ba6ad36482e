// The op that made an allocation of a profiler trace: the innermost `cpu_op` span (aten::empty,
// aten::mm, autograd::engine::evaluate_function: AddmmBackward0) running on the allocating
// thread when its `[memory]` event was recorded. What "who holds it, by op" groups by. Snapshots
// record no op (their stacks hold the C++ frames instead): null.

import { NO_STRING } from '../snapshot/model';
import type { AnalyzedDevice, AnalyzedSnapshot } from './analyzed-snapshot';

/** Whether the device's file records ops (a profiler trace; a snapshot does not). */
export function recordsOps(device: Pick<AnalyzedDevice, 'details'>): boolean {
  return (device.details?.opNameId ?? null) !== null;
}

/** No op was running (an allocation outside every op), or the file records none. */
export const NO_OP = null;

export function allocationOp(
  snapshot: Pick<AnalyzedSnapshot, 'strings'>,
  device: Pick<AnalyzedDevice, 'details' | 'allocations'>,
  row: number,
): string | null {
  const column = device.details?.opNameId;
  if (column === undefined || column === null || row < 0 || row >= device.allocations.count)
    return NO_OP;
  const event = device.allocations.startEvent[row]!;
  if (event < 0) return NO_OP;
  const id = column[event]!;
  return id === NO_STRING ? NO_OP : (snapshot.strings?.[id] ?? NO_OP);
}
