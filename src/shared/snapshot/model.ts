// The decoded snapshot: compact columns, not an object per event. Trace entries are typed-array
// columns per device; frames and stacks are interned once and referenced by id; segments and
// blocks are columns too, so the whole model crosses a worker boundary as transferable buffers.

/**
 * Trace entry actions, in the allocator's own words. Unknown names get codes after these.
 * `annotate`, `user_defined` and unknown actions are never rows of a DeviceTrace (see
 * TraceAnnotation): they change no figure.
 */
export const KNOWN_ACTIONS = [
  'alloc',
  'free_requested',
  'free_completed',
  'free',
  'segment_alloc',
  'segment_free',
  'segment_map',
  'segment_unmap',
  'snapshot',
  'oom',
  'annotate',
  'user_defined',
] as const;

export type KnownAction = (typeof KNOWN_ACTIONS)[number];

export const ActionCode = {
  alloc: 0,
  free_requested: 1,
  free_completed: 2,
  free: 3,
  segment_alloc: 4,
  segment_free: 5,
  segment_map: 6,
  segment_unmap: 7,
  snapshot: 8,
  oom: 9,
  annotate: 10,
  user_defined: 11,
} as const satisfies Record<KnownAction, number>;

/**
 * The pseudo-device of pinned host (CPU) memory (`host_segments` / `host_traces`, PyTorch 2.14+):
 * analysed like a CUDA device, listed after them, labelled "host (pinned)".
 */
export const HOST_DEVICE = -1;

/**
 * The pseudo-device of CPU (host) memory that a PyTorch profiler trace records (`[memory]` events
 * of Device Type 0): analysed like a CUDA device, listed after pinned host memory, labelled "cpu".
 */
export const CPU_DEVICE = -2;

/**
 * What a model was decoded from: a memory snapshot (`_dump_snapshot`), a profiler trace, or a
 * profiler's memory timeline (`export_memory_timeline`: bytes per category over time only).
 */
export type SnapshotSource = 'memory-snapshot' | 'profiler-trace' | 'memory-timeline';

/** No stack recorded (the `frames` key is absent, or the list is empty). */
export const NO_STACK = -1;
/** A string column entry with no value. */
export const NO_STRING = -1;

export interface FrameTable {
  /** Per frame id. */
  filename: string[];
  name: string[];
  /** Source line; -1 when the file holds a value that is not an exact integer (2**64-1 occurs). */
  line: number[];
  /**
   * The FX keys of frames from `_dump_snapshot(..., augment_with_fx_traces=True)`, per frame id
   * (null where a frame has none). Absent when no frame of the file has any.
   */
  fx?: FrameFxColumns;
}

export interface FrameFxColumns {
  nodeOp: (string | null)[];
  nodeName: (string | null)[];
  nodeTarget: (string | null)[];
  /** The model source line a compiled graph node came from. */
  originalTrace: (string | null)[];
}

/**
 * `forward_frames` lists (strings, innermost first, as written) interned like stacks: list l is
 * strings[stringIds[offsets[l] .. offsets[l + 1])] of SnapshotModel.strings.
 */
export interface StringListTable {
  offsets: Uint32Array;
  stringIds: Uint32Array;
}

/** No `forward_frames` (or an empty list). */
export const NO_LIST = -1;

/** Stacks as compressed rows: frames of stack s are frameIds[offsets[s] .. offsets[s + 1]), innermost first. */
export interface StackTable {
  offsets: Uint32Array;
  frameIds: Uint32Array;
}

export interface DeviceTrace {
  device: number;
  length: number;
  action: Uint8Array;
  addr: Float64Array;
  /** Requested bytes for alloc/free; bytes mapped or reserved for segment_* entries. */
  sizeBytes: Float64Array;
  /** Index into SnapshotModel.streams. */
  streamId: Uint32Array;
  /** Microseconds since the Unix epoch; NaN when the file has no `time_us`. */
  timeUs: Float64Array;
  stackId: Int32Array;
  /** `device_free` of `oom` entries, by row index within this trace. */
  deviceFreeBytes: Map<number, number>;
  /** Index into SnapshotModel.strings; null when no entry has one. */
  compileContextId: Int32Array | null;
  userMetadataId: Int32Array | null;
  /** Newest fields, each null when no entry of the file has it. Strings: SnapshotModel.strings. */
  internalMetadataId?: Int32Array | null;
  categoryId?: Int32Array | null;
  /** `pool_id` as an index into SnapshotModel.pools (NO_STRING when the entry has none). */
  poolIndex?: Int32Array | null;
  /** `forward_frames`: index into SnapshotModel.forwardFrames (NO_LIST when none). */
  forwardFramesId?: Int32Array | null;
  /** `annotate` entries of this trace (they are not rows: they change no figure). */
  annotations?: TraceAnnotation[];
  /**
   * A profiler trace's op per entry (the innermost `cpu_op` event whose span holds the memory
   * event): an index into SnapshotModel.strings, NO_STRING when no op was running. Absent for
   * snapshots. The op is also the innermost frame of the entry's stack.
   */
  opNameId?: Int32Array | null;
  /**
   * The active bytes before the first entry, where the file records them (a profiler trace's
   * `Total Allocated` less the first event's bytes): the active curve starts there, rather than
   * being walked back from the final segments (a profiler trace records none).
   */
  activeBaselineBytes?: number;
  /**
   * Reserved bytes after each entry as the file records them (a profiler trace's `Total
   * Reserved`): the reserved curve, where a snapshot's is summed from segment entries.
   */
  recordedReservedBytes?: Float64Array | null;
}

/**
 * An `annotate` entry: metadata attached to the allocation at `addr` (its base address) at that
 * moment. Not a row of the trace, so that event indexes and figures are those of the same file
 * without it; `afterEvent` is the row it came after (-1: before the first).
 */
export interface TraceAnnotation {
  afterEvent: number;
  addr: number;
  /** Index into SnapshotModel.strings (user_metadata, else internal_metadata); NO_STRING when none. */
  textId: number;
  stackId: number;
  timeUs: number;
}

export type BlockState = 'active_allocated' | 'active_pending_free' | 'inactive';

export const BlockStateCode = {
  active_allocated: 0,
  active_pending_free: 1,
  inactive: 2,
} as const satisfies Record<BlockState, number>;

export const BLOCK_STATES: readonly BlockState[] = [
  'active_allocated',
  'active_pending_free',
  'inactive',
];

export interface SegmentTable {
  count: number;
  device: Int32Array;
  address: Float64Array;
  totalSizeBytes: Float64Array;
  allocatedSizeBytes: Float64Array;
  activeSizeBytes: Float64Array;
  requestedSizeBytes: Float64Array;
  streamId: Uint32Array;
  /** 0 = 'large', 1 = 'small', 2 = other/unknown. */
  segmentType: Uint8Array;
  /** Index into SnapshotModel.pools; pool 0 is always the default pool (0, 0). */
  poolId: Uint32Array;
  isExpandable: Uint8Array;
  stackId: Int32Array;
  /** Blocks of segment s are rows blockOffsets[s] .. blockOffsets[s + 1] of the block table. */
  blockOffsets: Uint32Array;
}

export interface BlockTable {
  count: number;
  address: Float64Array;
  sizeBytes: Float64Array;
  requestedSizeBytes: Float64Array;
  state: Uint8Array;
  stackId: Int32Array;
  /** `forward_frames` of the block (index into SnapshotModel.forwardFrames); null when no block has any. */
  forwardFramesId?: Int32Array | null;
}

export interface ExternalAnnotation {
  stage: string;
  name: string;
  device: number;
  timeUs: number;
}

export type AllocatorSettings = Record<string, unknown>;

export interface SnapshotModel {
  /** Absent: a memory snapshot. A profiler trace records no segments, blocks or allocator settings. */
  source?: SnapshotSource;
  /** 2..5 from the pickle's PROTO opcode; null for the JSON form (no pickle). */
  pickleProtocol: number | null;
  /** 'dict' for current files, 'segment-list' for very old files that are a bare list of segments. */
  layout: 'dict' | 'segment-list';
  /** Action names by code: KNOWN_ACTIONS first, then any unknown names found in the file. */
  actionNames: string[];
  frames: FrameTable;
  stacks: StackTable;
  /** Raw cudaStream_t values by stream id. */
  streams: number[];
  /** Pool ids as written (e.g. "0,0") by pool index; index 0 is the default pool "0,0". */
  pools: string[];
  /** Interned compile_context / user_metadata / internal_metadata / category / forward_frames strings. */
  strings: string[];
  /** Interned `forward_frames` lists (of trace entries and blocks); empty when the file has none. */
  forwardFrames?: StringListTable;
  /** Device traces in ascending device order; devices whose list is empty are omitted. */
  traces: DeviceTrace[];
  segments: SegmentTable;
  blocks: BlockTable;
  allocatorSettings: AllocatorSettings | null;
  externalAnnotations: ExternalAnnotation[];
  /** Problems that did not stop decoding (shown to the user). */
  warnings: string[];
}
