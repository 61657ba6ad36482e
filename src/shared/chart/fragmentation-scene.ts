// The fragmentation chart's plot laid out once as a scene of marks (scene-marks.ts), for the
// page's canvas and the exported SVG alike: the grid of both panes, reserved − active per pixel
// column as an area with its edge, the largest free block and internal waste as steps through
// the sampled allocator states, the share of reserved memory in small holes (filled), the active
// peak and OOM lines, and the marked moment (exports only: the page draws it on its overlay). The
// plot box is (0, 0) .. (width, height); the caller places it. Scales compute as d3's linear
// scales do, so the page's axes (d3) sit on the same pixels.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import type { ByteTicks } from './byte-ticks';
import type { EventAxis } from './event-axis';
import { momentCoordinate } from './event-axis';
import {
  fragmentationByteScale,
  fragmentationMarkerEvents,
  SHARE_TICKS,
  splitPanes,
  type FragmentationPanes,
} from './fragmentation-layout';
import {
  cachedColumns,
  largestDrawnBytes,
  samplePoints,
  stepXs,
  type FragmentationSamples,
  type SamplePoint,
} from './fragmentation-points';
import type { SceneMark } from './scene-marks';
import { envelopePoints, timelineColumns } from './timeline-scene';
import { oomLineWidthIn } from './timeline-markers';

/** The palette entries (render/palette.ts `fragmentation`, and the timeline's) it is drawn in. */
export type FragmentationRole =
  | 'grid'
  | 'cached'
  | 'cachedFill'
  | 'largest'
  | 'waste'
  | 'small'
  | 'smallFill'
  | 'peak'
  | 'oom'
  | 'moment';

export interface FragmentationSceneInput {
  device: AnalyzedDevice;
  axis: EventAxis;
  samples: FragmentationSamples;
  /** The visible x domain (visibleDomain). */
  x0: number;
  x1: number;
  /** The plot's box in CSS pixels; device pixels per CSS pixel (one column each). */
  width: number;
  height: number;
  devicePixelRatio: number;
  /** The marked moment's line, or null (the page draws it on its overlay). */
  moment: number | null;
}

export interface FragmentationPlot {
  scene: { width: number; height: number; marks: SceneMark<FragmentationRole>[] };
  panes: FragmentationPanes;
  ticks: ByteTicks;
  topBytes: number;
  points: SamplePoint[];
  /** Plot x of an axis x, of the state after an event, y of bytes and of a share. */
  xOfX(x: number): number;
  xOfMoment(event: number): number;
  yBytes(bytes: number): number;
  yShare(share: number): number;
}

export function layoutFragmentation(input: FragmentationSceneInput): FragmentationPlot {
  const { device, axis, x0, x1, width, height } = input;
  const span = Math.max(x1 - x0, 1e-9);
  const xOfX = (x: number): number => ((x - x0) / span) * width;
  const xOfMoment = (event: number): number => xOfX(axis.toX(momentCoordinate(axis, event)));
  const cached = cachedColumns(
    device,
    axis,
    x0,
    x1,
    timelineColumns(width, input.devicePixelRatio),
  );
  const points = samplePoints(input.samples, xOfMoment, xOfX(x0), xOfX(x1));
  const panes = splitPanes(height);
  const { ticks, top } = fragmentationByteScale(
    largestDrawnBytes(cached, points),
    panes.bytesHeight,
  );
  const linear = (from: number, to: number) => (t: number) => from * (1 - t) + to * t;
  const bytesRange = linear(panes.bytesTop + panes.bytesHeight, panes.bytesTop);
  const shareRange = linear(panes.shareTop + panes.shareHeight, panes.shareTop);
  const yBytes = (bytes: number): number => bytesRange(bytes / top);
  const yShare = (share: number): number => shareRange(share);

  const marks: SceneMark<FragmentationRole>[] = [];
  const gridYs = [...ticks.values.map(yBytes), ...SHARE_TICKS.map(yShare)];
  const grid = new Float64Array(gridYs.length * 4);
  gridYs.forEach((y, i) => grid.set([0, Math.round(y) + 0.5, width, Math.round(y) + 0.5], i * 4));
  marks.push({ type: 'lines', role: 'grid', lineWidth: 1, dash: null, lines: grid, tag: null });

  // reserved − active: an area with its edge.
  const columnWidth = width / cached.length;
  const cachedYs = cached.map(yBytes);
  marks.push({
    type: 'polygon',
    role: 'cachedFill',
    points: envelopePoints(cachedYs, columnWidth, yBytes(0)),
    tag: 'cached',
  });
  marks.push({
    type: 'polyline',
    role: 'cached',
    lineWidth: 1.25,
    points: envelopePoints(cachedYs, columnWidth, null),
    tag: 'cached',
  });

  // The sampled curves: steps holding each sample until the next.
  if (points.length > 0) {
    const xs = stepXs(points, width, { moment: Math.max(0, axis.minEvent), x: xOfX(axis.minX) });
    const steps = (y: (point: SamplePoint) => number, baseY: number | null): Float64Array => {
      const out: number[] = baseY === null ? [] : [xs[0]!, baseY];
      points.forEach((point, i) => {
        out.push(xs[i]!, y(point), i + 1 < points.length ? xs[i + 1]! : width, y(point));
      });
      if (baseY !== null) out.push(width, baseY);
      return Float64Array.from(out);
    };
    const largest = (point: SamplePoint): number => yBytes(point.largest);
    const waste = (point: SamplePoint): number => yBytes(point.waste);
    const small = (point: SamplePoint): number => yShare(point.smallShare);
    const line = (
      role: FragmentationRole,
      pointsOf: Float64Array,
    ): SceneMark<FragmentationRole> => ({
      type: 'polyline',
      role,
      lineWidth: 1.5,
      points: pointsOf,
      tag: role,
    });
    marks.push(line('largest', steps(largest, null)));
    marks.push(line('waste', steps(waste, null)));
    marks.push({
      type: 'polygon',
      role: 'smallFill',
      points: steps(small, yShare(0)),
      tag: 'small',
    });
    marks.push(line('small', steps(small, null)));
  }

  // The active peak and the OOMs, as on the timeline, where they fall inside the plot.
  const markers = device.traceLength === 0 ? [] : fragmentationMarkerEvents(device);
  const markerXs = markers.map((marker) => xOfMoment(marker.event));
  const oomWidth = oomLineWidthIn(markers, markerXs, { left: 0, width });
  markers.forEach((marker, i) => {
    const x = markerXs[i]!;
    if (x < -1 || x > width + 1) return;
    const lineWidth = marker.kind === 'oom' ? oomWidth : 1;
    const crisp = Math.round(x) + (lineWidth % 2 === 1 ? 0.5 : 0);
    marks.push({
      type: 'lines',
      role: marker.kind === 'oom' ? 'oom' : 'peak',
      lineWidth,
      dash: marker.kind === 'oom' ? null : [5, 3],
      lines: Float64Array.of(crisp, 0, crisp, height),
      tag: marker.kind,
    });
  });
  if (input.moment !== null) {
    const x = Math.round(xOfMoment(input.moment)) + 0.5;
    marks.push({
      type: 'lines',
      role: 'moment',
      lineWidth: 1,
      dash: null,
      lines: Float64Array.of(x, 0, x, height),
      tag: 'moment',
    });
  }
  return {
    scene: { width, height, marks },
    panes,
    ticks,
    topBytes: top,
    points,
    xOfX,
    xOfMoment,
    yBytes,
    yShare,
  };
}
