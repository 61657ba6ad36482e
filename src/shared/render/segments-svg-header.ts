// The text above and between the exported segments picture's bars: the title, the totals line,
// the legend (the page's legend: the same states in the same words) and each group's title.

import type { GroupFigures, MemoryFigures } from '../state/memory-figures';
import { formatBytes } from '../format/units';
import { deviceLabel } from '../format/words';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import type { RenderTheme } from './render-theme';
import { SEGMENTS_PADDING } from '../chart/segments-scene';
import { num, svgText, textWidth } from './svg-markup';
import { countOf } from '../format/plural';

/** Room for the title, the totals and the legend above the picture. */
export const SEGMENTS_SVG_HEADER_HEIGHT = 70;

export function segmentsSvgTitle(
  snapshot: AnalyzedSnapshot,
  device: number,
  traceLength: number,
  event: number,
): string {
  let moment: string;
  if (traceLength === 0 || event >= traceLength - 1) moment = 'final state';
  else if (event < 0) moment = 'state before the first event';
  else
    moment = `state after event ${event.toLocaleString('en-US')} of ${traceLength.toLocaleString('en-US')}`;
  return `${snapshot.fileName} · ${deviceLabel(device)} · allocator segments, ${moment}`;
}

export function totalsLine(totals: MemoryFigures): string {
  return [
    `reserved ${formatBytes(totals.reservedBytes)}`,
    `allocated ${formatBytes(totals.blockBytes)} (requested ${formatBytes(totals.activeBytes)})`,
    `cached free ${formatBytes(totals.cachedFreeBytes)} in ${totals.freeBlockCount} blocks`,
    `largest hole ${formatBytes(totals.largestFreeBytes)}`,
    `${totals.segmentCount} segments`,
  ].join(' · ');
}

export function groupTitleLine(title: string, figures: GroupFigures): string {
  return (
    `${title} — ${countOf(figures.segmentCount, 'segment')}, ` +
    `${formatBytes(figures.reservedBytes)} reserved, ${formatBytes(figures.cachedFreeBytes)} cached free, ` +
    `largest hole ${formatBytes(figures.largestFreeBytes)}`
  );
}

export function segmentsLegend(theme: RenderTheme, y: number): string {
  const items: { label: string; fill: string; stroke?: string; dash?: boolean }[] = [
    { label: 'allocated', fill: theme.allocatedBlock },
    { label: 'pending free', fill: theme.pendingFreeBlock },
    { label: 'cached free', fill: theme.cachedFreeBlock, stroke: theme.segmentOutline },
    {
      label: 'expandable (mapped extent)',
      fill: 'none',
      stroke: theme.expandableOutline,
      dash: true,
    },
    { label: 'largest hole', fill: theme.cachedFreeBlock, stroke: theme.largestHole },
  ];
  let x = SEGMENTS_PADDING.left;
  const parts: string[] = [];
  for (const item of items) {
    const stroke =
      item.stroke === undefined
        ? ''
        : ` stroke="${item.stroke}" stroke-width="1"${item.dash === true ? ' stroke-dasharray="3 2"' : ''}`;
    parts.push(
      `<rect x="${num(x + 0.5)}" y="${num(y - 9.5)}" width="14" height="10" fill="${item.fill}"${stroke}/>`,
    );
    parts.push(svgText(item.label, { x: x + 19, y, fill: theme.textMuted }));
    x += 19 + textWidth(item.label, 11) + 18;
  }
  return `<g class="legend">${parts.join('')}</g>`;
}
