// Baseline, peak and clamping of one memory curve, in a single pass and without materializing
// the curve. The curve is anchored on the final state (docs/snapshot-format.md): baseline = final - Σ deltas.

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
  return curveStatsOf(finalBytes, prefix, minPrefix, maxPrefix, maxIndex);
}

export interface DeviceCurveStats {
  active: CurveStats;
  reserved: CurveStats;
  /** Entry count by action code. */
  actionCounts: Uint32Array;
}

/**
 * computeCurveStats of the active and the reserved curve, and the entry count by action, in one
 * pass over the trace (the figures are the same as from separate passes).
 */
export function computeDeviceCurveStats(
  trace: DeviceTrace,
  activeSigns: Int8Array,
  finalActiveBytes: number,
  reservedSigns: Int8Array,
  finalReservedBytes: number,
): DeviceCurveStats {
  const { action, sizeBytes, length } = trace;
  const actionCounts = new Uint32Array(256);
  let active = 0;
  let activeMin = 0;
  let activeMax = 0;
  let activeMaxIndex = -1;
  let reserved = 0;
  let reservedMin = 0;
  let reservedMax = 0;
  let reservedMaxIndex = -1;
  for (let i = 0; i < length; i++) {
    const code = action[i]!;
    actionCounts[code]!++;
    const activeSign = activeSigns[code]!;
    if (activeSign !== 0) {
      active += activeSign * sizeBytes[i]!;
      if (active > activeMax) {
        activeMax = active;
        activeMaxIndex = i;
      } else if (active < activeMin) {
        activeMin = active;
      }
    }
    const reservedSign = reservedSigns[code]!;
    if (reservedSign !== 0) {
      reserved += reservedSign * sizeBytes[i]!;
      if (reserved > reservedMax) {
        reservedMax = reserved;
        reservedMaxIndex = i;
      } else if (reserved < reservedMin) {
        reservedMin = reserved;
      }
    }
  }
  return {
    active: curveStatsOf(finalActiveBytes, active, activeMin, activeMax, activeMaxIndex),
    reserved: curveStatsOf(
      finalReservedBytes,
      reserved,
      reservedMin,
      reservedMax,
      reservedMaxIndex,
    ),
    actionCounts,
  };
}

/** The figures of a curve from its final value and the sum, lowest and highest of its deltas. */
function curveStatsOf(
  finalBytes: number,
  prefix: number,
  minPrefix: number,
  maxPrefix: number,
  maxIndex: number,
): CurveStats {
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
  const { action, sizeBytes, length } = trace;
  const values = new Float64Array(length);
  let value = stats.baselineBytes;
  for (let i = 0; i < length; i++) {
    value += signs[action[i]!]! * sizeBytes[i]!;
    values[i] = atLeastZero(value);
  }
  return values;
}

/**
 * Both curves of a device after every entry, in one pass over the trace (each curve as
 * materializeCurve gives it, value for value).
 */
export function materializeCurves(
  trace: DeviceTrace,
  activeSigns: Int8Array,
  activeStats: CurveStats,
  reservedSigns: Int8Array,
  reservedStats: CurveStats,
): { active: Float64Array; reserved: Float64Array } {
  const { action, sizeBytes, length } = trace;
  const active = new Float64Array(length);
  const reserved = new Float64Array(length);
  let activeValue = activeStats.baselineBytes;
  let reservedValue = reservedStats.baselineBytes;
  for (let i = 0; i < length; i++) {
    const code = action[i]!;
    const size = sizeBytes[i]!;
    activeValue += activeSigns[code]! * size;
    reservedValue += reservedSigns[code]! * size;
    active[i] = atLeastZero(activeValue);
    reserved[i] = atLeastZero(reservedValue);
  }
  return { active, reserved };
}

/**
 * The baseline is raised so that baseline + every prefix sum is >= 0, but a curve summed from
 * the baseline rounds differently from prefix sums summed from 0 once the sums pass 2^53 (a
 * hostile file: +a +a +2 -a -a -2 with a = 2^53 - 1 ends at -1). Such a value is drawn as 0,
 * never as negative memory; where every sum is an exact integer (every real file) it is the
 * value itself.
 */
function atLeastZero(value: number): number {
  return value > 0 ? value : 0;
}
