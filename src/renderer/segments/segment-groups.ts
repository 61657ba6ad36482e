// How the segments view orders and names segments: in the groups and the order of groups every
// output shares (@shared/state/segment-groups: pool, stream and segment type, the largest
// reserve first), by address inside a group; named with @shared/format/words. Pure, so the
// order the picture and the headers share is unit-tested.

import {
  segmentGroupKey,
  segmentGroupTitle,
  type GroupNamesSource,
  type SegmentGroupId,
} from '@shared/state/segment-groups';

// The order itself is the picture's, laid out in src/shared (chart/segment-order.ts).
export {
  groupSegments,
  type GroupableSegment,
  type SegmentGroup,
} from '@shared/chart/segment-order';

/** The key of a group (segmentGroupKey): what data-group attributes and figures maps use. */
export function groupKey(poolIndex: number, streamId: number, segmentType: number): string {
  return segmentGroupKey({ poolIndex, streamId, segmentType });
}

/** Items of each group (its figures, say) by the group's key. */
export function byGroupKey<T extends SegmentGroupId>(items: readonly T[]): Map<string, T> {
  const byKey = new Map<string, T>();
  for (const item of items) byKey.set(segmentGroupKey(item), item);
  return byKey;
}

/** "default pool · default stream · large segments", as the exported picture titles a group. */
export function groupLabel(source: GroupNamesSource, group: SegmentGroupId): string {
  return segmentGroupTitle(source, group);
}
