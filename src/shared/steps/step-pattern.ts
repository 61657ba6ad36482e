// Training steps from the shape of the active curve, for traces without step annotations: a
// training loop repeats, so the curve has a period (found by autocorrelation of the curve
// resampled to a few thousand points), and a step is the span between consecutive troughs one
// period apart (each the lowest point within half a period of where the last one predicts it).
// A trough that is a plateau ends where the curve rises again: the next step's first allocation.

import type { TrainingStep } from './training-step';

/** Points the curve is resampled to for the autocorrelation (O(points²)). */
const POINTS = 2048;
/** Shortest period looked for, in resampled points, and fewest periods the trace must hold. */
const MIN_LAG = 4;
const MIN_PERIODS = 2.5;
/** A period must correlate at least this well with itself one period later. */
const MIN_CORRELATION = 0.5;

export function stepsFromPattern(activeBytes: Float64Array, traceLength: number): TrainingStep[] {
  const length = Math.min(traceLength, activeBytes.length);
  if (length < MIN_LAG * 8) return [];
  const period = curvePeriod(activeBytes, length);
  if (period === null) return [];
  const troughs: number[] = [];
  let trough = lastMinimum(activeBytes, 0, Math.min(length, Math.ceil(period)));
  while (trough >= 0) {
    troughs.push(trough);
    const from = Math.floor(trough + period * 0.5);
    const to = Math.ceil(trough + period * 1.5);
    if (from >= length) break;
    const next = lastMinimum(activeBytes, from, Math.min(to, length));
    // Where the trace ends before the window does, the lowest point is a trough only if the curve
    // rises after it (the next step began); one at the very end is a step cut short, left out.
    if (to > length && (next >= length - 1 || next - trough < period * 0.8)) break;
    trough = next;
  }
  if (!looksLikeSteps(activeBytes, troughs)) return [];
  const steps: TrainingStep[] = [];
  for (let i = 0; i + 1 < troughs.length; i++)
    steps.push({
      index: i,
      name: `step ${i + 1}`,
      startEvent: troughs[i]! + 1,
      endEvent: troughs[i + 1]!,
    });
  return steps;
}

/**
 * Whether the repeats are steps: each returns to near where it started, the change from trough
 * to trough (a leak's growth) at most half the rise and fall inside a step. Layers of one forward
 * pass repeat too, but each keeps its activations: the troughs climb by about a layer's swing
 * (on the real snapshots, layers pass only once the limit reaches the whole swing).
 */
function looksLikeSteps(activeBytes: Float64Array, troughs: readonly number[]): boolean {
  if (troughs.length < 4) return false; // three steps at least
  const rises: number[] = [];
  const swings: number[] = [];
  for (let i = 0; i + 1 < troughs.length; i++) {
    const low = activeBytes[troughs[i]!]!;
    const next = activeBytes[troughs[i + 1]!]!;
    let peak = -Infinity;
    for (let event = troughs[i]!; event <= troughs[i + 1]!; event++)
      peak = Math.max(peak, activeBytes[event]!);
    rises.push(Math.abs(next - low));
    swings.push(peak - Math.max(low, next));
  }
  const median = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1]!;
  const swing = median(swings);
  return swing > 0 && median(rises) <= swing * 0.5;
}

/**
 * The curve's period in events, or null when it does not repeat: the smallest lag whose
 * autocorrelation is a local maximum close to the best one (a multiple of the period correlates
 * as well, and the step is the shortest repeat).
 */
function curvePeriod(activeBytes: Float64Array, length: number): number | null {
  const points = Math.min(POINTS, length);
  const bucket = length / points;
  const series = new Float64Array(points);
  for (let p = 0; p < points; p++) {
    const start = Math.floor(p * bucket);
    const end = Math.max(start + 1, Math.floor((p + 1) * bucket));
    let sum = 0;
    for (let i = start; i < end; i++) sum += activeBytes[i]!;
    series[p] = sum / (end - start);
  }
  // Without its trend (a least-squares line): a leak's climb would otherwise correlate with
  // itself at every lag and hide the repeats riding on it.
  let sumX = 0;
  let sumY = 0;
  for (let p = 0; p < points; p++) {
    sumX += p;
    sumY += series[p]!;
  }
  const meanX = sumX / points;
  const meanY = sumY / points;
  let sxx = 0;
  let sxy = 0;
  for (let p = 0; p < points; p++) {
    sxx += (p - meanX) ** 2;
    sxy += (p - meanX) * (series[p]! - meanY);
  }
  const slope = sxx > 0 ? sxy / sxx : 0;
  for (let p = 0; p < points; p++) series[p] = series[p]! - meanY - slope * (p - meanX);
  const maxLag = Math.floor(points / MIN_PERIODS);
  const correlation = new Float64Array(maxLag + 2);
  for (let lag = MIN_LAG - 1; lag <= maxLag + 1 && lag < points; lag++) {
    let cross = 0;
    let left = 0;
    let right = 0;
    for (let i = 0; i + lag < points; i++) {
      const a = series[i]!;
      const b = series[i + lag]!;
      cross += a * b;
      left += a * a;
      right += b * b;
    }
    correlation[lag] = left > 0 && right > 0 ? cross / Math.sqrt(left * right) : 0;
  }
  const peaks: number[] = [];
  for (let lag = MIN_LAG; lag <= maxLag; lag++) {
    const value = correlation[lag]!;
    if (value >= MIN_CORRELATION && value >= correlation[lag - 1]! && value > correlation[lag + 1]!)
      peaks.push(lag);
  }
  if (peaks.length === 0) return null;
  const best = Math.max(...peaks.map((lag) => correlation[lag]!));
  const lag = peaks.find((candidate) => correlation[candidate]! >= best * 0.9)!;
  return lag * bucket;
}

/** The last index of the lowest value in [from, to) (-1 when empty). */
function lastMinimum(values: Float64Array, from: number, to: number): number {
  let at = -1;
  let lowest = Infinity;
  for (let i = Math.max(0, from); i < to; i++) {
    const value = values[i]!;
    if (value <= lowest) {
      lowest = value;
      at = i;
    }
  }
  return at;
}
