// Axes of the exported timeline: bytes on the left with the grid's ticks, time since the first
// event (or the event index) along the bottom with its unit.

import type { byteTicks } from '../chart/byte-ticks';
import type { EventAxis } from '../chart/event-axis';
import { linearTicks } from '../chart/linear-ticks';
import { xAxisTicks } from '../chart/x-axis-ticks';
import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import type { RenderTheme } from './render-theme';
import { num, svgText, type SvgPlot } from './svg-markup';

export function yAxisMarkup(
  ticks: ReturnType<typeof byteTicks>,
  yOfBytes: (bytes: number) => number,
  plot: Omit<SvgPlot, 'width'>,
  theme: RenderTheme,
): string {
  const parts: string[] = [];
  const x = plot.left - 0.5;
  let tickPath = `M${num(x)} ${num(plot.top)}V${num(plot.top + plot.height)}`;
  for (const bytes of ticks.values) {
    const y = Math.round(yOfBytes(bytes)) + 0.5;
    tickPath += `M${num(x - 4)} ${num(y)}h4`;
    parts.push(
      svgText(ticks.format(bytes), { x: x - 7, y: y + 3.5, fill: theme.textMuted, anchor: 'end' }),
    );
  }
  return `<path d="${tickPath}" fill="none" stroke="${theme.axisLine}"/>${parts.join('')}`;
}

/** The x axis over [x0, x1] (x units of `axis`). */
export function xAxisMarkup(
  axis: EventAxis,
  device: AnalyzedDevice,
  x0: number,
  x1: number,
  plot: SvgPlot,
  theme: RenderTheme,
): string {
  const y = plot.top + plot.height + 0.5;
  const ticks = xAxisTicks(
    axis.mode,
    linearTicks(x0, x1, Math.max(2, Math.floor(plot.width / 110))),
    x0,
    x1,
    device.traceLength,
  );
  const parts: string[] = [];
  let tickPath = `M${num(plot.left)} ${num(y)}h${num(plot.width)}`;
  for (const value of ticks.values) {
    const x = Math.round(plot.left + ((value - x0) / (x1 - x0)) * plot.width) + 0.5;
    tickPath += `M${num(x)} ${num(y)}v4`;
    parts.push(
      svgText(ticks.format(value), { x, y: y + 15, fill: theme.textMuted, anchor: 'middle' }),
    );
  }
  const unit = xAxisUnit(axis);
  parts.push(
    svgText(unit, {
      x: plot.left + plot.width,
      y: y + 29,
      fill: theme.textMuted,
      anchor: 'end',
    }),
  );
  return `<path d="${tickPath}" fill="none" stroke="${theme.axisLine}"/>${parts.join('')}`;
}

/** The x axis's title, written at the right end of the legend's last row. */
export function xAxisUnit(axis: Pick<EventAxis, 'mode'>): string {
  return axis.mode === 'time' ? 'time since the first event' : 'event';
}
