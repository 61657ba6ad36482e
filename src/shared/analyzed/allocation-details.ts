// What the newest snapshots record about one allocation beyond its size and stack: metadata the
// user attached, the compile context, where autograd created the tensor in the forward pass,
// `annotate` actions, the pool, the category. Read by the stack panel, tooltips, tables, exports.

import type { AnalyzedDevice, AnalyzedSnapshot } from './analyzed-snapshot';

export interface AllocationAnnotation {
  /** Metadata text as written; `parsed` holds it when it is JSON. */
  text: string;
  parsed: unknown;
  /** Index of the `annotate` entry in the device's trace. */
  event: number;
  /** Stack of the annotating call (NO_STACK when none). */
  stackId: number;
}

export interface AllocationDetails {
  /** `user_metadata` as written (null when absent or empty); `userMetadataParsed` when JSON. */
  userMetadata: string | null;
  userMetadataParsed: unknown;
  /** `compile_context`, null when absent or "N/A". */
  compileContext: string | null;
  /** `forward_frames`: where autograd created the tensor (strings, innermost first); [] none. */
  forwardFrames: readonly string[];
  /** `pool_id` of the alloc entry as written (e.g. "0,0"), null when absent. */
  poolId: string | null;
  internalMetadata: string | null;
  /** `category` (files written by profile_plot), null when absent. */
  category: string | null;
  annotations: readonly AllocationAnnotation[];
}

export const NO_DETAILS: AllocationDetails = Object.freeze({
  userMetadata: null,
  userMetadataParsed: undefined,
  compileContext: null,
  forwardFrames: [],
  poolId: null,
  internalMetadata: null,
  category: null,
  annotations: [],
});

/** The details of allocation `row` of `device` (NO_DETAILS when the file records none). */
export function allocationDetails(
  _view: AnalyzedSnapshot,
  _device: AnalyzedDevice,
  _row: number,
): AllocationDetails {
  return NO_DETAILS;
}

/** True when the details hold anything worth a section of its own. */
export function hasDetails(details: AllocationDetails): boolean {
  return (
    details.userMetadata !== null ||
    details.compileContext !== null ||
    details.forwardFrames.length > 0 ||
    details.poolId !== null ||
    details.internalMetadata !== null ||
    details.category !== null ||
    details.annotations.length > 0
  );
}
