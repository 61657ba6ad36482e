// A small hand-made device, frames and stacks for unit tests of the chart, frame and table helpers,
// shared and the app's (no decoding needed).

import {
  AllocationOrigin,
  NOT_PENDING,
  type AllocationTable,
} from '../../../src/shared/analysis/allocation-table';
import { emptySegmentHistory } from '../../../src/shared/analysis/segment-history';
import type { FrameTable, StackTable } from '../../../src/shared/snapshot/model';
import { DerivedCache } from '../../../src/shared/analyzed/derived-cache';
import type { DeviceFigures } from '../../../src/shared/analyzed/device-figures';
import type { AnalyzedDevice } from '../../../src/shared/analyzed/analyzed-snapshot';

export const TEST_FRAMES: FrameTable = {
  filename: [
    '??',
    'CUDACachingAllocator.cpp',
    '/site-packages/torch/nn/modules/linear.py',
    '/home/me/train.py',
    '/home/me/train.py',
  ],
  name: [
    'torch::unwind::unwind()',
    'c10::cuda::CUDACachingAllocator::malloc',
    'forward',
    'step',
    '<module>',
  ],
  line: [0, 0, 125, 42, -1],
};

/** Stack 0: allocator frames then user code; stack 1: framework only. */
export const TEST_STACKS: StackTable = {
  offsets: Uint32Array.from([0, 5, 7]),
  frameIds: Uint32Array.from([0, 1, 2, 3, 4, 0, 2]),
};

export function testDevice(): AnalyzedDevice {
  const allocations: AllocationTable = {
    count: 3,
    address: Float64Array.from([0x7f0000000000, 0x7f0000200000, 0x7f0000400000]),
    sizeBytes: Float64Array.from([1000, 2048, 512]),
    blockSizeBytes: Float64Array.from([1024, NaN, 512]),
    startEvent: Int32Array.from([-1, 0, 2]),
    endEvent: Int32Array.from([4, 3, 4]),
    stackId: Int32Array.from([-1, 0, 1]),
    streamId: Uint32Array.from([0, 1, 0]),
    origin: Uint8Array.from([
      AllocationOrigin.liveThroughout,
      AllocationOrigin.trace,
      AllocationOrigin.trace,
    ]),
    freeRequestedEvent: new Int32Array(3).fill(NOT_PENDING),
  };
  const figures = testFigures({
    traceEntries: 4,
    actionCounts: [
      ['alloc', 2],
      ['free_completed', 1],
      ['segment_alloc', 1],
    ],
    segments: 1,
    blocks: 2,
    reserved: { finalBytes: 8192, peakBytes: 8192, baselineBytes: 4096 },
    active: { finalBytes: 1512, peakBytes: 3560, baselineBytes: 1000, peakEventIndex: 2 },
    allocatedFinalBytes: 1536,
    ooms: [{ eventIndex: 1, requestedBytes: 1 << 30, deviceFreeBytes: 0, streamId: 0 }],
  });
  return {
    device: 0,
    traceLength: 4,
    timeUs: Float64Array.from([5_000_000, 5_000_100, 5_001_000, 5_005_000]),
    action: Uint8Array.from([0, 4, 0, 2]),
    activeBytes: Float64Array.from([3048, 3048, 3560, 1512]),
    reservedBytes: Float64Array.from([4096, 8192, 8192, 8192]),
    allocations,
    segmentHistory: emptySegmentHistory(),
    ooms: [{ eventIndex: 1, requestedBytes: 1 << 30, deviceFreeBytes: 0, streamId: 0 }],
    figures,
    derived: new DerivedCache(),
  };
}

/** Figures of a hand-made device: zeros except what the test sets. */
export function testFigures(overrides: Partial<DeviceFigures> = {}): DeviceFigures {
  return {
    device: 0,
    traceEntries: 0,
    actionCounts: [],
    segments: 0,
    blocks: 0,
    reserved: { finalBytes: 0, peakBytes: 0, baselineBytes: 0 },
    reservedRecorded: true,
    active: { finalBytes: 0, peakBytes: 0, baselineBytes: 0, peakEventIndex: -1 },
    allocatedFinalBytes: 0,
    unmatchedFrees: 0,
    ooms: [],
    largestAtPeak: [],
    ...overrides,
  };
}
