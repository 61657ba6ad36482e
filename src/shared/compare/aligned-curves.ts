// Two devices' active curves on one x axis, for "compare with": by event index, by time since
// each one's first event, or by training step (step k of A over step k of B, each step stretched
// to one unit, when both have steps). Each curve is sampled into the same buckets as the most it
// held in the events a bucket covers (the envelope the timeline draws), and B − A where both
// have data.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import type { TrainingStep } from '../steps/find-steps';

export type AlignBy = 'step' | 'time' | 'event';

export const ALIGN_BYS: readonly AlignBy[] = ['step', 'time', 'event'];

/** One side: a device and its steps (for aligning by step). */
export interface AlignedSide {
  device: Pick<AnalyzedDevice, 'activeBytes' | 'timeUs' | 'traceLength'>;
  steps: readonly TrainingStep[];
}

export interface AlignedCurves {
  alignBy: AlignBy;
  /** Left edge of each bucket, in the axis's unit (event, µs since the first event, step). */
  x: Float64Array;
  /** Width of a bucket in that unit. */
  bucket: number;
  /** The most each side held in each bucket; NaN where the side has no data there. */
  a: Float64Array;
  b: Float64Array;
  /** b − a where both have data, else NaN. */
  difference: Float64Array;
}

/** Reads per bucket at most (a 4M-event trace in 800 buckets is sampled, not read whole). */
const READS_PER_BUCKET = 256;

/** Whether the sides can be aligned that way (by step: both have steps; by time: both have times). */
export function canAlign(a: AlignedSide, b: AlignedSide, alignBy: AlignBy): boolean {
  if (alignBy === 'step') return a.steps.length > 0 && b.steps.length > 0;
  if (alignBy === 'time') return a.device.timeUs !== null && b.device.timeUs !== null;
  return true;
}

export function alignCurves(
  a: AlignedSide,
  b: AlignedSide,
  alignBy: AlignBy,
  buckets = 800,
): AlignedCurves {
  const extent = Math.max(axisLength(a, alignBy), axisLength(b, alignBy), 1e-9);
  const count = Math.max(1, buckets);
  const bucket = extent / count;
  const x = Float64Array.from({ length: count }, (_, i) => i * bucket);
  const sideA = sampleSide(a, alignBy, x, bucket);
  const sideB = sampleSide(b, alignBy, x, bucket);
  const difference = sideA.map((value, i) =>
    Number.isNaN(value) || Number.isNaN(sideB[i]!) ? NaN : sideB[i]! - value,
  );
  return { alignBy, x, bucket, a: sideA, b: sideB, difference };
}

/** How long a side's axis is: events, µs from its first to its last event, or complete steps. */
function axisLength(side: AlignedSide, alignBy: AlignBy): number {
  const { device } = side;
  if (alignBy === 'event') return device.traceLength;
  if (alignBy === 'step') return side.steps.length;
  const times = device.timeUs;
  if (times === null || device.traceLength === 0) return 0;
  return Math.max(0, times[device.traceLength - 1]! - times[0]!);
}

/** The events [start, end) a span of the axis covers on one side; null outside its data. */
function eventRange(
  side: AlignedSide,
  alignBy: AlignBy,
  from: number,
  to: number,
): [number, number] | null {
  const { device } = side;
  const length = device.traceLength;
  if (alignBy === 'event') {
    const start = Math.floor(from);
    const end = Math.min(length, Math.max(start + 1, Math.floor(to)));
    return start >= length ? null : [start, end];
  }
  if (alignBy === 'step') {
    const index = Math.floor(from);
    const step = side.steps[index];
    if (step === undefined) return null;
    const span = step.endEvent - step.startEvent + 1;
    // Within one step (a bucket never straddles two: buckets are narrower than a step here, or
    // the remainder of this step is taken).
    const start = step.startEvent + Math.floor((from - index) * span);
    const within = Math.min(to, index + 1) - index;
    const end = Math.max(start + 1, step.startEvent + Math.floor(within * span));
    return [start, Math.min(end, step.endEvent + 1)];
  }
  const times = device.timeUs;
  if (times === null || length === 0) return null;
  const first = times[0]!;
  if (from > times[length - 1]! - first) return null;
  const start = Math.max(0, lastAtOrBefore(times, length, first + from));
  const end = Math.max(start + 1, lastAtOrBefore(times, length, first + to) + 1);
  return [start, Math.min(length, end)];
}

function sampleSide(
  side: AlignedSide,
  alignBy: AlignBy,
  x: Float64Array,
  bucket: number,
): Float64Array {
  const bytes = side.device.activeBytes;
  return x.map((from) => {
    const range = eventRange(side, alignBy, from, from + bucket);
    if (range === null) return NaN;
    const [start, end] = range;
    const stride = Math.max(1, Math.floor((end - start) / READS_PER_BUCKET));
    let most = -Infinity;
    for (let event = start; event < end; event += stride) most = Math.max(most, bytes[event]!);
    return most;
  });
}

/** The last event whose time is at or before `timeUs` (-1: none); times are in trace order. */
function lastAtOrBefore(times: Float64Array, length: number, timeUs: number): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (times[middle]! <= timeUs) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}
