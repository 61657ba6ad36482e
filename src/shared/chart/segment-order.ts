// The order of the segments picture, on screen and in the exports alike: the groups in the order
// every output shares (state/segment-groups.ts: pool, stream and segment type, the largest reserve
// first), and inside a group the segments by address, as they lie in memory.

import { groupSegmentsOf, type SegmentGroupId } from '../state/segment-groups';

export interface GroupableSegment extends SegmentGroupId {
  address: number;
  sizeBytes: number;
}

export interface SegmentGroup extends SegmentGroupId {
  key: string;
  /** Indexes into the state's segments, in address order. */
  segments: number[];
}

export function groupSegments(segments: readonly GroupableSegment[]): SegmentGroup[] {
  return groupSegmentsOf(segments).map((group) => ({
    key: group.key,
    poolIndex: group.poolIndex,
    streamId: group.streamId,
    segmentType: group.segmentType,
    segments: [...group.segments].sort(
      (a, b) => segments[a]!.address - segments[b]!.address || a - b,
    ),
  }));
}
