// The decoded snapshot: compact columns, not an object per event. Trace entries are typed-array
// columns per device; frames and stacks are interned once and referenced by id; segments and
// blocks are columns too, so the whole model crosses a worker boundary as transferable buffers.

/** Trace entry actions, in the allocator's own words. Unknown names get codes after these. */
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
} as const satisfies Record<KnownAction, number>;

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
}

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
}

export interface ExternalAnnotation {
  stage: string;
  name: string;
  device: number;
  timeUs: number;
}

export type AllocatorSettings = Record<string, unknown>;

export interface SnapshotModel {
  pickleProtocol: number;
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
  /** Interned compile_context / user_metadata strings. */
  strings: string[];
  /** Device traces in ascending device order; devices whose list is empty are omitted. */
  traces: DeviceTrace[];
  segments: SegmentTable;
  blocks: BlockTable;
  allocatorSettings: AllocatorSettings | null;
  externalAnnotations: ExternalAnnotation[];
  /** Problems that did not stop decoding (shown to the user). */
  warnings: string[];
}
