// The groups a request is served from: the caching allocator keeps separate free lists per pool,
// stream and segment type (large / small), so a free block in one group cannot serve a request
// of another. The one grouping key and the one order of groups, for the app's segments view and
// fragmentation table, the exported segments picture, the JSON report and the CLI's texts.

import { poolIdAt, segmentGroupName } from '../format/words';

/** What names a group: indexes into the snapshot's pools and streams, and a SegmentTypeCode. */
export interface SegmentGroupId {
  poolIndex: number;
  streamId: number;
  segmentType: number;
}

/** "pool/stream/type" of indexes and code: "0/0/0" is the default pool's large segments on stream id 0. */
export function segmentGroupKey(group: SegmentGroupId): string {
  return `${group.poolIndex}/${group.streamId}/${group.segmentType}`;
}

export function sameSegmentGroup(a: SegmentGroupId, b: SegmentGroupId): boolean {
  return (
    a.poolIndex === b.poolIndex && a.streamId === b.streamId && a.segmentType === b.segmentType
  );
}

/**
 * The order of groups everywhere: the largest reserve first, where the memory went; equal
 * reserves by pool index (the default pool first), stream id (first seen first) and segment
 * type (large, small, unknown), so the order is total and the same in every output.
 */
export function compareSegmentGroups(
  a: SegmentGroupId & { reservedBytes: number },
  b: SegmentGroupId & { reservedBytes: number },
): number {
  return (
    b.reservedBytes - a.reservedBytes ||
    a.poolIndex - b.poolIndex ||
    a.streamId - b.streamId ||
    a.segmentType - b.segmentType
  );
}

export interface SegmentGroupOf extends SegmentGroupId {
  key: string;
  /** Σ sizes of its segments. */
  reservedBytes: number;
  /** Indexes into the segments given, in their order. */
  segments: number[];
}

/** The segments' groups in compareSegmentGroups order, each listing its members' indexes. */
export function groupSegmentsOf(
  segments: readonly (SegmentGroupId & { sizeBytes: number })[],
): SegmentGroupOf[] {
  const groups = new Map<string, SegmentGroupOf>();
  segments.forEach((segment, index) => {
    const key = segmentGroupKey(segment);
    let group = groups.get(key);
    if (group === undefined) {
      group = {
        key,
        poolIndex: segment.poolIndex,
        streamId: segment.streamId,
        segmentType: segment.segmentType,
        reservedBytes: 0,
        segments: [],
      };
      groups.set(key, group);
    }
    group.reservedBytes += segment.sizeBytes;
    group.segments.push(index);
  });
  return [...groups.values()].sort(compareSegmentGroups);
}

/** Where a snapshot's pool ids and raw stream values are (the analyzed snapshot has both). */
export interface GroupNamesSource {
  pools: readonly string[];
  streams: readonly number[];
}

/** "default pool · default stream · large segments" (segmentGroupName of format/words.ts). */
export function segmentGroupTitle(source: GroupNamesSource, group: SegmentGroupId): string {
  return segmentGroupName(
    poolIdAt(source.pools, group.poolIndex),
    source.streams[group.streamId],
    group.segmentType,
  );
}
