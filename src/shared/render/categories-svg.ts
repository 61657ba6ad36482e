// The live memory by category over the trace as a standalone SVG document: a stacked area of
// parameters, gradients, optimizer state, activations, temporaries, autograd / other and unknown
// at sampled moments (holders/category-series.ts), a line at the moment asked for and a legend
// with each category's bytes there. Used by `allocscope render --view categories`.

import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { byteTicks } from '../chart/byte-ticks';
import { formatBytes } from '../format/units';
import { deviceLabel } from '../format/words';
import {
  CATEGORIES,
  CATEGORY_COLOR_INDEX,
  CATEGORY_NAMES,
  type Category,
} from '../holders/categories';
import { hexOfIndex } from '../chart/band-colors';
import { categorySeries, seriesMoments } from '../holders/category-series';
import type { CategoryRules } from '../holders/category-rules';
import type { ThemeName } from './palette';
import { renderTheme, type RenderTheme } from './render-theme';
import { num, svgOpen, svgText } from './svg-markup';
import { byteGridMarkup } from './byte-grid';
import { fitTitle } from './fit-title';

export interface CategoriesSvgOptions {
  width: number;
  height: number;
  /** The moment marked and listed in the legend. */
  moment: number;
  theme?: ThemeName;
  rules?: CategoryRules;
}

export const CATEGORIES_SVG_CLASS = 'allocscope-categories';

/** A category's colour in a theme: the one the timeline coloured by category gives it. */
export function categoryColor(category: Category, theme: RenderTheme): string {
  return hexOfIndex(CATEGORY_COLOR_INDEX[category], theme.bands);
}

const MARGIN = { left: 72, right: 220, top: 48, bottom: 36 } as const;
const SAMPLES = 400;

export function renderCategoriesSvg(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  options: CategoriesSvgOptions,
): string {
  const theme = renderTheme(options.theme);
  const device = snapshot.devices[deviceIndex]!;
  const moments = seriesMoments(device.traceLength, SAMPLES, [options.moment]);
  const series = categorySeries(snapshot, device, moments, options.rules);
  const totals = moments.map((_m, i) => series.bytes.reduce((sum, b) => sum + b[i]!, 0));
  const maxBytes = Math.max(1, ...totals);
  const ticks = byteTicks(maxBytes);
  const top = Math.max(maxBytes, ticks.values.at(-1) ?? 0);
  const plot = {
    x: MARGIN.left,
    y: MARGIN.top,
    width: Math.max(10, options.width - MARGIN.left - MARGIN.right),
    height: Math.max(10, options.height - MARGIN.top - MARGIN.bottom),
  };
  const first = moments[0] ?? -1;
  const last = Math.max(first + 1, moments.at(-1) ?? 0);
  const xOf = (moment: number): number => plot.x + ((moment - first) / (last - first)) * plot.width;
  const yOf = (bytes: number): number => plot.y + plot.height - (bytes / top) * plot.height;
  const momentIndex = moments.indexOf(options.moment);
  const atMoment = totals[momentIndex];
  // The figures first: a long file name is what gets cut.
  const title = `${deviceLabel(device.device)} · live memory by category${atMoment === undefined ? '' : ` (${formatBytes(atMoment)} after event ${options.moment})`} · ${snapshot.fileName}`;
  const parts = [
    svgOpen(options.width, options.height, theme.fontFamily, title),
    `<rect width="100%" height="100%" fill="${theme.background}"/>`,
    svgText(fitTitle(title, snapshot.fileName, options.width - 32, 14.5), {
      x: 16,
      y: 22,
      fill: theme.text,
      size: 13,
      weight: 'bold',
    }),
    svgText('bytes alive by category (docs/categories.md), stacked; x: trace entries', {
      x: 16,
      y: 38,
      fill: theme.textMuted,
    }),
    `<g class="${CATEGORIES_SVG_CLASS}">`,
  ];
  parts.push(...byteGridMarkup(ticks, yOf, { left: plot.x, width: plot.width }, theme));
  // Stacked areas, bottom up in CATEGORIES order.
  const below = new Float64Array(moments.length);
  CATEGORIES.forEach((category, c) => {
    const bytes = series.bytes[c]!;
    if (!bytes.some((b) => b > 0)) return;
    const upper = moments.map((m, i) => `${num(xOf(m))} ${num(yOf(below[i]! + bytes[i]!))}`);
    const lower = moments.map((m, i) => `${num(xOf(m))} ${num(yOf(below[i]!))}`).reverse();
    parts.push(
      `<path data-category="${category}" d="M${upper.join('L')}L${lower.join('L')}Z" fill="${categoryColor(category, theme)}"/>`,
    );
    for (let i = 0; i < moments.length; i++) below[i]! += bytes[i]!;
  });
  if (momentIndex >= 0) {
    const x = xOf(options.moment);
    parts.push(
      `<line x1="${num(x)}" x2="${num(x)}" y1="${num(plot.y)}" y2="${num(plot.y + plot.height)}" stroke="${theme.moment}" stroke-width="1.5"/>`,
    );
  }
  parts.push(
    svgText(`event ${first}`, { x: plot.x, y: plot.y + plot.height + 16, fill: theme.textMuted }),
    svgText(`event ${moments.at(-1) ?? 0}`, {
      x: plot.x + plot.width,
      y: plot.y + plot.height + 16,
      fill: theme.textMuted,
      anchor: 'end',
    }),
  );
  // Legend: each category's bytes at the moment, top of the stack first.
  let y = plot.y + 8;
  const legendX = plot.x + plot.width + 16;
  parts.push(
    svgText(`after event ${options.moment}`, { x: legendX, y, fill: theme.text, weight: 'bold' }),
  );
  for (const category of [...CATEGORIES].reverse()) {
    const c = CATEGORIES.indexOf(category);
    const bytes = momentIndex >= 0 ? series.bytes[c]![momentIndex]! : 0;
    y += 18;
    parts.push(
      `<rect x="${num(legendX)}" y="${num(y - 9)}" width="10" height="10" fill="${categoryColor(category, theme)}"/>`,
      svgText(`${CATEGORY_NAMES[category]} ${formatBytes(bytes)}`, {
        x: legendX + 16,
        y,
        fill: bytes > 0 ? theme.text : theme.textMuted,
      }),
    );
  }
  parts.push('</g></svg>');
  return parts.join('');
}
