// Precomputed once per device so that laying out a window costs about as much as its pixels and
// bands, not its events and allocations: min/max of the curves per block of events, and the
// allocation rows grouped by size (powers of two), largest group first.

import type { AnalyzedDevice } from './analyzed-snapshot';
import { aliveCheckpointsOf, type AliveCheckpoints } from './alive-checkpoints';
import { postableDerivedKey } from './derived-cache';

export const BLOCK_EVENTS = 64;

export interface TimelineIndex {
  /** Per block of BLOCK_EVENTS events: min and max of the active and reserved curves. */
  activeBlockMin: Float64Array;
  activeBlockMax: Float64Array;
  reservedBlockMin: Float64Array;
  reservedBlockMax: Float64Array;
  /** Allocation rows ordered by size class, largest class first (rows keep table order within a class). */
  rowsBySizeClass: Int32Array;
  /** Rows of class i are rowsBySizeClass[classStarts[i] .. classStarts[i + 1]). */
  classStarts: Int32Array;
  /** Built on first use (only narrow windows need it). */
  aliveCheckpoints: () => AliveCheckpoints;
  /**
   * The AREA_CANDIDATES rows that cover the most of the picture over the whole trace (bytes ×
   * events alive in [0, traceLength)), largest first (ties: earlier rows); built on first use.
   */
  rowsByArea: () => Int32Array;
  /** rowsByArea's rows if they were built; never builds. */
  builtRowsByArea: () => Int32Array | null;
}

/** The index as it crosses threads (the decode worker builds it for the first screen). */
type PostedTimelineIndex = Omit<
  TimelineIndex,
  'aliveCheckpoints' | 'rowsByArea' | 'builtRowsByArea'
> & { rowsByArea: Int32Array | null };

/** Enough for any band budget: a window draws at most ~1000 bands. */
export const AREA_CANDIDATES = 4096;

const TIMELINE_INDEX = postableDerivedKey<TimelineIndex>('timeline index', {
  post: (index): PostedTimelineIndex => ({
    activeBlockMin: index.activeBlockMin,
    activeBlockMax: index.activeBlockMax,
    reservedBlockMin: index.reservedBlockMin,
    reservedBlockMax: index.reservedBlockMax,
    rowsBySizeClass: index.rowsBySizeClass,
    classStarts: index.classStarts,
    rowsByArea: index.builtRowsByArea(),
  }),
  adopt: (posted, device) =>
    timelineIndexFrom(device as AnalyzedDevice, posted as PostedTimelineIndex),
});

export function timelineIndexOf(device: AnalyzedDevice): TimelineIndex {
  return device.derived.get(TIMELINE_INDEX, () => buildTimelineIndex(device));
}

function buildTimelineIndex(device: AnalyzedDevice): TimelineIndex {
  const [activeBlockMin, activeBlockMax] = blockRanges(device.activeBytes);
  const [reservedBlockMin, reservedBlockMax] = blockRanges(device.reservedBytes);
  const { rowsBySizeClass, classStarts } = groupBySizeClass(device);
  return timelineIndexFrom(device, {
    activeBlockMin,
    activeBlockMax,
    reservedBlockMin,
    reservedBlockMax,
    rowsBySizeClass,
    classStarts,
    rowsByArea: null,
  });
}

function timelineIndexFrom(device: AnalyzedDevice, columns: PostedTimelineIndex): TimelineIndex {
  let byArea = columns.rowsByArea ?? undefined;
  return {
    ...columns,
    aliveCheckpoints: () => aliveCheckpointsOf(device),
    rowsByArea: () => (byArea ??= largestAreaRows(device, AREA_CANDIDATES)),
    builtRowsByArea: () => byArea ?? null,
  };
}

/** Bytes × events an allocation covers in [from, to). */
export function visibleArea(
  table: AnalyzedDevice['allocations'],
  row: number,
  from: number,
  to: number,
): number {
  const span = Math.min(table.endEvent[row]!, to) - Math.max(table.startEvent[row]!, from);
  return span > 0 ? span * table.sizeBytes[row]! : 0;
}

/**
 * The `count` rows of largest whole-trace area, without sorting every row: one pass keeps the
 * rows above a threshold that rises as the kept set fills (O(n) on million-row tables).
 */
function largestAreaRows(device: AnalyzedDevice, count: number): Int32Array {
  const table = device.allocations;
  const traceEnd = Math.max(device.traceLength, 0);
  const areas = new Float64Array(table.count);
  for (let row = 0; row < table.count; row++) areas[row] = visibleArea(table, row, 0, traceEnd);
  let kept: number[] = [];
  let threshold = 0;
  for (let row = 0; row < table.count; row++) {
    if (areas[row]! <= threshold && kept.length >= count) continue;
    kept.push(row);
    if (kept.length >= 2 * count) {
      kept = byAreaThenRow(kept, areas).slice(0, count);
      threshold = areas[kept[kept.length - 1]!]!;
    }
  }
  return Int32Array.from(byAreaThenRow(kept, areas).slice(0, count));
}

function byAreaThenRow(rows: number[], areas: Float64Array): number[] {
  return rows.sort((a, b) => areas[b]! - areas[a]! || a - b);
}

function blockRanges(values: Float64Array): [Float64Array, Float64Array] {
  const blocks = Math.ceil(values.length / BLOCK_EVENTS);
  const min = new Float64Array(blocks);
  const max = new Float64Array(blocks);
  for (let block = 0; block < blocks; block++) {
    const from = block * BLOCK_EVENTS;
    const to = Math.min(values.length, from + BLOCK_EVENTS);
    let low = values[from]!;
    let high = low;
    for (let i = from + 1; i < to; i++) {
      const value = values[i]!;
      if (value < low) low = value;
      else if (value > high) high = value;
    }
    min[block] = low;
    max[block] = high;
  }
  return [min, max];
}

const SIZE_CLASSES = 64;

/** Class of a size: 63 - floor(log2(size)), so class 0 holds the largest sizes. */
function sizeClassOf(size: number): number {
  if (size < 1) return SIZE_CLASSES - 1;
  return Math.max(0, SIZE_CLASSES - 1 - Math.floor(Math.log2(size)));
}

function groupBySizeClass(device: AnalyzedDevice): {
  rowsBySizeClass: Int32Array;
  classStarts: Int32Array;
} {
  const table = device.allocations;
  const counts = new Int32Array(SIZE_CLASSES + 1);
  const classes = new Uint8Array(table.count);
  for (let row = 0; row < table.count; row++) {
    const sizeClass = sizeClassOf(table.sizeBytes[row]!);
    classes[row] = sizeClass;
    counts[sizeClass + 1]!++;
  }
  for (let i = 1; i <= SIZE_CLASSES; i++) counts[i]! += counts[i - 1]!;
  const classStarts = counts.slice();
  const cursor = counts.slice(0, SIZE_CLASSES);
  const rowsBySizeClass = new Int32Array(table.count);
  for (let row = 0; row < table.count; row++) rowsBySizeClass[cursor[classes[row]!]!++] = row;
  return { rowsBySizeClass, classStarts };
}
