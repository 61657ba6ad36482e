import { describe, expect, it } from 'vitest';
import { testFigures } from '../../../test/support/builders/analyzed-device';
import { DerivedCache } from './derived-cache';
import { BLOCK_EVENTS, timelineIndexOf } from './timeline-index';
import type { AnalyzedDevice } from './analyzed-snapshot';
import { NOT_PENDING } from '../analysis/allocation-table';
import { emptySegmentHistory } from '../analysis/segment-history';

function deviceWith(active: number[], sizes: number[]): AnalyzedDevice {
  const count = sizes.length;
  return {
    device: 0,
    traceLength: active.length,
    timeUs: null,
    action: new Uint8Array(active.length),
    activeBytes: Float64Array.from(active),
    reservedBytes: Float64Array.from(active, (value) => value * 2),
    allocations: {
      count,
      address: new Float64Array(count),
      sizeBytes: Float64Array.from(sizes),
      blockSizeBytes: new Float64Array(count),
      startEvent: new Int32Array(count),
      endEvent: new Int32Array(count),
      stackId: new Int32Array(count),
      streamId: new Uint32Array(count),
      origin: new Uint8Array(count),
      freeRequestedEvent: new Int32Array(count).fill(NOT_PENDING),
    },
    segmentHistory: emptySegmentHistory(),
    ooms: [],
    figures: testFigures(),
    derived: new DerivedCache(),
  };
}

describe('timelineIndexOf', () => {
  it('keeps min/max per block of events and groups rows by size class, largest first', () => {
    const active = Array.from({ length: BLOCK_EVENTS * 2 + 5 }, (_, i) => (i * 37) % 101);
    const sizes = [512, 3 * 2 ** 30, 1, 2 * 2 ** 20, 3 * 2 ** 30, 0, 1024];
    const index = timelineIndexOf(deviceWith(active, sizes));
    expect(index.activeBlockMin).toHaveLength(3);
    expect(index.activeBlockMax[1]).toBe(Math.max(...active.slice(BLOCK_EVENTS, 2 * BLOCK_EVENTS)));
    expect(index.reservedBlockMin[2]).toBe(2 * Math.min(...active.slice(2 * BLOCK_EVENTS)));
    const order = [...index.rowsBySizeClass];
    expect(order).toHaveLength(sizes.length);
    // Non-increasing size class: each row's size is at least half the size of any later row's.
    const classOf = (size: number): number => (size < 1 ? -1 : Math.floor(Math.log2(size)));
    for (let i = 1; i < order.length; i++) {
      expect(classOf(sizes[order[i - 1]!]!)).toBeGreaterThanOrEqual(classOf(sizes[order[i]!]!));
    }
    expect(order.slice(0, 2).sort()).toEqual([1, 4]);
  });
});
