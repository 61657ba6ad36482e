// Fragmentation figures of one allocator state: totals, and per pool / stream / segment type.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { postableDerivedKey } from '../analyzed/derived-cache';
import { BlockKind, type AllocatorState, type StateSegment } from './allocator-state';
import { groupSegmentsOf, type SegmentGroupId } from './segment-groups';

/** Figures over a set of segments. All in bytes except the counts. */
export interface MemoryFigures {
  segmentCount: number;
  /** Σ segment sizes. */
  reservedBytes: number;
  /** Σ requested bytes of allocated and pending-free blocks (the active curve). */
  activeBytes: number;
  /** Σ block sizes of allocated and pending-free blocks. */
  blockBytes: number;
  /**
   * Σ (block size - requested bytes) of allocated and pending-free blocks, each at least 0:
   * rounding waste inside blocks (internal fragmentation); blockBytes - activeBytes in
   * consistent files.
   */
  internalWasteBytes: number;
  /** Σ free block sizes: cached but unused (external fragmentation). */
  cachedFreeBytes: number;
  largestFreeBytes: number;
  freeBlockCount: number;
  /** Σ free blocks smaller than the small-hole threshold. */
  smallFreeBytes: number;
  /** The threshold used for smallFreeBytes. */
  smallHoleThresholdBytes: number;
}

/** Figures of one group of segments (segment-groups.ts): a pool, a stream, a SegmentTypeCode. */
export interface GroupFigures extends MemoryFigures, SegmentGroupId {}

/** Figures of no segments: all zero. */
export function emptyFigures(threshold: number): MemoryFigures {
  return {
    segmentCount: 0,
    reservedBytes: 0,
    activeBytes: 0,
    blockBytes: 0,
    internalWasteBytes: 0,
    cachedFreeBytes: 0,
    largestFreeBytes: 0,
    freeBlockCount: 0,
    smallFreeBytes: 0,
    smallHoleThresholdBytes: threshold,
  };
}

function addSegment(
  figures: MemoryFigures,
  state: AllocatorState,
  segment: StateSegment,
  threshold: number,
): void {
  const { blocks } = state;
  figures.segmentCount++;
  figures.reservedBytes += segment.sizeBytes;
  for (let b = segment.firstBlock; b < segment.endBlock; b++) {
    const size = blocks.sizeBytes[b]!;
    if (blocks.kind[b] === BlockKind.free) {
      figures.cachedFreeBytes += size;
      figures.freeBlockCount++;
      if (size > figures.largestFreeBytes) figures.largestFreeBytes = size;
      if (size < threshold) figures.smallFreeBytes += size;
    } else {
      const requested = blocks.requestedBytes[b]!;
      figures.activeBytes += requested;
      figures.blockBytes += size;
      // Waste is what a block holds beyond its request, never less than nothing: a request
      // larger than its block (an inconsistent file: a recorded size below requested_size, or a
      // block cut to fit where allocations overlap) must not cancel the real waste of other
      // blocks or drive the sum below zero. Equal to blockBytes - activeBytes whenever every
      // block holds its request, as in every consistent file.
      figures.internalWasteBytes += Math.max(0, size - requested);
    }
  }
}

/** Totals over every segment of the state (allocations outside every segment, only in inconsistent files, are not in them). */
export function figuresOfState(
  state: AllocatorState,
  smallHoleThresholdBytes: number,
): MemoryFigures {
  const figures = emptyFigures(smallHoleThresholdBytes);
  for (const segment of state.segments)
    addSegment(figures, state, segment, smallHoleThresholdBytes);
  return figures;
}

/**
 * Figures per (pool, stream, segment type), the groups a request is served from, in the one
 * order of groups (segment-groups.ts: the largest reserve first).
 */
export function figuresByGroup(
  state: AllocatorState,
  smallHoleThresholdBytes: number,
): GroupFigures[] {
  return groupSegmentsOf(state.segments).map((group) => {
    const figures: GroupFigures = {
      ...emptyFigures(smallHoleThresholdBytes),
      poolIndex: group.poolIndex,
      streamId: group.streamId,
      segmentType: group.segmentType,
    };
    for (const index of group.segments)
      addSegment(figures, state, state.segments[index]!, smallHoleThresholdBytes);
    return figures;
  });
}

const SMALL_HOLE_THRESHOLD = postableDerivedKey<number>('small-hole threshold');

/**
 * A "common request size" for this device: the size at which half of all requested bytes come
 * in requests at least that large (the byte-weighted median over every allocation of the table).
 * Free holes below it cannot serve a typical request; 0 when the device has no allocations.
 * It sorts every allocation's size, so it is computed once per device and remembered.
 */
export function smallHoleThreshold(device: AnalyzedDevice): number {
  return device.derived.get(SMALL_HOLE_THRESHOLD, () =>
    byteWeightedMedianRequest(device.allocations),
  );
}

function byteWeightedMedianRequest(table: AnalyzedDevice['allocations']): number {
  const { sizeBytes, count } = table;
  if (count === 0) return 0;
  const sizes = Float64Array.from(sizeBytes).sort();
  let total = 0;
  for (let i = 0; i < count; i++) total += sizes[i]!;
  let running = 0;
  for (let i = count - 1; i >= 0; i--) {
    running += sizes[i]!;
    if (running * 2 >= total) return sizes[i]!;
  }
  return sizes[0]!;
}
