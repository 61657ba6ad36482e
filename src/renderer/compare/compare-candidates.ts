// What a device can be compared with, and how a choice is named ("tabId:device"): the Compare
// view's list and the Ranks page's "compare two ranks" use the same names.

import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import type { SnapshotTab } from '../state/app-state';
import type { CompareCandidate } from './compare-view';

/**
 * What this device can be compared with: the other devices of this snapshot, then every device
 * of the other open snapshots (ids "tabId:device", as the Ranks page names them too).
 */
export function compareCandidates(
  openSnapshots: readonly SnapshotTab[],
  tab: SnapshotTab,
  device: AnalyzedDevice,
): CompareCandidate[] {
  const candidates: CompareCandidate[] = [];
  for (const other of [tab, ...openSnapshots.filter((open) => open.id !== tab.id)])
    for (const candidate of other.snapshot.devices)
      if (candidate !== device)
        candidates.push({
          id: compareCandidateId(other.id, candidate.device),
          fileName: other.fileName,
          snapshot: other.snapshot,
          device: candidate,
        });
  return candidates;
}

/** A device of an open snapshot, as the Compare view's choice names it. */
export function compareCandidateId(tabId: string, device: number): string {
  return `${tabId}:${device}`;
}
