// What the newest snapshots record about one allocation beyond its size and stack: metadata the
// user attached, the compile context, where autograd created the tensor in the forward pass,
// `annotate` actions, the pool, the category. Read by the stack panel, tooltips, tables, exports.

import { BEFORE_TRACE } from '../analysis/allocation-table';
import { NO_LIST, NO_STACK, NO_STRING, type FrameTable } from '../snapshot/model';
import type { AnalyzedDevice, AnalyzedSnapshot } from './analyzed-snapshot';
import { metadataJsonOf, type MetadataJson } from './metadata-json';

export interface AllocationAnnotation {
  /** Metadata text as written; `parsed` holds it when it is JSON. */
  text: string;
  parsed: unknown;
  /** Why text that starts like JSON was not read as JSON (nested too deep, too long); else null. */
  notRead: string | null;
  /**
   * The moment of the `annotate` entry: the trace entry it came after (-1: before the first).
   * `annotate` entries are not rows of the trace (they change no figure), so this is the index
   * of the row before it.
   */
  event: number;
  /** Stack of the annotating call (NO_STACK when none). */
  stackId: number;
  /** time_us of the annotate entry; NaN when the file has none (optional: added later). */
  timeUs?: number;
}

export interface AllocationDetails {
  /** `user_metadata` as written (null when absent or empty); `userMetadataParsed` when JSON. */
  userMetadata: string | null;
  userMetadataParsed: unknown;
  /** Why user_metadata that starts like JSON was not read as JSON (metadata-json.ts); else null. */
  userMetadataNotRead: string | null;
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

const NO_JSON: MetadataJson = Object.freeze({ value: undefined, notRead: null });

export const NO_DETAILS: AllocationDetails = Object.freeze({
  userMetadata: null,
  userMetadataParsed: undefined,
  userMetadataNotRead: null,
  compileContext: null,
  forwardFrames: [],
  poolId: null,
  internalMetadata: null,
  category: null,
  annotations: [],
});

/**
 * The details of allocation `row` of `device` (NO_DETAILS when the file records none): from its
 * `alloc` entry (AllocationTable.startEvent); allocations made before the trace take the
 * forward_frames of their final block where it has them. Annotations are the `annotate` entries
 * that named the allocation's base address while it was alive.
 */
export function allocationDetails(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  row: number,
): AllocationDetails {
  const columns = device.details;
  if (columns === undefined || row < 0 || row >= device.allocations.count) return NO_DETAILS;
  const strings = snapshot.strings ?? [];
  const text = (column: Int32Array | null, event: number): string | null => {
    if (column === null || event < 0) return null;
    const id = column[event]!;
    return id === NO_STRING ? null : (strings[id] ?? null);
  };
  const event = device.allocations.startEvent[row]!;
  const userMetadataId = event < 0 ? NO_STRING : (columns.userMetadataId?.[event] ?? NO_STRING);
  const userMetadata = text(columns.userMetadataId, event);
  // Each distinct text read as JSON once: a file may give every allocation the same megabyte.
  const json = (id: number): MetadataJson =>
    id === NO_STRING ? NO_JSON : metadataJsonOf(snapshot, id);
  const userMetadataJson = userMetadata === null ? NO_JSON : json(userMetadataId);
  const compileContext = text(columns.compileContextId, event);
  const poolIndex = event === BEFORE_TRACE ? NO_STRING : (columns.poolIndex?.[event] ?? NO_STRING);
  const forwardList =
    event === BEFORE_TRACE
      ? (columns.blockForwardFramesId?.[row] ?? NO_LIST)
      : (columns.forwardFramesId?.[event] ?? NO_LIST);
  const annotations: AllocationAnnotation[] = [];
  columns.annotations.forEach((annotation, index) => {
    if (columns.annotationRow[index] !== row) return;
    const annotationText =
      annotation.textId === NO_STRING ? '' : (strings[annotation.textId] ?? '');
    const annotationJson = json(annotation.textId);
    annotations.push({
      text: annotationText,
      parsed: annotationJson.value,
      notRead: annotationJson.notRead,
      event: annotation.afterEvent,
      stackId: annotation.stackId,
      timeUs: annotation.timeUs,
    });
  });
  const details: AllocationDetails = {
    userMetadata,
    userMetadataParsed: userMetadataJson.value,
    userMetadataNotRead: userMetadataJson.notRead,
    compileContext: compileContext === 'N/A' ? null : compileContext,
    forwardFrames: stringList(snapshot, forwardList),
    poolId: poolIndex === NO_STRING ? null : (snapshot.pools[poolIndex] ?? null),
    internalMetadata: text(columns.internalMetadataId, event),
    category: text(columns.categoryId, event),
    annotations,
  };
  return hasDetails(details) ? details : NO_DETAILS;
}

/** The strings of forward_frames list `listId` (innermost first, as written); [] for NO_LIST. */
export function stringList(
  snapshot: Pick<AnalyzedSnapshot, 'strings' | 'forwardFrames'>,
  listId: number,
): string[] {
  const table = snapshot.forwardFrames;
  if (
    listId === NO_LIST ||
    table === undefined ||
    listId < 0 ||
    listId + 1 >= table.offsets.length
  ) {
    return [];
  }
  const strings = snapshot.strings ?? [];
  const result: string[] = [];
  for (let i = table.offsets[listId]!; i < table.offsets[listId + 1]!; i++) {
    result.push(strings[table.stringIds[i]!] ?? '');
  }
  return result;
}

/** A frame's FX keys (`augment_with_fx_traces=True`); null when the frame has none. */
export interface FrameFx {
  nodeOp: string | null;
  nodeName: string | null;
  nodeTarget: string | null;
  /** The model source line a compiled graph node came from. */
  originalTrace: string | null;
}

export function frameFx(frames: FrameTable, frameId: number): FrameFx | null {
  const fx = frames.fx;
  if (fx === undefined || frameId === NO_STACK) return null;
  const value: FrameFx = {
    nodeOp: fx.nodeOp[frameId] ?? null,
    nodeName: fx.nodeName[frameId] ?? null,
    nodeTarget: fx.nodeTarget[frameId] ?? null,
    originalTrace: fx.originalTrace[frameId] ?? null,
  };
  return value.nodeOp === null &&
    value.nodeName === null &&
    value.nodeTarget === null &&
    value.originalTrace === null
    ? null
    : value;
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
