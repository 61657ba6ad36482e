// Assembles the model from the unpickled top-level value: the trace rows are already in columns
// (TraceTableBuilder); segments, blocks and annotations are validated here and turned into
// columns too. All legacy layouts end up in the same model.

import { z } from 'zod';
import {
  BlockStateCode,
  HOST_DEVICE,
  NO_LIST,
  NO_STACK,
  type BlockTable,
  type DeviceTrace,
  type ExternalAnnotation,
  type SegmentTable,
  type SnapshotModel,
} from './model';
import {
  describeFound,
  describeZodError,
  MAX_DEVICES,
  notADeviceIndex,
  rawAnnotationSchema,
  rawBlockSchema,
  rawHistoryEntrySchema,
  rawHostSegmentSchema,
  rawSegmentSchema,
  rawSnapshotDictSchema,
  type RawBlock,
  type RawHistoryEntry,
  type RawSegment,
} from './raw-schema';
import { groupDigits } from '../errors/unreadable-input';
import { sanitizeAllocatorSettings } from './allocator-settings';
import { SnapshotFormatError } from './snapshot-error';
import { SortedByKey } from './sorted-by-key';
import { StackRef, StringListRef, type StackInterner } from './stack-interner';
import type {
  PendingAnnotation,
  PendingUserDefined,
  RowRange,
  TraceTableBuilder,
} from './trace-table-builder';
import { countOf, nounFor } from '../format/plural';

export interface BuildInputs {
  root: unknown;
  /** Null for the JSON form. */
  pickleProtocol: number | null;
  traceTable: TraceTableBuilder;
  stacks: StackInterner;
}

export function buildSnapshotModel({
  root,
  pickleProtocol,
  traceTable,
  stacks,
}: BuildInputs): SnapshotModel {
  const warnings: string[] = [];
  let layout: SnapshotModel['layout'];
  let rawSegments: ParsedSegment[];
  let traceLists: unknown[] = [];
  let allocatorSettings: Record<string, unknown> | null = null;
  let externalAnnotations: ExternalAnnotation[] = [];
  let hostTraces: unknown = undefined;

  if (Array.isArray(root)) {
    layout = 'segment-list';
    rawSegments = parseSegments(root, 'segments');
  } else if (typeof root === 'object' && root !== null && !(root instanceof Uint8Array)) {
    layout = 'dict';
    const dict = parseOrThrow(
      rawSnapshotDictSchema,
      withListsAsListed(root as Record<string, unknown>, stacks, traceTable),
      '',
    );
    if (!('segments' in dict) && !('device_traces' in dict) && !('traces' in dict)) {
      throw new SnapshotFormatError(
        "not a memory snapshot: the top-level dict has neither 'segments' nor 'device_traces'",
      );
    }
    rawSegments = parseSegments(dict.segments ?? [], 'segments');
    if (dict.host_segments !== undefined) {
      // Pinned host memory: one pseudo-device, whatever `device` the records carry.
      rawSegments.push(...parseSegments(dict.host_segments, 'host_segments', true));
    }
    // host_traces may be a list of lists; a new list only where one of them is a stand-in (its
    // own identity names its entries' range when it is a list of entries).
    hostTraces =
      Array.isArray(dict.host_traces) &&
      dict.host_traces.some((item) => item instanceof StackRef || item instanceof StringListRef)
        ? dict.host_traces.map((item) => listAsListed(item, stacks, traceTable))
        : dict.host_traces;
    traceLists = (dict.device_traces ?? dict.traces ?? []).map((list) =>
      listAsListed(list, stacks, traceTable),
    );
    allocatorSettings =
      dict.allocator_settings === undefined || dict.allocator_settings === null
        ? null
        : sanitizeAllocatorSettings(dict.allocator_settings, warnings, (value) =>
            listAsListed(value, stacks, traceTable),
          );
    externalAnnotations = parseEach(
      dict.external_annotations ?? [],
      rawAnnotationSchema,
      'external_annotations',
    ).map((annotation) => ({
      stage: annotation.stage,
      name: annotation.name,
      device: annotation.device,
      timeUs: annotation.time_us,
    }));
    if (dict.segments !== undefined && traceTable.ranges.has(dict.segments as never)) {
      throw new SnapshotFormatError(
        "not a memory snapshot of a known shape: segments holds trace entries (dicts with an 'action')",
      );
    }
  } else {
    throw new SnapshotFormatError(
      `not a memory snapshot: the pickle holds ${describeValue(root)}, expected a dict with 'segments' and 'device_traces'`,
    );
  }

  const traces = buildDeviceTraces(
    traceLists,
    hostTraces,
    traceTable,
    warnings,
    externalAnnotations,
  );
  const ignored = describeIgnored(traceTable);
  if (ignored !== null) warnings.push(ignored);
  const pools = traceTable.pools;
  const { segments, blocks } = buildSegmentTables(rawSegments, stacks, traceTable, pools, warnings);

  return {
    pickleProtocol,
    layout,
    actionNames: traceTable.actionNames,
    frames: stacks.frames,
    stacks: stacks.table(),
    streams: traceTable.streams,
    pools,
    strings: traceTable.strings,
    forwardFrames: traceTable.stringListTable(),
    traces,
    segments,
    blocks,
    allocatorSettings,
    externalAnnotations,
    warnings,
  };
}

/**
 * One warning for what the figures leave out: trace entry keys that are not read, entries of
 * unknown actions. Never an error: newer PyTorch versions add both.
 */
function describeIgnored(table: TraceTableBuilder): string | null {
  const parts: string[] = [];
  if (table.unknownKeys.size > 0) {
    parts.push(`ignored unknown trace keys: ${[...table.unknownKeys].sort().join(', ')}`);
  }
  if (table.unknownActionCounts.size > 0) {
    const actions = [...table.unknownActionCounts]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, count]) => `${name} (${countOf(count, 'entry', 'entries')})`);
    parts.push(`unknown actions: ${actions.join(', ')}`);
  }
  return parts.length === 0 ? null : `${parts.join('; ')} (not in the figures)`;
}

function buildDeviceTraces(
  traceLists: unknown[],
  hostTraces: unknown,
  table: TraceTableBuilder,
  warnings: string[],
  externalAnnotations: ExternalAnnotation[],
): DeviceTrace[] {
  const traces: DeviceTrace[] = [];
  const deviceOfList = new Map<unknown, number>();
  const aside: AsideRecords = {
    deviceFree: new SortedByKey(table.deviceFreeBytes, ([row]) => row),
    annotations: new SortedByKey(table.annotations, (entry) => entry.consumed),
    userDefined: new SortedByKey(table.userDefined, (entry) => entry.consumed),
  };
  const addTrace = (list: unknown[], device: number, where: string): void => {
    const shared = deviceOfList.get(list);
    if (shared !== undefined) {
      throw new SnapshotFormatError(
        `${where} is the same list as ${shared === HOST_DEVICE ? 'host_traces' : `device_traces[${shared}]`}; a memory snapshot never shares a trace`,
      );
    }
    deviceOfList.set(list, device);
    const range = table.ranges.get(list as never);
    if (list.length > 0) {
      throw new SnapshotFormatError(
        `${where} holds values that are not trace entries (dicts with an 'action'), e.g. ${describeFound(list[0])}`,
      );
    }
    if (range === undefined) return;
    // user_defined entries of this list: annotations of this device.
    for (const entry of aside.userDefined.inRange(
      range.consumedFirst,
      range.consumedFirst + range.consumedCount,
    )) {
      externalAnnotations.push({
        stage: entry.stage,
        name: entry.name,
        device,
        timeUs: entry.timeUs,
      });
    }
    // A list of nothing but entries set aside is no trace (as the same file without them).
    if (range.count === 0) return;
    traces.push(deviceTraceOf(table, aside, range, device));
  };
  traceLists.forEach((list, device) => {
    // A list's position is its device: past the last device a process can have, refused before
    // it is read (each device is analysed on its own, so their number must be bounded too).
    if (device >= MAX_DEVICES) {
      throw new SnapshotFormatError(
        `not a memory snapshot of a known shape: device_traces has ${groupDigits(traceLists.length)} lists, one per device; ${notADeviceIndex(device)}`,
      );
    }
    if (!Array.isArray(list)) {
      throw new SnapshotFormatError(
        `not a memory snapshot of a known shape: device_traces[${device}]: expected a list of trace entries, found ${describeFound(list)}`,
      );
    }
    addTrace(list, device, `device_traces[${device}]`);
  });
  if (hostTraces !== undefined && hostTraces !== null)
    addHostTrace(hostTraces, table, addTrace, warnings);
  // Entries outside the traces (a newer key, or a stray record with an 'action' key) are not in
  // the figures: say so once.
  let elsewhere = 0;
  for (const [list, range] of table.ranges) {
    if (!deviceOfList.has(list)) elsewhere += range.count;
  }
  if (elsewhere > 0) {
    warnings.push(
      `${groupDigits(elsewhere)} trace entries outside device_traces are not shown (not part of any device's trace)`,
    );
  }
  return traces;
}

/**
 * host_traces: the pinned host allocator's trace entries (PyTorch 2.14+). One allocator, so a
 * list of entries; a list of such lists (shaped like device_traces) is read too, its lists
 * being the host's one after the other only when at most one holds entries.
 */
function addHostTrace(
  hostTraces: unknown,
  table: TraceTableBuilder,
  addTrace: (list: unknown[], device: number, where: string) => void,
  warnings: string[],
): void {
  if (!Array.isArray(hostTraces)) {
    throw new SnapshotFormatError(
      `not a memory snapshot of a known shape: host_traces: expected a list of trace entries, found ${describeFound(hostTraces)}`,
    );
  }
  if (hostTraces.length === 0 || table.ranges.has(hostTraces as never)) {
    addTrace(hostTraces, HOST_DEVICE, 'host_traces');
    return;
  }
  const lists = hostTraces.filter((item): item is unknown[] => Array.isArray(item));
  if (lists.length !== hostTraces.length) {
    throw new SnapshotFormatError(
      `host_traces holds values that are not trace entries (dicts with an 'action'), e.g. ${describeFound(hostTraces.find((item) => !Array.isArray(item)))}`,
    );
  }
  const withEntries = lists.filter((list) => table.ranges.has(list as never));
  if (withEntries.length > 1) {
    warnings.push(
      `host_traces holds ${withEntries.length} lists of entries; only the first is shown as host (pinned) memory`,
    );
  }
  addTrace(withEntries[0] ?? lists[0]!, HOST_DEVICE, 'host_traces[0]');
}

// The lists the top-level dict names, which the fast path may hold as its stand-ins for a frames
// list or a forward_frames list (a memo reference to one): as the generic path holds them, lists
// (fuzz campaign seed 20261133, case 1247: device_traces[1] was an entry's empty frames list,
// an empty trace on the generic path, "found a list" on the fast one).
const LISTED_KEYS = [
  'segments',
  'device_traces',
  'traces',
  'host_segments',
  'host_traces',
  'external_annotations',
] as const;

function withListsAsListed(
  root: Record<string, unknown>,
  stacks: StackInterner,
  table: TraceTableBuilder,
): Record<string, unknown> {
  if (
    !LISTED_KEYS.some((key) => root[key] instanceof StackRef || root[key] instanceof StringListRef)
  )
    return root;
  const copy: Record<string, unknown> = { ...root };
  for (const key of LISTED_KEYS) {
    if (key in copy) copy[key] = listAsListed(copy[key], stacks, table);
  }
  return copy;
}

// One list per stand-in, so that two names of one list are still one list (a shared trace).
const listedStandIns = new WeakMap<object, unknown[]>();

/** A stand-in as the list it stands for (frame dicts, or strings); any other value as it is. */
function listAsListed(value: unknown, stacks: StackInterner, table: TraceTableBuilder): unknown {
  if (!(value instanceof StackRef) && !(value instanceof StringListRef)) return value;
  let list = listedStandIns.get(value);
  if (list === undefined) {
    list =
      value instanceof StackRef ? stacks.frameDictsOf(value.stackId) : table.stringsOfList(value);
    listedStandIns.set(value, list);
  }
  return list;
}

/** What the trace table keeps aside from the rows, by row or entry number (see SortedByKey). */
interface AsideRecords {
  deviceFree: SortedByKey<[number, number]>;
  annotations: SortedByKey<PendingAnnotation>;
  userDefined: SortedByKey<PendingUserDefined>;
}

function deviceTraceOf(
  table: TraceTableBuilder,
  aside: AsideRecords,
  range: RowRange,
  device: number,
): DeviceTrace {
  const end = range.first + range.count;
  const deviceFreeBytes = new Map<number, number>();
  for (const [row, bytes] of aside.deviceFree.inRange(range.first, end)) {
    deviceFreeBytes.set(row - range.first, bytes);
  }
  const annotations = aside.annotations
    .inRange(range.consumedFirst, range.consumedFirst + range.consumedCount)
    .map((entry) => ({
      afterEvent: entry.afterRow - range.first,
      addr: entry.addr,
      textId: entry.textId,
      stackId: entry.stackId,
      timeUs: entry.timeUs,
    }));
  return {
    device,
    length: range.count,
    action: table.action.subarray(range.first, end),
    addr: table.addr.subarray(range.first, end),
    sizeBytes: table.sizeBytes.subarray(range.first, end),
    streamId: table.streamId.subarray(range.first, end),
    timeUs: table.timeUs.subarray(range.first, end),
    stackId: table.stackId.subarray(range.first, end),
    deviceFreeBytes,
    compileContextId: table.compileContextId?.subarray(range.first, end) ?? null,
    userMetadataId: table.userMetadataId?.subarray(range.first, end) ?? null,
    internalMetadataId: table.internalMetadataId?.subarray(range.first, end) ?? null,
    categoryId: table.categoryId?.subarray(range.first, end) ?? null,
    poolIndex: table.poolIndex?.subarray(range.first, end) ?? null,
    forwardFramesId: table.forwardFramesId?.subarray(range.first, end) ?? null,
    annotations,
  };
}

function buildSegmentTables(
  rawSegments: ParsedSegment[],
  stacks: StackInterner,
  traceTable: TraceTableBuilder,
  _pools: string[],
  warnings: string[],
): { segments: SegmentTable; blocks: BlockTable } {
  const overlaps = new ProblemTally();
  const pastEnd = new ProblemTally();
  const overRequested = new ProblemTally();
  const uncovered = new ProblemTally('segment');
  const segmentCount = rawSegments.length;
  const blockCount = rawSegments.reduce((sum, segment) => sum + segment.parsedBlocks.length, 0);
  const segments: SegmentTable = {
    count: segmentCount,
    device: new Int32Array(segmentCount),
    address: new Float64Array(segmentCount),
    totalSizeBytes: new Float64Array(segmentCount),
    allocatedSizeBytes: new Float64Array(segmentCount),
    activeSizeBytes: new Float64Array(segmentCount),
    requestedSizeBytes: new Float64Array(segmentCount),
    streamId: new Uint32Array(segmentCount),
    segmentType: new Uint8Array(segmentCount),
    poolId: new Uint32Array(segmentCount),
    isExpandable: new Uint8Array(segmentCount),
    stackId: new Int32Array(segmentCount),
    blockOffsets: new Uint32Array(segmentCount + 1),
  };
  const blocks: BlockTable = {
    count: blockCount,
    address: new Float64Array(blockCount),
    sizeBytes: new Float64Array(blockCount),
    requestedSizeBytes: new Float64Array(blockCount),
    state: new Uint8Array(blockCount),
    stackId: new Int32Array(blockCount),
  };
  let blockRow = 0;
  rawSegments.forEach((segment, s) => {
    segments.device[s] = segment.device;
    segments.address[s] = segment.address;
    segments.totalSizeBytes[s] = segment.total_size;
    segments.streamId[s] = traceTable.internStream(segment.stream ?? 0);
    segments.segmentType[s] =
      segment.segment_type === 'large' ? 0 : segment.segment_type === 'small' ? 1 : 2;
    segments.poolId[s] = traceTable.internPool((segment.segment_pool_id ?? [0, 0]).join(','));
    segments.isExpandable[s] = segment.is_expandable === true ? 1 : 0;
    segments.stackId[s] =
      segment.frames === undefined ? NO_STACK : stacks.intern(segment.frames, -1);
    segments.blockOffsets[s] = blockRow;

    let allocated = 0;
    let active = 0;
    let requested = 0;
    let nextAddress = segment.address;
    const segmentEnd = segment.address + segment.total_size;
    segment.parsedBlocks.forEach((block, b) => {
      const state = blockStateCode(block, s, b);
      const address = block.address ?? nextAddress;
      // Possible in a file, impossible in an allocator: the figures stay defined (never
      // negative), and the user is told the file is inconsistent.
      if (address < nextAddress) overlaps.add(`segments[${s}].blocks[${b}]`);
      if (address < segment.address || address + block.size > segmentEnd) {
        pastEnd.add(`segments[${s}].blocks[${b}]`);
      }
      // Inactive blocks keep the request of their last allocation, often larger once a split
      // block was cut smaller: normal in real files. A live block asking for more than it has is not.
      if (
        state !== BlockStateCode.inactive &&
        block.requested_size !== undefined &&
        block.requested_size > block.size
      ) {
        overRequested.add(`segments[${s}].blocks[${b}]`);
      }
      const requestedSize = block.requested_size ?? block.size;
      blocks.address[blockRow] = address;
      blocks.sizeBytes[blockRow] = block.size;
      blocks.requestedSizeBytes[blockRow] = requestedSize;
      blocks.state[blockRow] = state;
      blocks.stackId[blockRow] = stacks.intern(blockFrames(block), -1);
      const forward = traceTable.internStringList(block.forward_frames);
      if (forward !== NO_LIST) {
        blocks.forwardFramesId ??= new Int32Array(blockCount).fill(NO_LIST);
        blocks.forwardFramesId[blockRow] = forward;
      }
      if (state === BlockStateCode.active_allocated) allocated += block.size;
      if (state !== BlockStateCode.inactive) {
        active += block.size;
        requested += requestedSize;
      }
      nextAddress = Math.max(nextAddress, address + block.size);
      blockRow++;
    });
    if (segment.parsedBlocks.length > 0 && nextAddress < segmentEnd) {
      uncovered.add(`segments[${s}]`);
    }
    // Legacy files may lack the per-segment sums; the blocks give them.
    segments.allocatedSizeBytes[s] = segment.allocated_size ?? allocated;
    segments.activeSizeBytes[s] = segment.active_size ?? active;
    segments.requestedSizeBytes[s] = segment.requested_size ?? requested;
  });
  segments.blockOffsets[segmentCount] = blockRow;
  if (overlaps.count > 0) {
    warnings.push(
      `${overlaps.describe()} ${nounFor(overlaps.count, 'overlaps', 'overlap')} the block before it in its segment (inconsistent file; figures computed as given)`,
    );
  }
  if (pastEnd.count > 0) {
    warnings.push(
      `${pastEnd.describe()} ${nounFor(pastEnd.count, 'reaches', 'reach')} past the end of its segment (inconsistent file; figures computed as given)`,
    );
  }
  if (overRequested.count > 0) {
    warnings.push(
      `${overRequested.describe()} ${nounFor(overRequested.count, 'has', 'have')} a requested_size larger than ${nounFor(overRequested.count, 'its', 'their')} size (inconsistent file; rounding waste counted as 0 there)`,
    );
  }
  if (uncovered.count > 0) {
    warnings.push(
      `${uncovered.describe()} ${nounFor(uncovered.count, 'is', 'are')} not covered by ${nounFor(uncovered.count, 'its', 'their')} blocks up to the end (inconsistent file; the rest counts as reserved, not free)`,
    );
  }
  const overlappingSegments = overlappingSegmentsOf(segments);
  if (overlappingSegments !== null) {
    warnings.push(
      `${overlappingSegments} overlap on the same device (inconsistent file; figures computed as given)`,
    );
  }
  return { segments, blocks };
}

/** "segments[3] and segments[7]" for the first two segments of one device that overlap, or null. */
function overlappingSegmentsOf(segments: SegmentTable): string | null {
  const order = Array.from({ length: segments.count }, (_, index) => index).sort(
    (a, b) =>
      segments.device[a]! - segments.device[b]! || segments.address[a]! - segments.address[b]!,
  );
  for (let i = 1; i < order.length; i++) {
    const previous = order[i - 1]!;
    const current = order[i]!;
    if (
      segments.device[previous] === segments.device[current] &&
      segments.address[previous]! + segments.totalSizeBytes[previous]! > segments.address[current]!
    ) {
      return `segments[${Math.min(previous, current)}] and segments[${Math.max(previous, current)}]`;
    }
  }
  return null;
}

/** Counts a kind of problem and remembers where it was first seen. */
class ProblemTally {
  count = 0;
  private first = '';

  constructor(private readonly noun = 'block') {}

  add(where: string): void {
    if (this.count === 0) this.first = where;
    this.count += 1;
  }

  describe(): string {
    return this.count === 1
      ? `${this.noun} ${this.first}`
      : `${groupDigits(this.count)} ${this.noun}s (first: ${this.first})`;
  }
}

/**
 * The segments list, item by item: each one's shape (stopping at the first problem, with its path)
 * and that none is shared. PyTorch writes each segment, blocks list and block once; a file that
 * names one many times would make the work grow with the expanded tree instead of the file.
 */
function parseSegments(list: unknown[], path: string, host = false): ParsedSegment[] {
  const seen = new Map<unknown, string>();
  const once = (value: unknown, where: string, what: string): void => {
    if (typeof value !== 'object' || value === null) return;
    const first = seen.get(value);
    if (first !== undefined) {
      throw new SnapshotFormatError(
        `${where} is the same ${what} as ${first}; a memory snapshot never shares ${what === 'list' ? 'these lists' : 'segments or blocks'}`,
      );
    }
    seen.set(value, where);
  };
  return list.map((item, s) => {
    const where = `${path}[${s}]`;
    once(item, where, 'object');
    const segment: RawSegment = host
      ? { ...parseOrThrow(rawHostSegmentSchema, item, where), device: HOST_DEVICE }
      : parseOrThrow(rawSegmentSchema, item, where);
    once(segment.blocks, `${where}.blocks`, 'list');
    const blocks = segment.blocks.map((block, b): ParsedBlock => {
      const blockWhere = `${where}.blocks[${b}]`;
      once(block, blockWhere, 'object');
      const parsed = parseOrThrow(rawBlockSchema, block, blockWhere);
      if (parsed.history === undefined) return { ...parsed, history: undefined };
      once(parsed.history, `${blockWhere}.history`, 'list');
      return {
        ...parsed,
        history: parseEach(parsed.history, rawHistoryEntrySchema, `${blockWhere}.history`),
      };
    });
    return { ...segment, parsedBlocks: blocks };
  });
}

// (Intersections, not Omit: Omit of a loose object keeps only its index signature.)
type ParsedBlock = RawBlock & { history: RawHistoryEntry[] | undefined };
type ParsedSegment = RawSegment & { parsedBlocks: ParsedBlock[] };

/** Validates each item of a list with `schema`, stopping at the first problem. */
function parseEach<T>(list: unknown[], schema: z.ZodType<T>, path: string): T[] {
  return list.map((item, index) => parseOrThrow(schema, item, `${path}[${index}]`));
}

const EMPTY_FRAMES: unknown[] = [];

/** Current files: `frames`; PyTorch 2.0: the frames of the last `history` entry. */
function blockFrames(block: ParsedBlock): unknown {
  if (block.frames !== undefined) return block.frames;
  const history = block.history;
  if (history !== undefined && history.length > 0)
    return history[history.length - 1]!.frames ?? EMPTY_FRAMES;
  return EMPTY_FRAMES;
}

/** PyTorch's typed description spells the pending state `active_awaiting_free`; C++ writes the other. */
const BLOCK_STATE_SPELLINGS: Readonly<Record<string, string>> = {
  active_awaiting_free: 'active_pending_free',
};

function blockStateCode(block: ParsedBlock, segmentIndex: number, blockIndex: number): number {
  const state = Object.hasOwn(BLOCK_STATE_SPELLINGS, block.state)
    ? BLOCK_STATE_SPELLINGS[block.state]!
    : block.state;
  // Own keys only: a state named 'toString' or '__proto__' is unknown, not a function.
  if (!Object.hasOwn(BlockStateCode, state)) {
    throw new SnapshotFormatError(
      `not a memory snapshot of a known shape: segments[${segmentIndex}].blocks[${blockIndex}].state: '${block.state.slice(0, 40)}' is not a block state (active_allocated, active_pending_free or inactive)`,
    );
  }
  return (BlockStateCode as Record<string, number>)[state]!;
}

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, prefix: string): T {
  // Every schema here is a dict's, and zod takes any object for a dict: a frames list (which the
  // fast path stands in for with a StackRef) or bytes would pass as a dict without keys and be
  // named by its first missing key, differently on the two decode paths.
  if (value instanceof StackRef || value instanceof Uint8Array) {
    throw new SnapshotFormatError(
      `not a memory snapshot of a known shape: ${prefix === '' ? 'the snapshot' : prefix}: expected a dict, found ${describeFound(value)}`,
    );
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new SnapshotFormatError(
      `not a memory snapshot of a known shape: ${describeZodError(parsed.error, prefix)}`,
    );
  }
  return parsed.data;
}

function describeValue(value: unknown): string {
  if (value === null) return 'None';
  if (value instanceof Uint8Array) return 'bytes';
  return `a ${typeof value}`;
}
