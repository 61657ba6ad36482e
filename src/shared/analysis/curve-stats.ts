// Baseline, peak and clamping of one memory curve, in a single pass and without materializing
// the curve. The curve is anchored on the final state (FORMAT.md): baseline = final - Σ deltas.

import type { DeviceTrace } from '../snapshot/model';

export interface CurveStats {
  finalBytes: number;
  baselineBytes: number;
  peakBytes: number;
  /** First entry after which the curve is at its peak; -1 when the baseline is the peak. */
  peakEventIndex: number;
  /** How far the curve was raised because it went below zero (inconsistent file); 0 normally. */
  clampedByBytes: number;
}

export function computeCurveStats(
  trace: DeviceTrace,
  signs: Int8Array,
  finalBytes: number,
): CurveStats {
  const { action, sizeBytes, length } = trace;
  let prefix = 0;
  let minPrefix = 0;
  let maxPrefix = 0;
  let maxIndex = -1;
  for (let i = 0; i < length; i++) {
    const sign = signs[action[i]!]!;
    if (sign === 0) continue;
    prefix += sign * sizeBytes[i]!;
    if (prefix > maxPrefix) {
      maxPrefix = prefix;
      maxIndex = i;
    } else if (prefix < minPrefix) {
      minPrefix = prefix;
    }
  }
  let baselineBytes = finalBytes - prefix;
  const lowest = baselineBytes + minPrefix;
  const clampedByBytes = lowest < 0 ? -lowest : 0;
  baselineBytes += clampedByBytes;
  return {
    finalBytes,
    baselineBytes,
    peakBytes: baselineBytes + maxPrefix,
    peakEventIndex: maxIndex,
    clampedByBytes,
  };
}

/** The curve's value after every entry (for drawing); clamped like computeCurveStats. */
export function materializeCurve(
  trace: DeviceTrace,
  signs: Int8Array,
  stats: CurveStats,
): Float64Array {
  const values = new Float64Array(trace.length);
  let value = stats.baselineBytes;
  for (let i = 0; i < trace.length; i++) {
    value += signs[trace.action[i]!]! * trace.sizeBytes[i]!;
    values[i] = value;
  }
  return values;
}
