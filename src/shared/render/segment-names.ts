// How the exported segments picture and the CLI's segments listing name a segment's pool, stream
// and size class.

import { SegmentTypeCode } from '../analysis/segment-history';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';

export function poolName(view: AnalyzedSnapshot, poolIndex: number): string {
  return poolIndex === 0 ? 'default pool' : `private pool (${view.pools[poolIndex] ?? poolIndex})`;
}

export function streamName(view: AnalyzedSnapshot, streamId: number): string {
  const raw = view.streams[streamId] ?? streamId;
  return raw === 0 ? 'default stream' : `stream 0x${raw.toString(16)}`;
}

export function segmentTypeName(segmentType: number): string {
  if (segmentType === SegmentTypeCode.large) return 'large';
  if (segmentType === SegmentTypeCode.small) return 'small';
  return 'unknown';
}
