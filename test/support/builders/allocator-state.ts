// Small hand-made allocator states for unit tests of the segments helpers, shared and the app's:
// segments of blocks that tile them in order (addresses follow from the sizes), so a test says
// what it means rather than filling typed arrays.

import { BlockKind, type AllocatorState } from '../../../src/shared/state/allocator-state';
import { SegmentTypeCode } from '../../../src/shared/analysis/segment-history';

export interface FixtureBlock {
  sizeBytes: number;
  kind: 'allocated' | 'pending free' | 'free';
  /** Default: the size, 0 for free blocks. */
  requestedBytes?: number;
  /** Row of the allocation table; default -1 (free) or the block's index. */
  row?: number;
}

export interface FixtureSegment {
  address: number;
  /** Default: the blocks' total. */
  sizeBytes?: number;
  poolIndex?: number;
  streamId?: number;
  segmentType?: number;
  isExpandable?: boolean;
  blocks: FixtureBlock[];
}

const KIND_CODES = {
  allocated: BlockKind.allocated,
  'pending free': BlockKind.pendingFree,
  free: BlockKind.free,
} as const;

export function allocatorStateOf(segments: FixtureSegment[], event = 0): AllocatorState {
  const count = segments.reduce((sum, segment) => sum + segment.blocks.length, 0);
  const blocks = {
    count,
    address: new Float64Array(count),
    sizeBytes: new Float64Array(count),
    requestedBytes: new Float64Array(count),
    kind: new Uint8Array(count),
    allocationRow: new Int32Array(count),
    sizeIsEstimate: new Uint8Array(count),
  };
  let b = 0;
  const stateSegments = segments.map((segment, index) => {
    const firstBlock = b;
    let address = segment.address;
    for (const block of segment.blocks) {
      const free = block.kind === 'free';
      blocks.address[b] = address;
      blocks.sizeBytes[b] = block.sizeBytes;
      blocks.requestedBytes[b] = block.requestedBytes ?? (free ? 0 : block.sizeBytes);
      blocks.kind[b] = KIND_CODES[block.kind];
      blocks.allocationRow[b] = block.row ?? (free ? -1 : b);
      address += block.sizeBytes;
      b++;
    }
    return {
      historyRow: index,
      address: segment.address,
      sizeBytes: segment.sizeBytes ?? address - segment.address,
      streamId: segment.streamId ?? 0,
      poolIndex: segment.poolIndex ?? 0,
      segmentType: segment.segmentType ?? SegmentTypeCode.large,
      isExpandable: segment.isExpandable ?? false,
      stackId: -1,
      firstBlock,
      endBlock: b,
    };
  });
  return {
    device: 0,
    event,
    segments: stateSegments,
    blocks,
    outsideSegments: [],
    clippedBlocks: 0,
  };
}
