// A profiler trace given its run's memory timeline beside it: each allocation of the trace takes
// the category PyTorch gave the tensor (PARAMETER, GRADIENT, ..., unknown). PyTorch builds the
// timeline from the same allocation events the trace's `[memory]` events are, so a timeline's
// allocation is the trace's that has its bytes at the same time: within 1 µs (the trace writes
// µs with 3 decimals from its base time, the raw timeline ns since the epoch, the .json whole µs,
// each as the nearest double), the nearest unmatched one first. The device is the one of the
// trace where most match (export_memory_timeline exports one device and does not say which).

import { countOf, nounFor } from '../format/plural';
import { deviceLabel } from '../format/words';
import { ActionCode, NO_STRING, type DeviceTrace, type SnapshotModel } from './model';
import { SnapshotFormatError } from './snapshot-error';

/** How far apart in time a timeline's allocation and the trace's may be and still be one. */
export const MATCH_WINDOW_US = 1;

export interface TimelineMatchCounts {
  device: number;
  /** The trace's allocations on that device, and how many took a category. */
  traceAllocations: number;
  matched: number;
  /** The timeline's allocations (made before the profiler started included). */
  timelineAllocations: number;
}

/**
 * The trace with a `category` per allocation; a refusal (not naming the timeline: the caller
 * says which file it read) when the timeline is not of its run.
 */
export function enrichWithMemoryTimeline(
  trace: SnapshotModel,
  timeline: SnapshotModel,
  timelineName: string,
): { model: SnapshotModel; counts: TimelineMatchCounts } {
  if (timeline.source !== 'memory-timeline') {
    throw new SnapshotFormatError(
      `not a memory timeline (torch.profiler's export_memory_timeline .json or .raw.json.gz) to give a trace's allocations their categories`,
    );
  }
  if (trace.source !== 'profiler-trace') {
    throw new SnapshotFormatError(
      `a memory timeline (${timelineName}) gives categories to a PyTorch profiler trace's allocations; this file is not one`,
    );
  }
  const source = timeline.traces[0];
  if (source === undefined) throw new SnapshotFormatError('the memory timeline holds no memory');
  const allocs = allocRows(source);
  const best = trace.traces
    .map((device) => ({ device, match: matchAllocations(device, source, allocs) }))
    .sort((a, b) => b.match.matched - a.match.matched)[0];
  if (best === undefined || best.match.matched === 0) {
    throw notOfThisRun(trace, source, allocs.length);
  }
  const strings = [...trace.strings];
  const ids = new Map<number, number>();
  const idOf = (timelineId: number): number => {
    let id = ids.get(timelineId);
    if (id === undefined) {
      const text = timeline.strings[timelineId]!;
      id = strings.indexOf(text);
      if (id < 0) id = strings.push(text) - 1;
      ids.set(timelineId, id);
    }
    return id;
  };
  const categoryId = new Int32Array(best.device.length).fill(NO_STRING);
  for (const [traceRow, timelineRow] of best.match.pairs) {
    categoryId[traceRow] = idOf(source.categoryId![timelineRow]!);
  }
  const counts: TimelineMatchCounts = {
    device: best.device.device,
    traceAllocations: best.match.traceAllocations,
    matched: best.match.matched,
    timelineAllocations: allocs.length,
  };
  const warnings = [...trace.warnings];
  const unmatched = counts.traceAllocations - counts.matched;
  if (unmatched > 0) {
    warnings.push(
      `${deviceLabel(counts.device)}: ${countOf(unmatched, 'allocation')} of ${counts.traceAllocations} ${nounFor(unmatched, 'has', 'have')} no category: ${timelineName} has no allocation of the same bytes within ${MATCH_WINDOW_US} µs of ${nounFor(unmatched, 'it', 'them')} (its .json form records levels per µs, not tensors: the .raw.json.gz of the same export matches each)`,
    );
  }
  return {
    model: {
      ...trace,
      strings,
      warnings,
      traces: trace.traces.map((device) =>
        device === best.device ? { ...device, categoryId } : device,
      ),
    },
    counts,
  };
}

/** The alloc entries of a device, by time. */
function allocRows(trace: DeviceTrace): number[] {
  const rows: number[] = [];
  for (let row = 0; row < trace.length; row++) {
    if (trace.action[row] === ActionCode.alloc) rows.push(row);
  }
  return rows;
}

interface DeviceMatch {
  traceAllocations: number;
  matched: number;
  /** [trace row, timeline row]. */
  pairs: [number, number][];
}

function matchAllocations(
  device: DeviceTrace,
  timeline: DeviceTrace,
  timelineAllocs: readonly number[],
): DeviceMatch {
  // The trace's allocations of each size, in time order.
  const bySize = new Map<number, number[]>();
  let traceAllocations = 0;
  for (const row of allocRows(device)) {
    traceAllocations++;
    const bytes = device.sizeBytes[row]!;
    let rows = bySize.get(bytes);
    if (rows === undefined) bySize.set(bytes, (rows = []));
    rows.push(row);
  }
  for (const rows of bySize.values()) {
    rows.sort((a, b) => device.timeUs[a]! - device.timeUs[b]! || a - b);
  }
  const used = new Uint8Array(device.length);
  const pairs: [number, number][] = [];
  for (const timelineRow of timelineAllocs) {
    const rows = bySize.get(timeline.sizeBytes[timelineRow]!);
    if (rows === undefined) continue;
    const time = timeline.timeUs[timelineRow]!;
    let best = -1;
    let bestGap = Infinity;
    for (
      let i = firstAtOrAfter(rows, device.timeUs, time - MATCH_WINDOW_US);
      i < rows.length;
      i++
    ) {
      const row = rows[i]!;
      const gap = Math.abs(device.timeUs[row]! - time);
      if (device.timeUs[row]! > time + MATCH_WINDOW_US) break;
      if (used[row] === 1 || gap >= bestGap) continue;
      best = row;
      bestGap = gap;
    }
    if (best < 0) continue;
    used[best] = 1;
    pairs.push([best, timelineRow]);
  }
  return { traceAllocations, matched: pairs.length, pairs };
}

/** Index of the first of `rows` (sorted by time) at or after `time`. */
function firstAtOrAfter(rows: readonly number[], timeUs: Float64Array, time: number): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (timeUs[rows[mid]!]! < time) low = mid + 1;
    else high = mid;
  }
  return low;
}

function notOfThisRun(
  trace: SnapshotModel,
  timeline: DeviceTrace,
  allocations: number,
): SnapshotFormatError {
  const span = (device: DeviceTrace): [number, number] => {
    let first = Infinity;
    let last = -Infinity;
    for (let row = 0; row < device.length; row++) {
      const time = device.timeUs[row]!;
      if (!Number.isFinite(time)) continue;
      first = Math.min(first, time);
      last = Math.max(last, time);
    }
    return [first, last];
  };
  const [first, last] = span(timeline);
  const traceSpans = trace.traces.map(span);
  const traceFirst = Math.min(...traceSpans.map(([a]) => a));
  const traceLast = Math.max(...traceSpans.map(([, b]) => b));
  const when = (a: number, b: number): string =>
    Number.isFinite(a) && Number.isFinite(b) ? `${clock(a)} to ${clock(b)}` : 'no times';
  if (!(first <= traceLast && traceFirst <= last)) {
    return new SnapshotFormatError(
      `not a memory timeline of this trace's run: its times (${when(first, last)}) do not overlap the trace's memory events (${when(traceFirst, traceLast)})`,
    );
  }
  return new SnapshotFormatError(
    `not a memory timeline of this trace's run: none of its ${countOf(allocations, 'allocation')} has the bytes of one of the trace's at the same time (within ${MATCH_WINDOW_US} µs)`,
  );
}

/** A time in µs since the epoch as UTC, to the µs. */
function clock(timeUs: number): string {
  const ms = Math.floor(timeUs / 1000);
  const us = Math.floor(timeUs - ms * 1000);
  return `${new Date(ms).toISOString().slice(0, -1)}${String(us).padStart(3, '0')}Z`;
}
