import { describe, expect, it } from 'vitest';
import { BlockKind, type AllocatorState, type StateSegment } from '@shared/state/allocator-state';
import { SegmentTypeCode } from '@shared/analysis/segment-history';
import { blockAtStateAddress, blockFacts, blockOfRow, segmentOfBlock } from './block-facts';
import { byGroupKey, groupLabel, groupSegments } from './segment-groups';

const MiB = 1024 * 1024;

function segment(
  address: number,
  sizeBytes: number,
  poolIndex: number,
  streamId: number,
  segmentType: number,
  firstBlock: number,
  endBlock: number,
): StateSegment {
  return {
    historyRow: 0,
    address,
    sizeBytes,
    streamId,
    poolIndex,
    segmentType,
    isExpandable: false,
    stackId: -1,
    firstBlock,
    endBlock,
  };
}

/** Two segments: [0x1000000, +2 MiB) with an allocated block and a free one; a 20 MiB one all free. */
function testState(): AllocatorState {
  return {
    device: 0,
    event: 5,
    segments: [
      segment(0x1000000, 2 * MiB, 0, 0, SegmentTypeCode.small, 0, 2),
      segment(0x4000000, 20 * MiB, 0, 0, SegmentTypeCode.large, 2, 3),
    ],
    blocks: {
      count: 3,
      address: Float64Array.from([0x1000000, 0x1000000 + 1536, 0x4000000]),
      sizeBytes: Float64Array.from([1536, 2 * MiB - 1536, 20 * MiB]),
      requestedBytes: Float64Array.from([1000, 0, 0]),
      kind: Uint8Array.from([BlockKind.allocated, BlockKind.free, BlockKind.free]),
      allocationRow: Int32Array.from([7, -1, -1]),
      sizeIsEstimate: Uint8Array.from([1, 0, 0]),
    },
    outsideSegments: [],
    clippedBlocks: 0,
  };
}

describe('groupSegments', () => {
  it('orders groups the one way (largest reserve, then pool, stream, type), segments by address', () => {
    const segments = [
      { address: 50, sizeBytes: 8, poolIndex: 1, streamId: 0, segmentType: SegmentTypeCode.large },
      { address: 40, sizeBytes: 4, poolIndex: 0, streamId: 1, segmentType: SegmentTypeCode.large },
      { address: 30, sizeBytes: 2, poolIndex: 0, streamId: 0, segmentType: SegmentTypeCode.small },
      { address: 20, sizeBytes: 4, poolIndex: 0, streamId: 0, segmentType: SegmentTypeCode.large },
      { address: 10, sizeBytes: 4, poolIndex: 0, streamId: 0, segmentType: SegmentTypeCode.large },
    ];
    const groups = groupSegments(segments);
    // 1/0/0 and 0/0/0 both reserve 8 bytes: the default pool first; then 0/1/0 (4), 0/0/1 (2).
    expect(groups.map((group) => group.key)).toEqual(['0/0/0', '1/0/0', '0/1/0', '0/0/1']);
    expect(groups[0]!.segments).toEqual([4, 3]);
    expect(groups.flatMap((group) => group.segments).sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('keys items by their group', () => {
    const items = [
      { poolIndex: 0, streamId: 1, segmentType: SegmentTypeCode.small, bytes: 5 },
      { poolIndex: 2, streamId: 0, segmentType: SegmentTypeCode.large, bytes: 9 },
    ];
    const byKey = byGroupKey(items);
    expect([...byKey.keys()]).toEqual(['0/1/1', '2/0/0']);
    expect(byKey.get('2/0/0')).toBe(items[1]);
  });

  it('names a group as the exported picture does', () => {
    const source = { pools: ['0,0', '1,3'], streams: [0, 0x5a] };
    expect(
      groupLabel(source, { poolIndex: 0, streamId: 1, segmentType: SegmentTypeCode.large }),
    ).toBe('default pool · stream 0x5a · large segments');
    expect(
      groupLabel(source, { poolIndex: 1, streamId: 0, segmentType: SegmentTypeCode.unknown }),
    ).toBe('private pool (1,3) · default stream · segments of unknown type');
  });
});

describe('block facts', () => {
  const view = { pools: ['0,0'], streams: [0] };

  it('finds blocks by index, row and address', () => {
    const state = testState();
    expect(segmentOfBlock(state, 0)).toBe(0);
    expect(segmentOfBlock(state, 1)).toBe(0);
    expect(segmentOfBlock(state, 2)).toBe(1);
    expect(segmentOfBlock(state, 3)).toBe(-1);
    expect(blockOfRow(state, 7)).toBe(0);
    expect(blockOfRow(state, 8)).toBe(-1);
    expect(blockAtStateAddress(state, 0x1000000 + 1535)).toBe(0);
    expect(blockAtStateAddress(state, 0x1000000 + 1536)).toBe(1);
    expect(blockAtStateAddress(state, 0x4000000 + 5)).toBe(2);
    expect(blockAtStateAddress(state, 0x3000000)).toBe(-1);
  });

  it('gives an allocated block its request and rounding waste', () => {
    const facts = blockFacts(view, testState(), 0)!;
    expect(facts).toMatchObject({
      kind: 'allocated',
      address: '0x000001000000',
      sizeBytes: 1536,
      sizeIsEstimate: true,
      requestedBytes: 1000,
      wasteBytes: 536,
      allocationRow: 7,
      offsetBytes: 0,
    });
    expect(facts.segment).toMatchObject({
      index: 0,
      pool: 'default pool',
      stream: 'default stream',
      sizeClass: 'small',
      group: 'default pool · default stream · small segments',
      blockCount: 2,
      freeBlockCount: 1,
    });
  });

  it('gives a free block no request', () => {
    const facts = blockFacts(view, testState(), 1)!;
    expect(facts).toMatchObject({
      kind: 'cached free',
      requestedBytes: null,
      wasteBytes: null,
      allocationRow: null,
      offsetBytes: 1536,
    });
    expect(blockFacts(view, testState(), 9)).toBeNull();
  });
});
