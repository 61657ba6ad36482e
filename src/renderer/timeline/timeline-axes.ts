// The timeline's axes and marker labels, drawn by d3 into the SVG over the canvas: bytes on the
// left, time or event index along the bottom, and the peak/OOM labels above the plot, stacked in
// rows where they would overlap.

import { axisBottom, axisLeft, select, type NumberValue } from 'd3';
import { stackLabelRows, type MarkerKind } from '@shared/chart/timeline-markers';
import { xAxisTicks } from '@shared/chart/x-axis-ticks';
import { markerX, TIMELINE_MARGIN, type TimelinePlot } from './timeline-plot';
import type { TimelineTheme } from './timeline-theme';

/** Adds the axes' groups to an empty SVG. */
export function createTimelineAxes(svg: SVGSVGElement): void {
  const axes = select(svg);
  axes.append('g').attr('class', 'tl-axis tl-axis-y');
  axes.append('g').attr('class', 'tl-axis tl-axis-x');
  axes.append('g').attr('class', 'tl-marker-labels');
}

export function removeTimelineAxes(svg: SVGSVGElement): void {
  select(svg).selectAll('*').remove();
}

/** Draws both axes into an SVG the size of the stage, around the plot's window. */
export function renderTimelineAxes(
  svg: SVGSVGElement,
  stage: { width: number; height: number },
  plot: TimelinePlot,
): void {
  const { data, domain, size } = plot;
  const axes = select(svg);
  axes.attr('width', stage.width).attr('height', stage.height);
  const yAxis = axisLeft(plot.yScale)
    .tickValues(plot.gridBytes)
    .tickFormat((value: NumberValue) => plot.formatBytesTick(Number(value)))
    .tickSize(4)
    .tickPadding(6);
  axes
    .select<SVGGElement>('g.tl-axis-y')
    .attr('transform', `translate(${TIMELINE_MARGIN.left},${TIMELINE_MARGIN.top})`)
    .call(yAxis);

  const tickCount = Math.max(2, Math.floor(size.width / 110));
  const { values, format } = xAxisTicks(
    data.axis.mode,
    plot.xScale.ticks(tickCount),
    domain.x0,
    domain.x1,
    data.device.traceLength,
  );
  const xAxis = axisBottom(plot.xScale)
    .tickValues(values)
    .tickFormat((value: NumberValue) => format(Number(value)))
    .tickSize(4)
    .tickPadding(5);
  axes
    .select<SVGGElement>('g.tl-axis-x')
    .attr('transform', `translate(${TIMELINE_MARGIN.left},${TIMELINE_MARGIN.top + size.height})`)
    .call(xAxis);
}

/** The peak and OOM labels above the plot, in their markers' colours. */
export function renderMarkerLabels(
  svg: SVGSVGElement,
  plot: TimelinePlot,
  theme: TimelineTheme,
): void {
  const width = plot.size.width;
  const labels = plot.data.markers
    .map((marker) => ({ marker, x: markerX(plot, marker.event) }))
    .filter(({ x }) => x >= -1 && x <= width + 1);
  // Character widths of an 11px semibold UI font average under 7 px; labels need rough spacing,
  // but never to run into each other.
  // Centred on the marker where there is room, else pulled inside the plot's edges.
  const left = TIMELINE_MARGIN.left;
  const right = TIMELINE_MARGIN.left + width;
  const placed = labels.map(({ marker, x }) => {
    const labelWidth = marker.label.length * 7 + 8;
    const half = labelWidth / 2;
    return {
      x: Math.max(left + half - 6, Math.min(right - half + 6, left + x)),
      width: labelWidth,
    };
  });
  const rows = stackLabelRows(placed, 8, 3);
  // Labels with no room are left out (their lines stay; hovering one names it).
  const shown = labels.flatMap((label, i) =>
    rows[i]! < 0 ? [] : [{ ...label, x: placed[i]!.x, row: rows[i]! }],
  );
  const colors: Record<MarkerKind, string> = {
    'peak-active': theme.peakActive,
    'peak-reserved': theme.peakReserved,
    oom: theme.oom,
  };
  select(svg)
    .select('g.tl-marker-labels')
    .selectAll<SVGTextElement, (typeof shown)[number]>('text')
    .data(shown)
    .join('text')
    .attr('class', (d) => `tl-marker-label tl-marker-${d.marker.kind}`)
    .attr('fill', (d) => colors[d.marker.kind])
    .attr('text-anchor', 'middle')
    .attr('x', (d) => d.x)
    .attr('y', (d) => TIMELINE_MARGIN.top - 6 - d.row * 12)
    .text((d) => d.marker.label);
}
