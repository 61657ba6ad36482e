import { describe, expect, it } from 'vitest';
import type { MemoryFigures } from '@shared/state/memory-figures';
import { GROUP_METRICS, METRICS } from './fragmentation-metrics';

describe('fragmentation metrics', () => {
  const figures: MemoryFigures = {
    segmentCount: 1,
    reservedBytes: 1,
    activeBytes: 2,
    blockBytes: 0,
    cachedFreeBytes: 3,
    largestFreeBytes: 4,
    freeBlockCount: 5,
    internalWasteBytes: 6,
    smallFreeBytes: 7,
    smallHoleThresholdBytes: 0,
  };

  it('reads each figure, in table order', () => {
    expect(METRICS.map((metric) => [metric.key, metric.value(figures)])).toEqual([
      ['reserved', 1],
      ['active', 2],
      ['cached-free', 3],
      ['largest-free', 4],
      ['free-blocks', 5],
      ['internal-waste', 6],
      ['small-holes', 7],
    ]);
    expect(METRICS.filter((metric) => metric.count).map((metric) => metric.key)).toEqual([
      'free-blocks',
    ]);
  });

  it('leaves small holes out of the group tables', () => {
    expect(GROUP_METRICS.map((metric) => metric.key)).not.toContain('small-holes');
    expect(GROUP_METRICS).toHaveLength(METRICS.length - 1);
  });
});
