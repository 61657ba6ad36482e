// The events the timeline marks with a vertical line, in the app and in exported SVG: the active
// peak, the reserved peak and every OOM. Found once per device from the summary figures and the
// curves.

import { formatBytes } from '../format/units';
import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { postableDerivedKey } from '../analyzed/derived-cache';

export type MarkerKind = 'peak-active' | 'peak-reserved' | 'oom';

export interface EventMarker {
  kind: MarkerKind;
  /** The event after which the marked state holds; -1 when it is the state before the trace. */
  event: number;
  label: string;
}

const RESERVED_PEAK_EVENT = postableDerivedKey<number>('reserved peak event');

/** First event at which the reserved curve reaches its maximum; -1 when the baseline is higher. */
export function reservedPeakEvent(device: AnalyzedDevice): number {
  // A pass over the whole curve, asked for on every render that rebuilds the markers.
  return device.derived.get(RESERVED_PEAK_EVENT, () => findReservedPeakEvent(device));
}

function findReservedPeakEvent(device: AnalyzedDevice): number {
  const reserved = device.reservedBytes;
  let best = -1;
  let bestBytes = device.figures.reserved.baselineBytes;
  for (let event = 0; event < reserved.length; event++) {
    if (reserved[event]! > bestBytes) {
      bestBytes = reserved[event]!;
      best = event;
    }
  }
  return best;
}

export function eventMarkers(device: AnalyzedDevice): EventMarker[] {
  const markers: EventMarker[] = [];
  const { figures } = device;
  // A CPU profiler trace records no reserved bytes: no peak of a curve that is not drawn.
  if (figures.reservedRecorded)
    markers.push({
      kind: 'peak-reserved',
      event: reservedPeakEvent(device),
      label: `reserved peak ${formatBytes(figures.reserved.peakBytes)}`,
    });
  markers.push({
    kind: 'peak-active',
    event: figures.active.peakEventIndex,
    label: `active peak ${formatBytes(figures.active.peakBytes)}`,
  });
  for (const oom of figures.ooms) {
    markers.push({
      kind: 'oom',
      event: oom.eventIndex,
      label: `OOM: ${formatBytes(oom.requestedBytes)} requested`,
    });
  }
  return markers;
}

/**
 * The width of the OOM lines: 2 px, or 1 px where they come more often than one per 8 px of plot
 * (a job that catches its OOMs and retries records hundreds; wide lines would hide the curves).
 */
export function oomLineWidth(oomsShown: number, plotWidth: number): 1 | 2 {
  return oomsShown * 8 > plotWidth ? 1 : 2;
}

/** oomLineWidth of the OOM markers drawn inside the plot (`xs`: each marker's x, in order). */
export function oomLineWidthIn(
  markers: readonly Pick<EventMarker, 'kind'>[],
  xs: readonly number[],
  plot: { left: number; width: number },
): 1 | 2 {
  let shown = 0;
  markers.forEach((marker, i) => {
    const x = xs[i]!;
    if (marker.kind === 'oom' && x >= plot.left && x <= plot.left + plot.width) shown++;
  });
  return oomLineWidth(shown, plot.width);
}

/**
 * Rows (0, 1, …) for labels centred at `x` so that labels in one row do not overlap, taken in the
 * order given (the peaks come first, so they always get a place); a label with no room in any of
 * the `maxRows` rows gets -1 and is not drawn (its line still is: hundreds of OOMs must not write
 * their labels over each other).
 */
export function stackLabelRows(
  labels: readonly { x: number; width: number }[],
  gap = 8,
  maxRows = 2,
): number[] {
  const taken: { left: number; right: number }[][] = Array.from({ length: maxRows }, () => []);
  return labels.map((label) => {
    const left = label.x - label.width / 2;
    const right = label.x + label.width / 2;
    const row = taken.findIndex((spans) =>
      spans.every((span) => right + gap <= span.left || left >= span.right + gap),
    );
    if (row >= 0) taken[row]!.push({ left, right });
    return row;
  });
}
