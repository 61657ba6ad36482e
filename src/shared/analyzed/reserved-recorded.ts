// The words every view, table and document uses where a file records no reserved bytes (a CPU
// profiler trace: Total Reserved is 0 at every [memory] event; a memory timeline), so that no
// figure of 0 B reads as measured (DeviceFigures.reservedRecorded).

import type { SnapshotSource } from '../snapshot/model';

/** What stands in a table's cell instead of a reserved figure the file does not record. */
export const RESERVED_NOT_RECORDED = 'not recorded';

/** Why a file of this source records no reserved bytes, in PyTorch's words. */
export function whyReservedNotRecorded(source: SnapshotSource | undefined): string {
  return source === 'memory-timeline'
    ? 'a memory timeline records no reserved bytes'
    : "a profiler trace of CPU memory: the [memory] events' Total Reserved is 0 throughout";
}
