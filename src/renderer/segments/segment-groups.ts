// How the segments view orders and names segments: by pool (the default pool first, then private
// pools such as CUDA graphs'), stream and size class (large, then small), by address inside a
// group. Pure, so the order the picture and the headers share is unit-tested.

import { SegmentTypeCode } from '@shared/analysis/segment-history';
import { formatStream } from '../allocations/allocation-facts';

export interface GroupableSegment {
  address: number;
  poolIndex: number;
  streamId: number;
  segmentType: number;
}

export interface SegmentGroup {
  key: string;
  poolIndex: number;
  streamId: number;
  segmentType: number;
  /** Indexes into the state's segments, in address order. */
  segments: number[];
}

export function groupKey(poolIndex: number, streamId: number, segmentType: number): string {
  return `${poolIndex}/${streamId}/${segmentType}`;
}

export function groupSegments(segments: readonly GroupableSegment[]): SegmentGroup[] {
  const groups = new Map<string, SegmentGroup>();
  segments.forEach((segment, index) => {
    const key = groupKey(segment.poolIndex, segment.streamId, segment.segmentType);
    let group = groups.get(key);
    if (group === undefined) {
      group = {
        key,
        poolIndex: segment.poolIndex,
        streamId: segment.streamId,
        segmentType: segment.segmentType,
        segments: [],
      };
      groups.set(key, group);
    }
    group.segments.push(index);
  });
  const sorted = [...groups.values()].sort(
    (a, b) => a.poolIndex - b.poolIndex || a.streamId - b.streamId || a.segmentType - b.segmentType,
  );
  for (const group of sorted) {
    group.segments.sort((a, b) => segments[a]!.address - segments[b]!.address || a - b);
  }
  return sorted;
}

/** Items of each group (its figures, say) by the group's key. */
export function byGroupKey<T extends Pick<SegmentGroup, 'poolIndex' | 'streamId' | 'segmentType'>>(
  items: readonly T[],
): Map<string, T> {
  const byKey = new Map<string, T>();
  for (const item of items) {
    byKey.set(groupKey(item.poolIndex, item.streamId, item.segmentType), item);
  }
  return byKey;
}

/** "default pool", or "private pool 1,3" (CUDA graph pools and the like) with the id as written. */
export function poolLabel(pools: readonly string[], poolIndex: number): string {
  if (poolIndex === 0) return 'default pool';
  const id = pools[poolIndex];
  return id === undefined ? `private pool #${poolIndex}` : `private pool ${id}`;
}

export function segmentTypeLabel(segmentType: number): string {
  switch (segmentType) {
    case SegmentTypeCode.large:
      return 'large';
    case SegmentTypeCode.small:
      return 'small';
    default:
      return 'size class unknown';
  }
}

export function streamLabel(streams: readonly number[], streamId: number): string {
  return `stream ${formatStream(streams[streamId])}`;
}

export function groupLabel(
  source: { pools: readonly string[]; streams: readonly number[] },
  group: Pick<SegmentGroup, 'poolIndex' | 'streamId' | 'segmentType'>,
): string {
  return [
    poolLabel(source.pools, group.poolIndex),
    streamLabel(source.streams, group.streamId),
    segmentTypeLabel(group.segmentType),
  ].join(' · ');
}
