// The figures the fragmentation tables list, in order, with their names, explanations and how to
// read them from a state's figures.

import type { MemoryFigures } from '@shared/state/memory-figures';

export type MetricKey =
  | 'reserved'
  | 'active'
  | 'cached-free'
  | 'largest-free'
  | 'free-blocks'
  | 'internal-waste'
  | 'small-holes';

export interface Metric {
  key: MetricKey;
  label: string;
  title: string;
  /** A count, not bytes. */
  count?: boolean;
  value: (figures: MemoryFigures) => number;
}

export const METRICS: readonly Metric[] = [
  {
    key: 'reserved',
    label: 'Reserved',
    title: 'Σ segment sizes: what PyTorch holds from CUDA',
    value: (f) => f.reservedBytes,
  },
  {
    key: 'active',
    label: 'Active',
    title: 'Σ requested bytes of live (and pending-free) allocations',
    value: (f) => f.activeBytes,
  },
  {
    key: 'cached-free',
    label: 'Cached free',
    title: 'Σ free blocks: reserved but unused (external fragmentation)',
    value: (f) => f.cachedFreeBytes,
  },
  {
    key: 'largest-free',
    label: 'Largest free block',
    title: 'The largest request that could be served without asking CUDA for more',
    value: (f) => f.largestFreeBytes,
  },
  {
    key: 'free-blocks',
    label: 'Free blocks',
    title: 'How many free blocks the segments hold',
    count: true,
    value: (f) => f.freeBlockCount,
  },
  {
    key: 'internal-waste',
    label: 'Internal waste',
    title: 'Σ (block size − requested size): rounding inside allocated blocks',
    value: (f) => f.internalWasteBytes,
  },
  {
    key: 'small-holes',
    label: 'In small holes',
    title: 'Σ free blocks smaller than a common request size',
    value: (f) => f.smallFreeBytes,
  },
];

/** Columns of the per-group tables: all but small holes. */
export const GROUP_METRICS: readonly Metric[] = METRICS.filter(
  (metric) => metric.key !== 'small-holes',
);
