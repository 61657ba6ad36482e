// The bytes held by the allocations a search matches, as a line over the timeline: per pixel
// column, the most they held in the events the column shows (as the active curve's envelope
// does). Columns of many events are sampled at most SAMPLES_PER_COLUMN times: a 4M-event trace at
// full zoom costs a few hundred thousand reads, once per window (the chart caches the points).

import type { MatchedCurve } from '@shared/holders/search';
import { eventAtPixel, plotCoordinates, type TimelinePlot } from './timeline-plot';

const SAMPLES_PER_COLUMN = 256;

/** What a search (or a flame graph node) shows on the timeline: its curve, and which bands stay lit. */
export interface TimelineSearch {
  curve: MatchedCurve;
  /** Per allocation row: 1 when it matches (others are drawn dimmed). */
  mask: Uint8Array;
}

/** Points (x, y) in CSS pixels, one per column, left to right. */
export function searchCurvePoints(plot: TimelinePlot, curve: MatchedCurve): Float64Array {
  const width = Math.max(1, Math.round(plot.size.width));
  const { yOfBytes } = plotCoordinates(plot);
  const points = new Float64Array(width * 2);
  const length = curve.bytes.length;
  for (let x = 0; x < width; x++) {
    const first = eventAtPixel(plot, x);
    const last = Math.max(first, eventAtPixel(plot, x + 1));
    const step = Math.max(1, Math.floor((last - first + 1) / SAMPLES_PER_COLUMN));
    let most = first < 0 || length === 0 ? curve.baselineBytes : 0;
    for (let event = Math.max(0, first); event <= last && event < length; event += step) {
      const bytes = curve.bytes[event]!;
      if (bytes > most) most = bytes;
    }
    points[2 * x] = x + 0.5;
    points[2 * x + 1] = yOfBytes(most);
  }
  return points;
}
