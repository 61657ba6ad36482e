// Figures of the allocator's state at dump time (the `segments` list), per device.

import { BlockStateCode, type SnapshotModel } from '../snapshot/model';

export interface FinalState {
  device: number;
  segmentCount: number;
  blockCount: number;
  /** Σ total_size. */
  reservedBytes: number;
  /** Σ requested_size of active_allocated and active_pending_free blocks. */
  activeBytes: number;
  /** Σ size (rounded) of active_allocated blocks. */
  allocatedBytes: number;
  /** Segment indexes of this device. */
  segmentIndexes: number[];
}

export function finalStateByDevice(model: SnapshotModel): Map<number, FinalState> {
  const { segments, blocks } = model;
  const states = new Map<number, FinalState>();
  for (let s = 0; s < segments.count; s++) {
    const device = segments.device[s]!;
    let state = states.get(device);
    if (state === undefined) {
      state = {
        device,
        segmentCount: 0,
        blockCount: 0,
        reservedBytes: 0,
        activeBytes: 0,
        allocatedBytes: 0,
        segmentIndexes: [],
      };
      states.set(device, state);
    }
    state.segmentCount++;
    state.segmentIndexes.push(s);
    state.reservedBytes += segments.totalSizeBytes[s]!;
    const firstBlock = segments.blockOffsets[s]!;
    const endBlock = segments.blockOffsets[s + 1]!;
    state.blockCount += endBlock - firstBlock;
    for (let b = firstBlock; b < endBlock; b++) {
      const blockState = blocks.state[b]!;
      if (blockState === BlockStateCode.inactive) continue;
      state.activeBytes += blocks.requestedSizeBytes[b]!;
      if (blockState === BlockStateCode.active_allocated)
        state.allocatedBytes += blocks.sizeBytes[b]!;
    }
  }
  return states;
}

export function emptyFinalState(device: number): FinalState {
  return {
    device,
    segmentCount: 0,
    blockCount: 0,
    reservedBytes: 0,
    activeBytes: 0,
    allocatedBytes: 0,
    segmentIndexes: [],
  };
}
