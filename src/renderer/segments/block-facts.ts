// What the segments view's tooltip and details panel say about one block of an allocator state.
// No DOM, so it is unit-tested in Node.

import { BlockKind, type AllocatorState } from '@shared/state/allocator-state';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { formatAddress } from '../allocations/allocation-facts';
import { poolNameAt, segmentTypeName, streamNameAt } from '@shared/format/words';
import { segmentGroupTitle } from '@shared/state/segment-groups';

export type BlockKindName = 'allocated' | 'pending free' | 'cached free';

export const BLOCK_KIND_NAMES: Record<number, BlockKindName> = {
  [BlockKind.allocated]: 'allocated',
  [BlockKind.pendingFree]: 'pending free',
  [BlockKind.free]: 'cached free',
};

export interface BlockFacts {
  block: number;
  kind: BlockKindName;
  address: string;
  addressValue: number;
  sizeBytes: number;
  /** The size is the allocator's rounding of the request, not a recorded block size. */
  sizeIsEstimate: boolean;
  /** Null for free blocks. */
  requestedBytes: number | null;
  /** size − requested: rounding waste inside the block; null for free blocks. */
  wasteBytes: number | null;
  /** Row of the allocation table; null for free blocks. */
  allocationRow: number | null;
  /** Offset of the block in its segment. */
  offsetBytes: number;
  segment: {
    index: number;
    address: string;
    sizeBytes: number;
    pool: string;
    stream: string;
    sizeClass: string;
    /** The segment's group as its header names it: "default pool · default stream · large segments". */
    group: string;
    expandable: boolean;
    /** Blocks in the segment, and how many of them are free. */
    blockCount: number;
    freeBlockCount: number;
  };
}

/** Index in state.segments of the segment holding block `block`, by binary search. */
export function segmentOfBlock(state: AllocatorState, block: number): number {
  const segments = state.segments;
  let low = 0;
  let high = segments.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (segments[middle]!.endBlock <= block) low = middle + 1;
    else high = middle;
  }
  return low < segments.length && segments[low]!.firstBlock <= block ? low : -1;
}

/** The block of an allocation row at this moment; -1 when it is not alive (or outside segments). */
export function blockOfRow(state: AllocatorState, row: number): number {
  const rows = state.blocks.allocationRow;
  for (let b = 0; b < state.blocks.count; b++) if (rows[b] === row) return b;
  return -1;
}

/** The block holding an address at this moment; -1 when no segment covers it. */
export function blockAtStateAddress(state: AllocatorState, address: number): number {
  const { segments, blocks } = state;
  for (const segment of segments) {
    if (address < segment.address || address >= segment.address + segment.sizeBytes) continue;
    for (let b = segment.firstBlock; b < segment.endBlock; b++) {
      if (address >= blocks.address[b]! && address < blocks.address[b]! + blocks.sizeBytes[b]!)
        return b;
    }
  }
  return -1;
}

export function blockFacts(
  snapshot: Pick<AnalyzedSnapshot, 'pools' | 'streams'>,
  state: AllocatorState,
  block: number,
): BlockFacts | null {
  const { blocks } = state;
  if (block < 0 || block >= blocks.count) return null;
  const segmentIndex = segmentOfBlock(state, block);
  if (segmentIndex < 0) return null;
  const segment = state.segments[segmentIndex]!;
  const kindCode = blocks.kind[block]!;
  const free = kindCode === BlockKind.free;
  const sizeBytes = blocks.sizeBytes[block]!;
  const requested = free ? null : blocks.requestedBytes[block]!;
  let freeBlockCount = 0;
  for (let b = segment.firstBlock; b < segment.endBlock; b++) {
    if (blocks.kind[b] === BlockKind.free) freeBlockCount++;
  }
  return {
    block,
    kind: BLOCK_KIND_NAMES[kindCode] ?? 'allocated',
    address: formatAddress(blocks.address[block]!),
    addressValue: blocks.address[block]!,
    sizeBytes,
    sizeIsEstimate: blocks.sizeIsEstimate[block] === 1,
    requestedBytes: requested,
    // An inconsistent file may record a request larger than its block: no negative waste.
    wasteBytes: requested === null ? null : Math.max(0, sizeBytes - requested),
    allocationRow: free ? null : blocks.allocationRow[block]!,
    offsetBytes: blocks.address[block]! - segment.address,
    segment: {
      index: segmentIndex,
      address: formatAddress(segment.address),
      sizeBytes: segment.sizeBytes,
      pool: poolNameAt(snapshot.pools, segment.poolIndex),
      stream: streamNameAt(snapshot.streams, segment.streamId),
      sizeClass: segmentTypeName(segment.segmentType),
      group: segmentGroupTitle(snapshot, segment),
      expandable: segment.isExpandable,
      blockCount: segment.endBlock - segment.firstBlock,
      freeBlockCount,
    },
  };
}
