// The figures the page's first screen reads, built in the decode worker after the analysis and
// posted with the snapshot (DerivedCache's postable values), so that the page's thread only
// draws. Built on the page's thread, each was one task of 0.1-0.5 s on a 1 GB file (OOM
// explanations 0.48 s, phases 0.23 s, alive checkpoints 0.18 s, timeline index 0.16 s, steps
// 0.08 s, the time axis's relative times 0.04-0.07 s), during which the page answered nothing;
// here they run where the page waits anyway.
// Only the device the page opens on: the others build theirs on first use, as before.

import {
  adoptAnalyzedSnapshot,
  type AnalyzedSnapshot,
  type AnalyzedSnapshotData,
} from '@shared/analyzed/analyzed-snapshot';
import { aliveCheckpointsOf } from '@shared/analyzed/alive-checkpoints';
import { defaultDeviceIndex } from '@shared/analyzed/moments';
import { timelineIndexOf } from '@shared/analyzed/timeline-index';
import { reservedPeakEvent } from '@shared/chart/timeline-markers';
import { deviceExplanationsOf } from '@shared/oom/oom-explainer';
import { phasesOf } from '@shared/steps/phases';
import { stepsOf } from '@shared/steps/find-steps';
import { recordsSegments } from '@shared/analyzed/records-segments';
import { relativeTimes } from '@shared/analyzed/device-times';

/**
 * Builds the first screen's figures of `data`'s default device and adds them to it
 * (`derivedPosted`). A figure that fails is left out (the page builds it on use, and shows its
 * error in that view), so the snapshot itself is never lost to it.
 */
export function addFirstScreenFigures(data: AnalyzedSnapshotData): void {
  if (data.devices.length === 0) return;
  const deviceIndex = defaultDeviceIndex(data.devices);
  // Adopting shares the typed arrays (no copy): the figures are built on this thread's copy.
  const snapshot = adoptAnalyzedSnapshot(data);
  const device = snapshot.devices[deviceIndex]!;
  for (const build of firstScreenBuilds(snapshot, deviceIndex)) {
    try {
      build();
    } catch {
      // Left to the page: see above.
    }
  }
  data.devices[deviceIndex]!.derivedPosted = device.derived.toPost();
  // The time axis's times since the first event (65 ms on a 1 GB file's device, in the page's
  // first render otherwise).
  try {
    const times = relativeTimes(device.timeUs, device.traceLength);
    if (times !== null) data.devices[deviceIndex]!.relativeTimesPosted = times;
  } catch {
    // Left to the page, as above.
  }
}

/** What the page builds for its first screen, in the order it asks. */
function firstScreenBuilds(snapshot: AnalyzedSnapshot, deviceIndex: number): (() => unknown)[] {
  const device = snapshot.devices[deviceIndex]!;
  const builds: (() => unknown)[] = [
    () => stepsOf(snapshot, device),
    // The timeline's first picture: its index and the largest bands.
    () => timelineIndexOf(device).rowsByArea(),
    () => reservedPeakEvent(device),
  ];
  if (recordsSegments(snapshot)) {
    // The allocator state at any moment starts from these: the page builds it after its first paint.
    builds.push(() => aliveCheckpointsOf(device));
    // The lower view after an OOM (lower-views.ts): why it failed.
    if (device.ooms.length > 0) builds.push(() => deviceExplanationsOf(snapshot, deviceIndex));
  }
  // The timeline's phase bands: drawn with its first picture when they are here (use-phases.ts).
  builds.push(() => phasesOf(snapshot, device));
  return builds;
}
