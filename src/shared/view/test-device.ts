// A small hand-made device, frames and stacks for unit tests of the chart, frame and table helpers,
// shared and the app's (no decoding needed).

import { AllocationOrigin, NOT_PENDING, type AllocationTable } from '../analysis/allocation-table';
import { emptySegmentHistory } from '../state/segment-history';
import type { FrameTable, StackTable } from '../snapshot/model';
import type { DeviceSummary } from '../report/summary-report';
import type { DeviceView } from '../view/snapshot-view';

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

export function testDevice(): DeviceView {
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
  const summary: DeviceSummary = {
    device: 0,
    trace_entries: 4,
    actions: { alloc: 2, free_completed: 1, segment_alloc: 1 },
    segments: 1,
    blocks: 2,
    reserved_bytes: { final: 8192, peak: 8192, baseline: 4096 },
    active_bytes: { final: 1512, peak: 3560, baseline: 1000, peak_event_index: 2 },
    allocated_bytes: { final: 1536 },
    unmatched_frees: 0,
    oom: [{ event_index: 1, requested_bytes: 1 << 30, device_free_bytes: 0 }],
    largest_allocations_at_peak: [],
  };
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
    summary,
  };
}
