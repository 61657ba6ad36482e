// The fragmentation chart's axes, drawn by d3 into an SVG over the canvas: bytes and the share of
// reserved memory on the left, the timeline's x axis along the bottom.

import { axisBottom, axisLeft, select, type NumberValue, type ScaleLinear } from 'd3';
import { SHARE_TICKS } from '@shared/chart/fragmentation-layout';
import type { XAxisTicks } from '@shared/chart/x-axis-ticks';

export interface FragmentationAxesScales {
  x: ScaleLinear<number, number>;
  yBytes: ScaleLinear<number, number>;
  yShare: ScaleLinear<number, number>;
}

export interface FragmentationAxesTicks {
  bytes: { values: number[]; format: (bytes: number) => string };
  x: XAxisTicks;
}

/** Adds the axes' groups to an empty SVG. */
export function createFragmentationAxes(svg: SVGSVGElement): void {
  const axes = select(svg);
  axes.append('g').attr('class', 'tl-axis frag-axis-bytes');
  axes.append('g').attr('class', 'tl-axis frag-axis-share');
  axes.append('g').attr('class', 'tl-axis frag-axis-x');
}

export function removeFragmentationAxes(svg: SVGSVGElement): void {
  select(svg).selectAll('*').remove();
}

/**
 * Draws the axes into an SVG the size of the stage; `margin` places the plot in it and
 * `plotHeight` puts the x axis under the plot.
 */
export function renderFragmentationAxes(
  svg: SVGSVGElement,
  stage: { width: number; height: number },
  margin: { left: number; top: number },
  plotHeight: number,
  scales: FragmentationAxesScales,
  ticks: FragmentationAxesTicks,
): void {
  const axes = select(svg).attr('width', stage.width).attr('height', stage.height);
  axes
    .select<SVGGElement>('g.frag-axis-bytes')
    .attr('transform', `translate(${margin.left},${margin.top})`)
    .call(
      axisLeft(scales.yBytes)
        .tickValues(ticks.bytes.values)
        .tickFormat((value: NumberValue) => ticks.bytes.format(Number(value)))
        .tickSize(4)
        .tickPadding(6),
    );
  axes
    .select<SVGGElement>('g.frag-axis-share')
    .attr('transform', `translate(${margin.left},${margin.top})`)
    .call(
      axisLeft(scales.yShare)
        .tickValues([...SHARE_TICKS])
        .tickFormat((value: NumberValue) => `${Math.round(Number(value) * 100)}%`)
        .tickSize(4)
        .tickPadding(6),
    );
  axes
    .select<SVGGElement>('g.frag-axis-x')
    .attr('transform', `translate(${margin.left},${margin.top + plotHeight})`)
    .call(
      axisBottom(scales.x)
        .tickValues(ticks.x.values)
        .tickFormat((value: NumberValue) => ticks.x.format(Number(value)))
        .tickSize(4)
        .tickPadding(5),
    );
}
