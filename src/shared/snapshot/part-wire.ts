// A decoded part as a worker posts it (issue 25): structured clone keeps typed arrays, strings,
// plain objects and shared references, but not frozenness, and a frozen array is how a tuple is
// told from a list (a tuple is never a list to append to, and may be a dict key). The part's memo
// objects go with their tuples marked, and come back frozen. Typed arrays are transferred.

import type { TracePart } from './decode-trace-part';

const TUPLE_KEY = 'allocscope.tuple';

interface PackedTuple {
  [TUPLE_KEY]: unknown[];
}

/** The part, ready to post, and the buffers to transfer with it (the part is not used after). */
export function packPart(part: TracePart): { part: TracePart; transfer: ArrayBuffer[] } {
  const packed = new Map<object, unknown>();
  const pack = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
    const known = packed.get(value);
    if (known !== undefined) return known;
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      const result = Object.isFrozen(value) ? { [TUPLE_KEY]: items } : items;
      packed.set(value, result);
      for (const item of value) items.push(pack(item));
      return result;
    }
    const result: Record<string, unknown> = {};
    packed.set(value, result);
    for (const [key, item] of Object.entries(value)) result[key] = pack(item);
    return result;
  };
  const objects = part.memo.objects.map(pack);
  // The later trace lists it began are memo objects too: one map keeps them the same objects.
  const state = part.state === null ? null : { ...part.state, lists: part.state.lists.map(pack) };
  const { tables, stacks, memo } = part;
  const columns = [
    tables?.action,
    tables?.addr,
    tables?.sizeBytes,
    tables?.streamId,
    tables?.timeUs,
    tables?.stackId,
    tables?.compileContextId,
    tables?.userMetadataId,
    tables?.internalMetadataId,
    tables?.categoryId,
    tables?.poolIndex,
    tables?.forwardFramesId,
    stacks.stacks.offsets,
    stacks.stacks.frameIds,
    memo.codes,
  ];
  const transfer = columns.flatMap((column) =>
    column !== null && column !== undefined && column.buffer instanceof ArrayBuffer
      ? [column.buffer]
      : [],
  );
  return { part: { ...part, state, memo: { codes: memo.codes, objects } }, transfer };
}

/** The part as posted, its tuples frozen again. */
export function unpackPart(part: TracePart): TracePart {
  const unpacked = new Map<object, unknown>();
  const unpack = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
    const known = unpacked.get(value);
    if (known !== undefined) return known;
    if (Array.isArray(value)) {
      const items: unknown[] = [];
      unpacked.set(value, items);
      for (const item of value) items.push(unpack(item));
      return items;
    }
    if (TUPLE_KEY in value) {
      const items = (value as PackedTuple)[TUPLE_KEY].map(unpack);
      const tuple = Object.freeze(items);
      unpacked.set(value, tuple);
      return tuple;
    }
    const result: Record<string, unknown> = {};
    unpacked.set(value, result);
    for (const [key, item] of Object.entries(value)) result[key] = unpack(item);
    return result;
  };
  const objects = part.memo.objects.map(unpack);
  const state = part.state === null ? null : { ...part.state, lists: part.state.lists.map(unpack) };
  return { ...part, state, memo: { codes: part.memo.codes, objects } };
}
