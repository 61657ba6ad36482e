// The events the timeline marks with a vertical line, in the app and in exported SVG: the active
// peak, the reserved peak and every OOM. Found once per device from the summary figures and the
// curves.

import { formatBytes } from '../units';
import type { DeviceView } from '../view/snapshot-view';

export type MarkerKind = 'peak-active' | 'peak-reserved' | 'oom';

export interface EventMarker {
  kind: MarkerKind;
  /** The event after which the marked state holds; -1 when it is the state before the trace. */
  event: number;
  label: string;
}

/** First event at which the reserved curve reaches its maximum; -1 when the baseline is higher. */
export function reservedPeakEvent(device: DeviceView): number {
  const reserved = device.reservedBytes;
  let best = -1;
  let bestBytes = device.summary.reserved_bytes.baseline;
  for (let event = 0; event < reserved.length; event++) {
    if (reserved[event]! > bestBytes) {
      bestBytes = reserved[event]!;
      best = event;
    }
  }
  return best;
}

export function eventMarkers(device: DeviceView): EventMarker[] {
  const markers: EventMarker[] = [];
  const { summary } = device;
  markers.push({
    kind: 'peak-reserved',
    event: reservedPeakEvent(device),
    label: `reserved peak ${formatBytes(summary.reserved_bytes.peak)}`,
  });
  markers.push({
    kind: 'peak-active',
    event: summary.active_bytes.peak_event_index,
    label: `active peak ${formatBytes(summary.active_bytes.peak)}`,
  });
  for (const oom of summary.oom) {
    markers.push({
      kind: 'oom',
      event: oom.event_index,
      label: `OOM: ${formatBytes(oom.requested_bytes)} requested`,
    });
  }
  return markers;
}

/** Rows (0, 1, …) for labels centred at `x` so that labels in one row do not overlap. */
export function stackLabelRows(
  labels: readonly { x: number; width: number }[],
  gap = 8,
  maxRows = 2,
): number[] {
  const rowEnds: number[] = [];
  const order = labels.map((label, index) => ({ ...label, index })).sort((a, b) => a.x - b.x);
  const rows = new Array<number>(labels.length).fill(0);
  for (const label of order) {
    const left = label.x - label.width / 2;
    let row = rowEnds.findIndex((end) => end + gap <= left);
    if (row < 0) row = rowEnds.length < maxRows ? rowEnds.length : maxRows - 1;
    rowEnds[row] = label.x + label.width / 2;
    rows[label.index] = row;
  }
  return rows;
}
