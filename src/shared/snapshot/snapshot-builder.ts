// Assembles the model from the unpickled top-level value: the trace rows are already in columns
// (TraceTableBuilder); segments, blocks and annotations are validated here and turned into
// columns too. All legacy layouts end up in the same model.

import { z } from 'zod';
import {
  BlockStateCode,
  NO_STACK,
  type BlockTable,
  type DeviceTrace,
  type ExternalAnnotation,
  type SegmentTable,
  type SnapshotModel,
} from './model';
import {
  describeZodError,
  rawSegmentListSchema,
  rawSnapshotDictSchema,
  type RawBlock,
  type RawSegment,
} from './raw-schema';
import { SnapshotFormatError } from './snapshot-error';
import type { StackInterner } from './stack-interner';
import type { TraceTableBuilder } from './trace-table-builder';

export interface BuildInputs {
  root: unknown;
  pickleProtocol: number;
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
  let rawSegments: RawSegment[];
  let traceLists: unknown[] = [];
  let allocatorSettings: Record<string, unknown> | null = null;
  let externalAnnotations: ExternalAnnotation[] = [];

  if (Array.isArray(root)) {
    layout = 'segment-list';
    rawSegments = parseOrThrow(rawSegmentListSchema, root, 'segments');
  } else if (typeof root === 'object' && root !== null && !(root instanceof Uint8Array)) {
    layout = 'dict';
    const dict = parseOrThrow(rawSnapshotDictSchema, root, '');
    if (!('segments' in dict) && !('device_traces' in dict) && !('traces' in dict)) {
      throw new SnapshotFormatError(
        "not a memory snapshot: the top-level dict has neither 'segments' nor 'device_traces'",
      );
    }
    rawSegments = dict.segments ?? [];
    // The parsed copy has new list objects; the trace rows are keyed by the original lists.
    const original = root as Record<string, unknown>;
    traceLists = (original.device_traces ?? original.traces ?? []) as unknown[];
    allocatorSettings = dict.allocator_settings ?? null;
    externalAnnotations = (dict.external_annotations ?? []).map((annotation) => ({
      stage: annotation.stage,
      name: annotation.name,
      device: annotation.device,
      timeUs: annotation.time_us,
    }));
  } else {
    throw new SnapshotFormatError(
      `not a memory snapshot: the pickle holds ${describeValue(root)}, expected a dict with 'segments' and 'device_traces'`,
    );
  }

  const traces = buildDeviceTraces(traceLists, traceTable);
  const unknownActions = traceTable.actionNames.slice(11);
  if (unknownActions.length > 0) {
    warnings.push(`unknown trace actions ignored by the figures: ${unknownActions.join(', ')}`);
  }
  const pools: string[] = ['0,0'];
  const { segments, blocks } = buildSegmentTables(rawSegments, stacks, traceTable, pools);

  return {
    pickleProtocol,
    layout,
    actionNames: traceTable.actionNames,
    frames: stacks.frames,
    stacks: stacks.table(),
    streams: traceTable.streams,
    pools,
    strings: traceTable.strings,
    traces,
    segments,
    blocks,
    allocatorSettings,
    externalAnnotations,
    warnings,
  };
}

function buildDeviceTraces(traceLists: unknown[], table: TraceTableBuilder): DeviceTrace[] {
  const traces: DeviceTrace[] = [];
  traceLists.forEach((list, device) => {
    const range = table.ranges.get(list as never);
    if (range === undefined) {
      if (Array.isArray(list) && list.length > 0) {
        throw new SnapshotFormatError(
          `device_traces[${device}] holds values that are not trace entries (dicts with an 'action')`,
        );
      }
      return;
    }
    const end = range.first + range.count;
    const deviceFreeBytes = new Map<number, number>();
    for (const [row, bytes] of table.deviceFreeBytes) {
      if (row >= range.first && row < end) deviceFreeBytes.set(row - range.first, bytes);
    }
    traces.push({
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
    });
  });
  return traces;
}

function buildSegmentTables(
  rawSegments: RawSegment[],
  stacks: StackInterner,
  traceTable: TraceTableBuilder,
  pools: string[],
): { segments: SegmentTable; blocks: BlockTable } {
  const segmentCount = rawSegments.length;
  const blockCount = rawSegments.reduce((sum, segment) => sum + segment.blocks.length, 0);
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
  const poolIndex = new Map<string, number>(pools.map((pool, index) => [pool, index]));
  let blockRow = 0;
  rawSegments.forEach((segment, s) => {
    segments.device[s] = segment.device;
    segments.address[s] = segment.address;
    segments.totalSizeBytes[s] = segment.total_size;
    segments.streamId[s] = traceTable.internStream(segment.stream ?? 0);
    segments.segmentType[s] =
      segment.segment_type === 'large' ? 0 : segment.segment_type === 'small' ? 1 : 2;
    const pool = (segment.segment_pool_id ?? [0, 0]).join(',');
    let poolId = poolIndex.get(pool);
    if (poolId === undefined) {
      poolId = pools.length;
      pools.push(pool);
      poolIndex.set(pool, poolId);
    }
    segments.poolId[s] = poolId;
    segments.isExpandable[s] = segment.is_expandable === true ? 1 : 0;
    segments.stackId[s] =
      segment.frames === undefined ? NO_STACK : stacks.intern(segment.frames, -1);
    segments.blockOffsets[s] = blockRow;

    let allocated = 0;
    let active = 0;
    let requested = 0;
    let nextAddress = segment.address;
    for (const block of segment.blocks) {
      const state = blockStateCode(block, s);
      const address = block.address ?? nextAddress;
      const requestedSize = block.requested_size ?? block.size;
      blocks.address[blockRow] = address;
      blocks.sizeBytes[blockRow] = block.size;
      blocks.requestedSizeBytes[blockRow] = requestedSize;
      blocks.state[blockRow] = state;
      blocks.stackId[blockRow] = stacks.intern(blockFrames(block), -1);
      if (state === BlockStateCode.active_allocated) allocated += block.size;
      if (state !== BlockStateCode.inactive) {
        active += block.size;
        requested += requestedSize;
      }
      nextAddress = address + block.size;
      blockRow++;
    }
    // Legacy files may lack the per-segment sums; the blocks give them.
    segments.allocatedSizeBytes[s] = segment.allocated_size ?? allocated;
    segments.activeSizeBytes[s] = segment.active_size ?? active;
    segments.requestedSizeBytes[s] = segment.requested_size ?? requested;
  });
  segments.blockOffsets[segmentCount] = blockRow;
  return { segments, blocks };
}

const EMPTY_FRAMES: unknown[] = [];

/** Current files: `frames`; PyTorch 2.0: the frames of the last `history` entry. */
function blockFrames(block: RawBlock): unknown {
  if (block.frames !== undefined) return block.frames;
  const history = block.history;
  if (history !== undefined && history.length > 0)
    return history[history.length - 1]!.frames ?? EMPTY_FRAMES;
  return EMPTY_FRAMES;
}

function blockStateCode(block: RawBlock, segmentIndex: number): number {
  const code = (BlockStateCode as Record<string, number>)[block.state];
  if (code === undefined) {
    throw new SnapshotFormatError(
      `segments[${segmentIndex}] has a block in unknown state '${block.state}'`,
    );
  }
  return code;
}

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, prefix: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const where = describeZodError(parsed.error);
    throw new SnapshotFormatError(
      `not a memory snapshot of a known shape: ${prefix}${prefix && !where.startsWith('[') ? '.' : ''}${where}`,
    );
  }
  return parsed.data;
}

function describeValue(value: unknown): string {
  if (value === null) return 'None';
  if (value instanceof Uint8Array) return 'bytes';
  return `a ${typeof value}`;
}
