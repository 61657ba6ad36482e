// What the plot and overlay layers show, built from the laid-out plot (timeline-plot.ts) and the
// chart's state: the plot's scene (@shared/chart/timeline-scene.ts, the SVG export's too), and the
// overlay's selection (a band, or the lifetime of an allocation merged into "smaller
// allocations"), hover and moment.

import {
  deviceStackColoring,
  resolveBandColors,
  type BandColoring,
} from '@shared/chart/band-colors';
import type { TimelineHit } from '@shared/chart/timeline-layout';
import { BAND_CLASHES } from '@shared/render/palette';
import {
  timelineScene,
  type TimelineScene,
  type TimelineSceneInput,
  type TimelineSceneScratch,
} from '@shared/chart/timeline-scene';
import type { OverlayPicture } from './timeline-draw';
import type { PlotPoint } from './timeline-hit';
import { markerX, plotCoordinates, type TimelinePlot } from './timeline-plot';

export function plotBandColors(plot: TimelinePlot, coloring: BandColoring): Int16Array {
  let colors = plot.bandColors.get(coloring);
  if (colors === undefined) {
    colors = resolveBandColors(plot.layout, coloring, BAND_CLASHES);
    plot.bandColors.set(coloring, colors);
  }
  return colors;
}

export interface PlotSceneOptions {
  /** How the bands are coloured; null: by stack. */
  coloring: BandColoring | null;
  /** A search's matches (others dimmed), or null. */
  highlight: Uint8Array | null;
  /** The training steps (the ruler), first and last event of each. */
  steps: readonly { startEvent: number; endEvent: number }[];
  /** The phases (bands above the ruler). */
  phases: TimelineSceneInput['phases'];
  /** The chart's buffers, reused frame to frame (timeline-scene.ts). */
  scratch?: TimelineSceneScratch;
}

/** The plot's scene: what the canvas draws (and the SVG export, from the same inputs). */
export function plotScene(plot: TimelinePlot, options: PlotSceneOptions): TimelineScene {
  const { data, layout, domain } = plot;
  const stackIds = data.device.allocations.stackId;
  const coordinates = plotCoordinates(plot);
  const highlight = options.highlight;
  return timelineScene({
    layout,
    width: plot.size.width,
    height: plot.size.height,
    devicePixelRatio: plot.size.devicePixelRatio,
    xOfEvent: coordinates.xOfEvent,
    xOfMoment: (event) => markerX(plot, event),
    yOfBytes: coordinates.yOfBytes,
    gridBytes: plot.gridBytes,
    spans: data.spans
      .filter((span) => span.x1 >= domain.x0 && span.x0 <= domain.x1)
      .map((span) => ({
        name: span.name,
        x0: plot.xScale(span.x0),
        x1: plot.xScale(span.x1),
        depth: span.depth,
      })),
    bandColors: plotBandColors(plot, options.coloring ?? deviceStackColoring(data.device)),
    bandNoStack: Uint8Array.from(layout.bands, (band) => (stackIds[band.row]! < 0 ? 1 : 0)),
    bandDimmed:
      highlight === null
        ? null
        : Uint8Array.from(layout.bands, (band) => (highlight[band.row] === 1 ? 0 : 1)),
    steps: options.steps,
    phases: options.phases,
    markers: data.markers,
    moment: null,
    ...(options.scratch === undefined ? {} : { scratch: options.scratch }),
  });
}

export interface OverlayState {
  hoverHit: TimelineHit | null;
  /** Row of the allocation table, or null. */
  selectedRow: number | null;
  moment: number | null;
  /** The pointer, when the crosshair shows. */
  pointer: PlotPoint | null;
  /** The search curve's points for this plot (search-curve.ts), or null. */
  searchPoints: Float64Array | null;
}

export function overlayPicture(plot: TimelinePlot, state: OverlayState): OverlayPicture {
  const { data, bandByRow } = plot;
  const { hoverHit, selectedRow, moment, pointer } = state;
  const hoverRow = hoverHit?.kind === 'allocation' ? hoverHit.row : null;
  const selectedBand = selectedRow === null ? null : (bandByRow.get(selectedRow) ?? null);
  let selectedSpan: { x0: number; x1: number } | null = null;
  const table = data.device.allocations;
  if (selectedRow !== null && selectedBand === null && selectedRow < table.count) {
    const { axis } = data;
    const coordinates = plotCoordinates(plot);
    const start = Math.max(axis.minEvent, table.startEvent[selectedRow]!);
    const end = Math.min(axis.maxEvent, table.endEvent[selectedRow]!);
    selectedSpan = { x0: coordinates.xOfEvent(start), x1: coordinates.xOfEvent(end) };
  }
  return {
    crosshairX: pointer === null ? null : pointer.x,
    hoverBand: hoverRow === null ? null : (bandByRow.get(hoverRow) ?? null),
    selectedBand,
    selectedSpan,
    momentX: moment === null ? null : markerX(plot, moment),
    searchPoints: state.searchPoints,
  };
}
