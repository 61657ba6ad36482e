// The words of the exported fragmentation chart: its title, the figures at the marked moment and
// the legend along the bottom (the same curves and words as the app's legend).

import { momentTitle } from './moment-title';
import { formatEventTick, timeTickFormatter } from '../chart/axis-format';
import type { EventAxis } from '../chart/event-axis';
import { cachedAt } from '../chart/fragmentation-points';
import { formatBytes } from '../format/units';
import { deviceLabel } from '../format/words';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import type { FragmentationSeries } from '../state/fragmentation-series';
import type { FragmentationPalette } from './palette';
import { fillOf, type RenderTheme } from './render-theme';
import { num, svgText, textWidth } from './svg-markup';

/** "file · device 0 · fragmentation · all 1,234 events · moment: after event 56". */
export function fragmentationSvgTitle(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  axis: EventAxis,
  x0: number,
  x1: number,
  moment: number | null,
): string {
  const pieces = [snapshot.fileName, deviceLabel(device.device), 'fragmentation'];
  if (device.traceLength === 0) pieces.push('no trace entries (final state)');
  else {
    const whole = x0 <= axis.minX && x1 >= axis.maxX;
    const first = Math.max(0, Math.floor(axis.toEvent(x0)));
    const last = Math.min(device.traceLength - 1, Math.ceil(axis.toEvent(x1)) - 1);
    pieces.push(
      whole
        ? `all ${formatEventTick(device.traceLength)} events`
        : `events ${formatEventTick(first)}–${formatEventTick(last)} of ${formatEventTick(device.traceLength)}`,
    );
    if (axis.mode === 'time') {
      const spanUs = x1 - x0;
      pieces.push(`${timeTickFormatter(spanUs / 4, spanUs)(spanUs)} shown`);
    }
  }
  if (moment !== null) pieces.push(momentTitle(moment));
  return pieces.join(' · ');
}

/**
 * What the chart shows at the marked moment, as the Fragmentation tab's table lists it; null
 * without a moment or when the series did not sample it.
 */
export function fragmentationFiguresLine(
  device: AnalyzedDevice,
  series: FragmentationSeries,
  moment: number | null,
): string | null {
  if (moment === null) return null;
  const i = series.moments.indexOf(moment);
  if (i < 0) return null;
  const reserved = series.reservedBytes[i]!;
  const share = reserved > 0 ? series.smallFreeBytes[i]! / reserved : 0;
  return [
    `At the moment: reserved − active ${formatBytes(cachedAt(device, moment))}`,
    `largest free block ${formatBytes(series.largestFreeBytes[i]!)}`,
    `internal waste ${formatBytes(series.internalWasteBytes[i]!)}`,
    `small holes ${(share * 100).toFixed(1)}% of ${formatBytes(reserved)} reserved`,
  ].join(' · ');
}

export function fragmentationLegend(
  theme: RenderTheme,
  colors: FragmentationPalette,
  plot: { left: number },
  height: number,
  smallHoleThresholdBytes: number,
): string {
  const y = height - 10;
  const line = (color: string) => (x: number) =>
    `<path d="M${num(x)} ${num(y - 3.5)}h12" stroke="${color}" stroke-width="1.5"/>`;
  const items: { label: string; swatch: (x: number) => string }[] = [
    {
      label: 'reserved − active',
      swatch: (x) =>
        `<rect x="${num(x)}" y="${num(y - 8)}" width="12" height="9" ${fillOf(colors.cachedFill)}/><path d="M${num(x)} ${num(y - 8)}h12" stroke="${colors.cached}" stroke-width="1.25"/>`,
    },
    { label: 'largest free block', swatch: line(colors.largest) },
    { label: 'internal waste', swatch: line(colors.waste) },
    {
      label: `small holes (< ${formatBytes(smallHoleThresholdBytes)}) % of reserved (lower pane)`,
      swatch: (x) =>
        `<rect x="${num(x)}" y="${num(y - 8)}" width="12" height="9" ${fillOf(colors.smallFill)}/>${line(colors.small)(x)}`,
    },
  ];
  let x = plot.left;
  const parts: string[] = [];
  for (const item of items) {
    parts.push(item.swatch(x));
    parts.push(svgText(item.label, { x: x + 16, y, fill: theme.textMuted }));
    x += 16 + textWidth(item.label, 11) + 18;
  }
  return `<g class="legend">${parts.join('')}</g>`;
}
