// The line beside the fragmentation chart's legend: sampling progress, the hovered moment, or how
// many moments are sampled. Pure, so it is unit-tested.

import { formatBytes, formatExactBytes } from '@shared/format/units';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { describeEvent } from '../allocations/allocation-facts';
import { cachedAt } from '@shared/chart/fragmentation-points';

export interface FragmentationStatus {
  /** Whether the whole trace's samples are still being computed. */
  computing: boolean;
  /** Moments done / all, while computing. */
  done: number;
  total: number;
  /** The event under the pointer, if any. */
  hoverEvent: number | null;
  sampleCount: number;
  /** Finer samples of the zoomed window; null when there are none. */
  windowSampleCount: number | null;
}

export function fragmentationStatusText(
  device: AnalyzedDevice,
  status: FragmentationStatus,
): string {
  if (status.computing) {
    return status.total > 0
      ? `Sampling the allocator state… ${Math.round((status.done / status.total) * 100)}%`
      : 'Sampling the allocator state…';
  }
  if (status.hoverEvent !== null) return hoverText(device, status.hoverEvent);
  const inView =
    status.windowSampleCount !== null
      ? ` (+${formatExactBytes(status.windowSampleCount)} in view)`
      : '';
  return `${formatExactBytes(status.sampleCount)} sampled ${
    status.sampleCount === 1 ? 'moment' : 'moments'
  }${inView} · click to select a moment`;
}

/** "event 1,234 · 2.31 s · reserved − active 1.2 GiB". */
export function hoverText(device: AnalyzedDevice, event: number): string {
  return `${describeEvent(device, event)} · reserved − active ${formatBytes(cachedAt(device, event))}`;
}
