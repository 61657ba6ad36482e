// What the plot and overlay layers show, built from the laid-out plot (timeline-plot.ts), the
// theme and the chart's state: marker lines, annotation spans in pixels, the selection (a band,
// or the lifetime of an allocation merged into "smaller allocations"), hover and moment.

import { resolveBandColors, type ColorBy } from '@shared/chart/band-colors';
import type { TimelineHit } from '@shared/chart/timeline-layout';
import { BAND_CLASHES } from '@shared/render/palette';
import type { MarkerKind } from '@shared/chart/timeline-markers';
import type { VerticalMarker } from '../canvas/vertical-marker';
import type { OverlayPicture, TimelinePicture } from './timeline-draw';
import type { PlotPoint } from './timeline-hit';
import { markerX, plotCoordinates, type TimelinePlot } from './timeline-plot';
import type { TimelineTheme } from './timeline-theme';

/** Band colours of a laid-out plot per colouring, kept while the plot lives (redraws, themes). */
const bandColorsOfPlot = new WeakMap<TimelinePlot, Map<ColorBy, Int16Array>>();

export function plotBandColors(plot: TimelinePlot, colorBy: ColorBy): Int16Array {
  let byColoring = bandColorsOfPlot.get(plot);
  if (byColoring === undefined) {
    byColoring = new Map();
    bandColorsOfPlot.set(plot, byColoring);
  }
  let colors = byColoring.get(colorBy);
  if (colors === undefined) {
    colors = resolveBandColors(
      plot.layout,
      plot.data.device.allocations.stackId,
      colorBy,
      BAND_CLASHES,
    );
    byColoring.set(colorBy, colors);
  }
  return colors;
}

export function plotPicture(
  plot: TimelinePlot,
  theme: TimelineTheme,
  colorBy: ColorBy,
  /** A search's matches (others dimmed), or null. */
  highlight: Uint8Array | null = null,
): TimelinePicture {
  const { data, layout, domain } = plot;
  const stackIds = data.device.allocations.stackId;
  const markerStyle: Record<MarkerKind, Omit<VerticalMarker, 'x'>> = {
    'peak-reserved': { color: theme.peakReserved, dash: [3, 3], width: 1 },
    'peak-active': { color: theme.peakActive, dash: [5, 3], width: 1 },
    oom: { color: theme.oom, dash: [], width: 2 },
  };
  const xOfSpan = (x: number): number => plot.xScale(x);
  return {
    layout,
    bandColors: plotBandColors(plot, colorBy),
    bandNoStack: Uint8Array.from(layout.bands, (band) => (stackIds[band.row]! < 0 ? 1 : 0)),
    bandDimmed:
      highlight === null
        ? null
        : Uint8Array.from(layout.bands, (band) => (highlight[band.row] === 1 ? 0 : 1)),
    gridBytes: plot.gridBytes,
    spans: data.spans
      .filter((span) => span.x1 >= domain.x0 && span.x0 <= domain.x1)
      .map((span) => ({
        name: span.name,
        x0: xOfSpan(span.x0),
        x1: xOfSpan(span.x1),
        depth: span.depth,
      })),
    markers: data.markers.map((marker) => ({
      ...markerStyle[marker.kind],
      kind: marker.kind,
      x: markerX(plot, marker.event),
    })),
  };
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
