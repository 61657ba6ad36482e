// The words for what a snapshot names: pools, streams, segment types, groups of segments and
// stack frames. One wording each, used by the app, the SVG/PNG exports, the JSON documents'
// verdicts and the CLI, so a picture, a screen and a terminal say the same thing. This layer
// imports nothing else from src/shared: callers pass plain values (a pool id as written, a raw
// cudaStream_t, a segment type code or name, a frame's fields).
//
// The words follow PyTorch's own where it has them: the snapshot's `segment_type` values
// ('large', 'small'), `is_expandable`, "default stream" for the null stream, "private pool" for
// the pools CUDA graphs and torch.cuda.MemPool use (`segment_pool_id`).

// ---------------------------------------------------------------------------------------------
// Pools

/** The default pool's id as the snapshot model writes it; always pool index 0. */
export const DEFAULT_POOL_ID = '0,0';

/**
 * "default pool", or "private pool (1,3)" with the id as the snapshot writes it.
 *
 * In parentheses because the id is the tuple PyTorch records (`segment_pool_id`, a
 * (capture id, pool id) pair, printed by Python as a tuple), and because the comma inside it
 * must not read as a list separator in a sentence ("private pool (1,3), stream 0x5a") or in a
 * table cell. ("private pool 1,3" was the app's, "pool (1,3)" the OOM verdict's.)
 */
export function poolName(poolId: string): string {
  return poolId === DEFAULT_POOL_ID ? 'default pool' : `private pool (${poolId})`;
}

/** The id of pool `poolIndex` of a snapshot's pool ids (index 0 is the default pool). */
export function poolIdAt(poolIds: readonly string[], poolIndex: number): string {
  return poolIds[poolIndex] ?? (poolIndex === 0 ? DEFAULT_POOL_ID : String(poolIndex));
}

/** poolName of pool `poolIndex` of a snapshot's pool ids. */
export function poolNameAt(poolIds: readonly string[], poolIndex: number): string {
  return poolName(poolIdAt(poolIds, poolIndex));
}

// ---------------------------------------------------------------------------------------------
// Streams

/**
 * A raw cudaStream_t: 0 is the default (null) stream, "default stream"; any other value is a
 * pointer, "stream 0x7f3c…" in hex as CUDA tools print pointers. ("stream 0 (default)" was the
 * app's, "stream 0" the OOM verdict's, bare "0" the report text's.)
 */
export function streamName(stream: number | undefined): string {
  if (stream === undefined || !Number.isFinite(stream)) return 'unknown stream';
  return stream === 0 ? 'default stream' : `stream 0x${Math.trunc(stream).toString(16)}`;
}

/** streamName of stream `streamId` of a snapshot's raw stream values. */
export function streamNameAt(streams: readonly number[], streamId: number): string {
  return streamName(streams[streamId]);
}

// ---------------------------------------------------------------------------------------------
// Segment types

/**
 * The snapshot's `segment_type` values by the model's segment type code (SnapshotModel's
 * segments.segmentType and analysis' SegmentTypeCode: 0 large, 1 small, 2 anything else).
 */
export const SEGMENT_TYPE_NAMES = ['large', 'small', 'unknown'] as const;

export type SegmentTypeName = (typeof SEGMENT_TYPE_NAMES)[number];

/** 'large', 'small' or 'unknown' for a segment type code. */
export function segmentTypeName(segmentType: number): SegmentTypeName {
  return SEGMENT_TYPE_NAMES[segmentType] ?? 'unknown';
}

/** "large segments", "small segments", "segments of unknown type". */
export function segmentsOfType(segmentType: number | SegmentTypeName): string {
  const name = typeof segmentType === 'number' ? segmentTypeName(segmentType) : segmentType;
  return name === 'unknown' ? 'segments of unknown type' : `${name} segments`;
}

/** PyTorch's word for a segment made with expandable_segments:True (`is_expandable`). */
export const EXPANDABLE = 'expandable';

// ---------------------------------------------------------------------------------------------
// Groups of segments: a pool, a stream and a segment type (where a request is served from)

/** "default pool · default stream · large segments": a group's title in the app and the SVG. */
export function segmentGroupName(
  poolId: string,
  stream: number | undefined,
  segmentType: number | SegmentTypeName,
): string {
  return `${poolName(poolId)} · ${streamName(stream)} · ${segmentsOfType(segmentType)}`;
}

/**
 * The same group in a sentence: "the default pool on the default stream (large segments)",
 * "the private pool (0,2) on stream 0x5a (small segments)".
 */
export function segmentGroupPhrase(
  poolId: string,
  stream: number | undefined,
  segmentType: number | SegmentTypeName,
): string {
  const streamWords = streamName(stream);
  const onStream = stream === 0 ? `the ${streamWords}` : streamWords;
  return `the ${poolName(poolId)} on ${onStream} (${segmentsOfType(segmentType)})`;
}

// ---------------------------------------------------------------------------------------------
// Stack frames

export interface FrameFields {
  filename: string;
  line: number;
  name: string;
}

/** A frame without a source file: C++ frames symbolised without debug info, or none at all. */
function hasNoFile(frame: FrameFields): boolean {
  return frame.filename === '' || frame.filename === '??';
}

/** 'full': the path as recorded; 'short': its last two parts ("nn/linear.py"), for narrow places. */
export type FramePath = 'full' | 'short';

/** "path/to/file.py:12", '?' for an unknown line. */
export function frameLocation(frame: FrameFields, path: FramePath = 'full'): string {
  const file =
    path === 'short' ? frame.filename.split(/[\\/]/).slice(-2).join('/') : frame.filename;
  return `${file}:${frame.line < 0 ? '?' : frame.line}`;
}

/**
 * A frame in one line, "file.py:12 name" (location first, as compilers and linters print it, so
 * editors and terminals can open it); just "name" for a frame without a file.
 */
export function frameText(frame: FrameFields, path: FramePath = 'short'): string {
  return hasNoFile(frame) ? frame.name : `${frameLocation(frame, path)} ${frame.name}`;
}

/** What a holder or a table lists in place of a frame when the allocation recorded no stack. */
export const NO_STACK_TEXT = '(no stack recorded)';
