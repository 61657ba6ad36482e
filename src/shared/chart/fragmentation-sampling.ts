// Which moments the fragmentation chart samples, in the app and in the exported SVG: evenly over
// the whole trace plus the moments users look at (the peak, OOMs), and finer over the timeline's
// window once it is zoomed in far enough.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { sampleMoments } from '../state/fragmentation-series';

/** Samples over the whole trace, and over a zoomed window of it. */
const FULL_SAMPLES = 600;
const WINDOW_SAMPLES = 300;
/** A window this small a part of the trace gets its own, finer samples. */
const ZOOM_FRACTION = 0.5;

/** Moments sampled over the whole trace, the active peak and the OOMs among them. */
export function fullTraceMoments(
  device: Pick<AnalyzedDevice, 'traceLength' | 'figures' | 'ooms'>,
): Int32Array {
  return sampleMoments(device.traceLength, FULL_SAMPLES, [
    device.figures.active.peakEventIndex,
    ...device.ooms.map((o) => o.eventIndex),
  ]);
}

/**
 * Events [start, end) of the timeline's window when it shows a small enough part of the trace
 * to deserve its own samples; null otherwise.
 */
export function zoomedRange(
  device: Pick<AnalyzedDevice, 'traceLength'>,
  shown: { startEvent: number; endEvent: number } | null,
): [number, number] | null {
  if (shown === null || device.traceLength < 2) return null;
  const start = Math.max(0, Math.floor(shown.startEvent));
  const end = Math.min(device.traceLength, Math.ceil(shown.endEvent));
  if (end - start >= device.traceLength * ZOOM_FRACTION) return null;
  return [start, end];
}

/** Up to WINDOW_SAMPLES moments spread over [start, end), and the one before it. */
export function windowSamples(start: number, end: number): Int32Array {
  const span = Math.max(1, end - start);
  const count = Math.min(WINDOW_SAMPLES, span);
  const picked = new Set<number>();
  for (let i = 0; i < count; i++)
    picked.add(start + Math.round((i * (span - 1)) / Math.max(1, count - 1)));
  if (start > 0) picked.add(start - 1);
  return Int32Array.from([...picked].sort((a, b) => a - b));
}

/**
 * The moments an exported fragmentation chart samples: those the app draws for the same view
 * (the window's finer samples when it is zoomed in, else the whole trace's) and the marked moment.
 */
export function fragmentationExportMoments(
  device: Pick<AnalyzedDevice, 'traceLength' | 'figures' | 'ooms'>,
  shown: { startEvent: number; endEvent: number } | null,
  moment: number | null,
): Int32Array {
  const zoomed = zoomedRange(device, shown);
  const moments = zoomed === null ? fullTraceMoments(device) : windowSamples(zoomed[0], zoomed[1]);
  if (moment === null || moment < -1 || moment >= device.traceLength || moments.includes(moment))
    return moments;
  return Int32Array.from([...moments, moment].sort((a, b) => a - b));
}
