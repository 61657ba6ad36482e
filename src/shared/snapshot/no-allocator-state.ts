// The segments and blocks of a file that records no allocator state (a PyTorch profiler trace, a
// memory timeline): empty tables of the model's shape, one definition for every such source.

import type { SnapshotModel } from './model';

export function emptySegments(): SnapshotModel['segments'] {
  return {
    count: 0,
    device: new Int32Array(0),
    address: new Float64Array(0),
    totalSizeBytes: new Float64Array(0),
    allocatedSizeBytes: new Float64Array(0),
    activeSizeBytes: new Float64Array(0),
    requestedSizeBytes: new Float64Array(0),
    streamId: new Uint32Array(0),
    segmentType: new Uint8Array(0),
    poolId: new Uint32Array(0),
    isExpandable: new Uint8Array(0),
    stackId: new Int32Array(0),
    blockOffsets: new Uint32Array(1),
  };
}

export function emptyBlocks(): SnapshotModel['blocks'] {
  return {
    count: 0,
    address: new Float64Array(0),
    sizeBytes: new Float64Array(0),
    requestedSizeBytes: new Float64Array(0),
    state: new Uint8Array(0),
    stackId: new Int32Array(0),
  };
}
