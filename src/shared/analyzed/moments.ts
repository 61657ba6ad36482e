// Moments of a device ("the state after event e", -1 = before the first entry) and the one rule
// for where a view, an export or a CLI command looks when nobody chose: the first OOM by event
// index, else the active peak. The device rule is the same: the first device with an OOM, else
// the one with the largest active peak.

import { HOST_DEVICE } from '../snapshot/model';
import type { OomEvent } from '../analysis/snapshot-analysis';
import type { AnalyzedDevice } from './analyzed-snapshot';
import type { DeviceFigures } from './device-figures';

export interface MomentRange {
  first: number;
  last: number;
}

/** Moments a device has: -1 (before the first entry) through its last event. */
export function momentRange(device: Pick<AnalyzedDevice, 'traceLength'>): MomentRange {
  return { first: -1, last: Math.max(-1, device.traceLength - 1) };
}

export function clampMoment(device: Pick<AnalyzedDevice, 'traceLength'>, moment: number): number {
  const { first, last } = momentRange(device);
  return Math.max(first, Math.min(last, Math.trunc(moment)));
}

/** The moment after which the device's active bytes peak, within its moments. */
export function activePeakMoment(device: Pick<AnalyzedDevice, 'traceLength' | 'figures'>): number {
  return clampMoment(device, device.figures.active.peakEventIndex);
}

/** The default moment: the device's first OOM by event index, else its active peak. */
export function defaultMoment(
  device: Pick<AnalyzedDevice, 'traceLength' | 'ooms' | 'figures'>,
): number {
  return clampMoment(device, firstOomEvent(device) ?? device.figures.active.peakEventIndex);
}

/** The event of the device's first OOM (by event index), or null when it has none. */
export function firstOomEvent(device: { readonly ooms: readonly OomEvent[] }): number | null {
  let first: number | null = null;
  for (const oom of device.ooms) {
    if (first === null || oom.eventIndex < first) first = oom.eventIndex;
  }
  return first;
}

/**
 * The default device: the first with an OOM, else the largest active peak (the first of equals).
 * CUDA devices first: pinned host memory (HOST_DEVICE) is the default only when it is all there is.
 */
export function defaultDeviceIndex(
  devices: readonly {
    readonly ooms: readonly OomEvent[];
    readonly figures: Pick<DeviceFigures, 'device' | 'active'>;
  }[],
): number {
  const candidates = devices
    .map((device, index) => ({ device, index }))
    .filter(({ device }) => device.figures.device !== HOST_DEVICE);
  if (candidates.length === 0) return 0;
  const withOom = candidates.find(({ device }) => device.ooms.length > 0);
  if (withOom !== undefined) return withOom.index;
  let best = candidates[0]!;
  for (const candidate of candidates) {
    if (candidate.device.figures.active.peakBytes > best.device.figures.active.peakBytes) {
      best = candidate;
    }
  }
  return best.index;
}
