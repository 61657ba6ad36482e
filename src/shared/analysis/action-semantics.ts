// How each trace action moves the two curves (docs/snapshot-format.md, "Timeline semantics"), as lookup tables
// by action code so the hot loops do one array read per entry.

import { ActionCode, type DeviceTrace } from '../snapshot/model';

/** Which entries end an allocation: free_completed when the trace has any, else free_requested. */
export interface FreeingActions {
  /** 1 for action codes that free an allocation. */
  isFreeing: Uint8Array;
  /** The name shown to users, e.g. "free_completed". */
  primary: 'free_completed' | 'free_requested';
}

export function freeingActionsOf(trace: DeviceTrace): FreeingActions {
  return freeingActions(trace.action.includes(ActionCode.free_completed));
}

/** The freeing actions of a trace that has free_completed entries or has none. */
export function freeingActions(hasFreeCompleted: boolean): FreeingActions {
  const isFreeing = new Uint8Array(256);
  isFreeing[ActionCode.free] = 1;
  isFreeing[hasFreeCompleted ? ActionCode.free_completed : ActionCode.free_requested] = 1;
  return { isFreeing, primary: hasFreeCompleted ? 'free_completed' : 'free_requested' };
}

/** +1 / -1 / 0 per action code: the sign of the entry's size on the active curve. */
export function activeDeltaSigns(freeing: FreeingActions): Int8Array {
  const signs = new Int8Array(256);
  signs[ActionCode.alloc] = 1;
  for (let code = 0; code < 256; code++) if (freeing.isFreeing[code] === 1) signs[code] = -1;
  return signs;
}

/** +1 / -1 / 0 per action code: the sign of the entry's size on the reserved curve. */
export function reservedDeltaSigns(): Int8Array {
  const signs = new Int8Array(256);
  signs[ActionCode.segment_alloc] = 1;
  signs[ActionCode.segment_map] = 1;
  signs[ActionCode.segment_free] = -1;
  signs[ActionCode.segment_unmap] = -1;
  return signs;
}
