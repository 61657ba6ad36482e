// What the fragmentation chart draws, in the app and in the exported SVG, from the device's
// curves and the sampled allocator states: reserved − active per pixel column (exact, after every
// event), and the sampled figures as points placed on the x axis.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import type { FragmentationSeries } from '../state/fragmentation-series';
import type { MemoryFigures } from '../state/memory-figures';
import { eventWindow, type EventAxis } from './event-axis';

export interface SamplePoint {
  moment: number;
  /** CSS pixels of the plot. */
  x: number;
  largest: number;
  waste: number;
  /** Part of reserved memory in small holes, 0 .. 1. */
  smallShare: number;
}

/** The samples a chart draws from. */
export interface FragmentationSamples {
  /** Figures at sampled moments over the whole trace (null while computing). */
  series: FragmentationSeries | null;
  /** Finer samples of the visible window, when zoomed in. */
  windowSeries: FragmentationSeries | null;
  /** The moment's own figures, drawn as a point among the samples. */
  moment: number;
  momentFigures: MemoryFigures | null;
}

/** reserved − active after `event` (the baselines before the first entry). */
export function cachedAt(device: AnalyzedDevice, event: number): number {
  if (event < 0 || device.traceLength === 0) {
    return Math.max(0, device.figures.reserved.baselineBytes - device.figures.active.baselineBytes);
  }
  const at = Math.min(event, device.traceLength - 1);
  return Math.max(0, device.reservedBytes[at]! - device.activeBytes[at]!);
}

/** reserved − active after every event of [x0, x1], as the maximum over each pixel column. */
export function cachedColumns(
  device: AnalyzedDevice,
  axis: EventAxis,
  x0: number,
  x1: number,
  columns: number,
): Float64Array {
  const cached = new Float64Array(columns);
  if (device.traceLength > 0) {
    const visible = eventWindow(axis, x0, x1, columns);
    const starts = visible.columnStartEvents;
    let carried = cachedAt(device, visible.startEvent);
    for (let column = 0; column < columns; column++) {
      let max = carried;
      for (let event = starts[column]!; event < starts[column + 1]!; event++) {
        const value = cachedAt(device, event);
        if (value > max) max = value;
        carried = value;
      }
      cached[column] = max;
    }
  } else {
    cached.fill(cachedAt(device, -1));
  }
  return cached;
}

/**
 * The samples to draw between plot x xLeft and xRight: the window's finer series when there is
 * one (else the whole trace's) and the moment's own figures, in moment order, one per moment,
 * with one point kept either side of the window so lines reach its edges.
 */
export function samplePoints(
  data: FragmentationSamples,
  xOfMoment: (moment: number) => number,
  xLeft: number,
  xRight: number,
): SamplePoint[] {
  const series = data.windowSeries ?? data.series;
  const points: SamplePoint[] = [];
  const add = (moment: number, figures: Omit<SamplePoint, 'x' | 'moment'>): void => {
    points.push({ moment, x: xOfMoment(moment), ...figures });
  };
  if (series !== null) {
    for (let i = 0; i < series.moments.length; i++) {
      const reserved = series.reservedBytes[i]!;
      add(series.moments[i]!, {
        largest: series.largestFreeBytes[i]!,
        waste: series.internalWasteBytes[i]!,
        smallShare: reserved > 0 ? series.smallFreeBytes[i]! / reserved : 0,
      });
    }
  }
  const figures = data.momentFigures;
  if (figures !== null) {
    add(data.moment, {
      largest: figures.largestFreeBytes,
      waste: figures.internalWasteBytes,
      smallShare: figures.reservedBytes > 0 ? figures.smallFreeBytes / figures.reservedBytes : 0,
    });
  }
  points.sort((a, b) => a.moment - b.moment);
  const unique = points.filter((point, i) => i === 0 || point.moment !== points[i - 1]!.moment);
  let first = 0;
  while (first + 1 < unique.length && unique[first + 1]!.x <= xLeft) first++;
  let end = unique.length;
  while (end - 1 > first && unique[end - 2]!.x >= xRight) end--;
  return unique.slice(first, end);
}

/** The largest byte figure drawn: what the byte pane's scale must reach. */
export function largestDrawnBytes(cached: Float64Array, points: readonly SamplePoint[]): number {
  let maxBytes = 0;
  for (const value of cached) maxBytes = Math.max(maxBytes, value);
  for (const point of points) {
    maxBytes = Math.max(maxBytes, point.largest, point.waste);
  }
  return maxBytes;
}

/**
 * x of each point for a step curve that holds each sample until the next, kept just outside
 * [0, width]; the trace's first moment holds from `traceStartX` (the axis's left end).
 */
export function stepXs(
  points: readonly SamplePoint[],
  width: number,
  traceStart: { moment: number; x: number },
): number[] {
  const xs = points.map((point) => Math.max(-2, Math.min(width + 2, point.x)));
  if (points.length > 0 && points[0]!.moment <= traceStart.moment)
    xs[0] = Math.min(xs[0]!, traceStart.x);
  return xs;
}
