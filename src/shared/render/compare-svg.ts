// Two snapshots' active curves on one x axis (compare/aligned-curves.ts) as an SVG document: A and
// B above, B − A in a strip below with its zero line, a legend naming both files. The app's
// "Compare" view shows it; the same markup is its PNG/SVG picture.

import type { AlignedCurves } from '../compare/aligned-curves';
import { byteTicks } from '../chart/byte-ticks';
import { linearTicks } from '../chart/linear-ticks';
import { formatBytes, formatDurationUs } from '../format/units';
import type { ThemeName } from './palette';
import { renderTheme } from './render-theme';
import { fitText, num, svgOpen, svgText } from './svg-markup';
import { byteGridMarkup } from './byte-grid';
import { momentTitle } from './moment-title';

export interface CompareSvgOptions {
  width: number;
  height: number;
  theme?: ThemeName;
  /** What A and B are ("run.pickle cuda:0"). */
  aName: string;
  bName: string;
  /** The comparison's verdict, in a line under the legend (the app's export). */
  verdict?: string;
  /** The moments compared (A's, B's): named in a title line above the legend (the app's export). */
  moments?: { a: number; b: number };
}

export const COMPARE_SVG_CLASS = 'allocscope-compare';

const MARGIN = { left: 72, right: 16, top: 30, bottom: 40 } as const;
/** Share of the plot's height the difference strip takes. */
const DIFFERENCE_SHARE = 0.28;
const GAP = 14;
const VERDICT_ROOM = 18;
const TITLE_ROOM = 18;

/** "A: run.pickle cuda:0, moment: after event 1,234 · B: …": the exported picture's title line. */
export function compareTitle(
  aName: string,
  bName: string,
  moments: { a: number; b: number },
): string {
  return `A: ${aName}, ${momentTitle(moments.a)} · B: ${bName}, ${momentTitle(moments.b)}`;
}

const AXIS_WORDS = {
  event: 'event index',
  time: 'time since each one’s first event',
  step: 'training step (each step stretched to one unit)',
} as const;

export function renderCompareSvg(curves: AlignedCurves, options: CompareSvgOptions): string {
  const theme = renderTheme(options.theme);
  const { width, height } = options;
  const titleRoom = options.moments === undefined ? 0 : TITLE_ROOM;
  const marginTop = MARGIN.top + titleRoom + (options.verdict === undefined ? 0 : VERDICT_ROOM);
  const plotWidth = Math.max(10, width - MARGIN.left - MARGIN.right);
  const inner = Math.max(40, height - marginTop - MARGIN.bottom - GAP);
  const curvesHeight = inner * (1 - DIFFERENCE_SHARE);
  const differenceTop = marginTop + curvesHeight + GAP;
  const differenceHeight = inner * DIFFERENCE_SHARE;
  const count = curves.x.length;
  const xOf = (i: number): number => MARGIN.left + ((i + 0.5) / Math.max(1, count)) * plotWidth;

  const finite = (values: Float64Array): number[] => Array.from(values).filter(Number.isFinite);
  const most = Math.max(1, ...finite(curves.a), ...finite(curves.b));
  const ticks = byteTicks(most, Math.max(2, Math.round(curvesHeight / 45)));
  const top = Math.max(most * 1.05, ticks.values.at(-1) ?? 0);
  const yOf = (bytes: number): number => marginTop + curvesHeight - (bytes / top) * curvesHeight;
  const differences = finite(curves.difference);
  const spread = Math.max(1, ...differences.map(Math.abs));
  const yOfDifference = (bytes: number): number =>
    differenceTop + differenceHeight / 2 - (bytes / spread) * (differenceHeight / 2 - 2);

  const line = (values: Float64Array, y: (bytes: number) => number): string => {
    let path = '';
    let pen = false;
    values.forEach((value, i) => {
      if (!Number.isFinite(value)) {
        pen = false;
        return;
      }
      path += `${pen ? 'L' : 'M'}${num(xOf(i))} ${num(y(value))}`;
      pen = true;
    });
    return path;
  };

  const title = `${options.aName} (A) and ${options.bName} (B): active bytes by ${AXIS_WORDS[curves.alignBy]}`;
  const parts = [
    svgOpen(width, height, theme.fontFamily, title),
    `<rect width="100%" height="100%" fill="${theme.background}"/>`,
    `<g class="${COMPARE_SVG_CLASS}">`,
  ];
  if (options.moments !== undefined)
    parts.push(
      svgText(
        fitText(
          compareTitle(options.aName, options.bName, options.moments),
          width - 2 * MARGIN.right,
          12,
        ),
        { x: MARGIN.right, y: 16, fill: theme.text, size: 12, weight: 'bold' },
      ),
    );
  // Grid and byte axis of the curves.
  parts.push(...byteGridMarkup(ticks, yOf, { left: MARGIN.left, width: plotWidth }, theme));
  // The difference strip: its zero line and its extent.
  const zero = Math.round(yOfDifference(0)) + 0.5;
  parts.push(
    `<path d="M${num(MARGIN.left)} ${num(zero)}h${num(plotWidth)}" stroke="${theme.axisLine}"/>`,
    svgText('B − A', { x: MARGIN.left - 6, y: zero + 4, fill: theme.textMuted, anchor: 'end' }),
    svgText(`±${formatBytes(spread)}`, {
      x: MARGIN.left - 6,
      y: differenceTop + 8,
      fill: theme.textMuted,
      anchor: 'end',
      size: 10,
    }),
  );
  parts.push(
    `<path data-curve="a" d="${line(curves.a, yOf)}" fill="none" stroke="${theme.compare.a}" stroke-width="1.5"/>`,
    `<path data-curve="b" d="${line(curves.b, yOf)}" fill="none" stroke="${theme.compare.b}" stroke-width="1.5"/>`,
    `<path data-curve="difference" d="${line(curves.difference, yOfDifference)}" fill="none" stroke="${theme.compare.difference}" stroke-width="1.5"/>`,
  );
  // x axis under the strip.
  const axisY = differenceTop + differenceHeight + 0.5;
  parts.push(
    `<path d="M${num(MARGIN.left)} ${num(axisY)}h${num(plotWidth)}" stroke="${theme.axisLine}"/>`,
  );
  const extent = curves.bucket * count;
  for (const value of linearTicks(0, extent, Math.max(2, Math.floor(plotWidth / 110)))) {
    const x = MARGIN.left + (value / Math.max(extent, 1e-9)) * plotWidth;
    const label =
      curves.alignBy === 'time'
        ? formatDurationUs(value)
        : curves.alignBy === 'step'
          ? String(Math.round(value * 100) / 100)
          : Math.round(value).toLocaleString('en-US');
    parts.push(
      `<path d="M${num(x)} ${num(axisY)}v4" stroke="${theme.axisLine}"/>`,
      svgText(label, { x, y: axisY + 15, fill: theme.textMuted, anchor: 'middle' }),
    );
  }
  parts.push(
    svgText(AXIS_WORDS[curves.alignBy], {
      x: MARGIN.left + plotWidth,
      y: axisY + 30,
      fill: theme.textMuted,
      anchor: 'end',
    }),
  );
  // Legend along the top.
  let x = MARGIN.left;
  for (const [key, name, color] of [
    ['a', `A: ${options.aName}`, theme.compare.a],
    ['b', `B: ${options.bName}`, theme.compare.b],
    ['difference', 'B − A', theme.compare.difference],
  ] as const) {
    const label = fitText(name, Math.max(60, plotWidth / 2.6), 11);
    parts.push(
      `<g data-legend="${key}"><path d="M${num(x)} ${num(14 + titleRoom)}h14" stroke="${color}" stroke-width="2"/>`,
      svgText(label, { x: x + 18, y: 18 + titleRoom, fill: theme.text }),
      '</g>',
    );
    x += 30 + label.length * 6.4;
  }
  if (options.verdict !== undefined)
    parts.push(
      svgText(fitText(options.verdict, width - MARGIN.left - MARGIN.right, 11), {
        x: MARGIN.left,
        y: 38 + titleRoom,
        fill: theme.text,
        weight: 'bold',
      }),
    );
  parts.push('</g></svg>');
  return parts.join('\n');
}
