import { describe, expect, it } from 'vitest';
import { once } from '../../../test/support/analyzed';
import { pythonPickle } from '../../../test/support/python';
import { decodeSnapshot } from '../snapshot/decode-snapshot';
import { buildAnalyzedSnapshot, type AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { BlockKind, createAllocatorStateIndex } from '../state/allocator-state';

async function snapshotOf(expression: string): Promise<AnalyzedSnapshot> {
  const bytes = pythonPickle(expression);
  return buildAnalyzedSnapshot(await decodeSnapshot(once(bytes)), { fileName: 't', fileBytes: 1 });
}

const A = 0x7f0000000000;
const M = 1 << 20;

// An expandable segment that grows (two maps join into one extent) and then gives back its first
// pages; its final state is one 4 MiB extent at A + 2 MiB.
const EXPANDABLE = `{
  'segments': [{'device': 0, 'address': ${A + 2 * M}, 'total_size': ${4 * M}, 'allocated_size': ${3 * M},
    'active_size': ${3 * M}, 'requested_size': ${3 * M}, 'stream': 0, 'segment_type': 'large',
    'segment_pool_id': (0, 0), 'is_expandable': True, 'frames': [],
    'blocks': [
      {'address': ${A + 2 * M}, 'size': ${M}, 'requested_size': 0, 'state': 'inactive', 'frames': []},
      {'address': ${A + 3 * M}, 'size': ${3 * M}, 'requested_size': ${3 * M}, 'state': 'active_allocated', 'frames': []}]}],
  'device_traces': [[
    {'action': 'segment_map', 'addr': ${A}, 'size': ${4 * M}, 'stream': 0, 'time_us': 1},
    {'action': 'alloc', 'addr': ${A}, 'size': ${3 * M - 100}, 'stream': 0, 'time_us': 2},
    {'action': 'segment_map', 'addr': ${A + 4 * M}, 'size': ${2 * M}, 'stream': 0, 'time_us': 3},
    {'action': 'alloc', 'addr': ${A + 3 * M}, 'size': ${3 * M}, 'stream': 0, 'time_us': 4},
    {'action': 'free_requested', 'addr': ${A}, 'size': ${3 * M - 100}, 'stream': 0, 'time_us': 5},
    {'action': 'free_completed', 'addr': ${A}, 'size': ${3 * M - 100}, 'stream': 0, 'time_us': 6},
    {'action': 'segment_unmap', 'addr': ${A}, 'size': ${2 * M}, 'stream': 0, 'time_us': 7},
  ]],
  'allocator_settings': {'expandable_segments': True},
}`;

describe('segment history and the state at each moment', () => {
  it('follows an expandable segment as it is mapped, joined and unmapped', async () => {
    const snapshot = await snapshotOf(EXPANDABLE);
    const index = createAllocatorStateIndex(snapshot.devices[0]!, snapshot.allocatorSettings);
    const extents = (event: number) =>
      index.stateAt(event).segments.map((s) => [s.address - A, s.sizeBytes / M]);
    expect(extents(-1)).toEqual([]);
    expect(extents(0)).toEqual([[0, 4]]);
    expect(extents(1)).toEqual([[0, 4]]);
    expect(extents(2)).toEqual([[0, 6]]);
    expect(extents(5)).toEqual([[0, 6]]);
    expect(extents(6)).toEqual([[2 * M, 4]]);
  });

  it('gives blocks their kind, estimated size and holes at each moment', async () => {
    const snapshot = await snapshotOf(EXPANDABLE);
    const index = createAllocatorStateIndex(snapshot.devices[0]!, snapshot.allocatorSettings);
    const blocks = (event: number) => {
      const { blocks: b } = index.stateAt(event);
      return Array.from({ length: b.count }, (_, i) => [
        (b.address[i]! - A) / M,
        b.sizeBytes[i]! / M,
        b.kind[i],
        b.sizeIsEstimate[i],
      ]);
    };
    // The first allocation's size is estimated (3 MiB - 100 B rounds to 3 MiB).
    expect(blocks(1)).toEqual([
      [0, 3, BlockKind.allocated, 1],
      [3, 1, BlockKind.free, 0],
    ]);
    expect(blocks(3)).toEqual([
      [0, 3, BlockKind.allocated, 1],
      [3, 3, BlockKind.allocated, 0],
    ]);
    expect(blocks(4)).toEqual([
      [0, 3, BlockKind.pendingFree, 1],
      [3, 3, BlockKind.allocated, 0],
    ]);
    expect(blocks(5)).toEqual([
      [0, 3, BlockKind.free, 0],
      [3, 3, BlockKind.allocated, 0],
    ]);
    expect(blocks(6)).toEqual([
      [2, 1, BlockKind.free, 0],
      [3, 3, BlockKind.allocated, 0],
    ]);
  });

  it('brings back freed segments and removes allocated ones, walking back', async () => {
    const snapshot = await snapshotOf(`{
      'segments': [{'device': 0, 'address': ${A}, 'total_size': ${20 * M}, 'allocated_size': 0,
        'active_size': 0, 'requested_size': 0, 'stream': 0, 'segment_type': 'large',
        'segment_pool_id': (0, 0), 'is_expandable': False, 'frames': [],
        'blocks': [{'address': ${A}, 'size': ${20 * M}, 'requested_size': 0, 'state': 'inactive', 'frames': []}]}],
      'device_traces': [[
        {'action': 'segment_free', 'addr': ${A + 100 * M}, 'size': ${2 * M}, 'stream': 0},
        {'action': 'segment_alloc', 'addr': ${A}, 'size': ${20 * M}, 'stream': 0},
      ]],
    }`);
    const device = snapshot.devices[0]!;
    const index = createAllocatorStateIndex(device, snapshot.allocatorSettings);
    const small = index.stateAt(-1).segments;
    expect(small.map((s) => [s.address - A, s.sizeBytes, s.segmentType])).toEqual([
      [100 * M, 2 * M, 1],
    ]);
    expect(index.stateAt(0).segments).toEqual([]);
    expect(index.stateAt(1).segments.map((s) => s.address - A)).toEqual([0]);
    expect(snapshot.warnings.filter((w) => w.includes('segment entries'))).toEqual([]);
  });

  it('counts segment entries that do not fit the final state in one warning', async () => {
    const snapshot = await snapshotOf(`{
      'segments': [],
      'device_traces': [[{'action': 'segment_alloc', 'addr': ${A}, 'size': ${2 * M}, 'stream': 0}]],
    }`);
    expect(snapshot.warnings.some((w) => w.includes('1 segment entries'))).toBe(true);
    const index = createAllocatorStateIndex(snapshot.devices[0]!, null);
    expect(index.stateAt(0).segments).toEqual([]);
  });
});
