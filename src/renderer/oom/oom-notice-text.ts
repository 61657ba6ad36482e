// What the snapshot page's OOM notice says, and about which device: the selected one when it ran
// out of memory, else the first that did, so switching devices does not move the notice. Pure,
// so it is unit-tested.

import { formatBytes, formatExactBytes } from '@shared/format/units';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';

export function oomNoticeDevice(
  devices: readonly AnalyzedDevice[],
  selected: AnalyzedDevice | null,
): AnalyzedDevice | null {
  if (selected !== null && selected.ooms.length > 0) return selected;
  return devices.find((candidate) => candidate.ooms.length > 0) ?? null;
}

/** "at event 1,234: 2.0 GiB requested (and 2 more)."; '' without an OOM. */
export function describeOom(device: AnalyzedDevice): string {
  const first = device.ooms[0];
  if (first === undefined) return '';
  const more = device.ooms.length > 1 ? ` (and ${device.ooms.length - 1} more)` : '';
  return `at event ${formatExactBytes(first.eventIndex)}: ${formatBytes(first.requestedBytes)} requested${more}.`;
}
