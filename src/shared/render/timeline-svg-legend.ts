// The exported timeline's legend along the bottom: a swatch and a label per thing drawn.

import { bandColorHex } from '../chart/band-colors';
import { fillOf, strokeOf, type RenderTheme } from './render-theme';
import { num, svgText, textWidth } from './svg-markup';

export function timelineLegend(
  theme: RenderTheme,
  plot: { left: number },
  height: number,
  withSpans: boolean,
): string {
  const y = height - 10;
  const items: { label: string; swatch: (x: number) => string }[] = [
    {
      label: 'allocations (colour = stack)',
      swatch: (x) =>
        [0, 1, 2]
          .map(
            (i) =>
              `<rect x="${num(x + i * 4)}" y="${num(y - 8)}" width="4" height="9" fill="${bandColorHex(i * 5 + 1, theme.bands)}"/>`,
          )
          .join(''),
    },
    {
      label: 'smaller allocations',
      swatch: (x) =>
        `<rect x="${num(x)}" y="${num(y - 8)}" width="12" height="9" fill="${theme.otherFill}"/>`,
    },
    {
      label: 'active',
      swatch: (x) => `<path d="M${num(x)} ${num(y - 3.5)}h12" ${strokeOf(theme.activeLine)}/>`,
    },
    {
      label: 'reserved',
      swatch: (x) =>
        `<rect x="${num(x)}" y="${num(y - 8)}" width="12" height="9" ${fillOf(theme.reservedFill)}/><path d="M${num(x)} ${num(y - 8)}h12" stroke="${theme.reservedLine}" stroke-width="1.5"/>`,
    },
  ];
  if (withSpans) {
    items.push({
      label: 'record_function spans',
      swatch: (x) =>
        `<rect x="${num(x)}" y="${num(y - 5)}" width="12" height="2" ${fillOf(theme.annotationLane)}/>`,
    });
  }
  let x = plot.left;
  const parts: string[] = [];
  for (const item of items) {
    parts.push(item.swatch(x));
    parts.push(svgText(item.label, { x: x + 16, y, fill: theme.textMuted }));
    x += 16 + textWidth(item.label, 11) + 18;
  }
  return `<g class="legend">${parts.join('')}</g>`;
}
