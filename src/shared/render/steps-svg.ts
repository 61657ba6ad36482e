// The training steps of a device as a standalone SVG document: one column per step (its active
// peak), what each step leaves active at its end and the reserved bytes there as lines, the growth
// line fitted through the ends, the verdict as the title, and the leak suspects listed under the
// plot. The app's Steps view exports it as its PNG/SVG; `allocscope render --view steps` writes it.

import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { byteTicks } from '../chart/byte-ticks';
import { formatBytes, formatSignedBytes } from '../format/units';
import { deviceLabel } from '../format/words';
import type { GrowthAnalysis } from '../steps/growth';
import { flatten, type Paint, type ThemeName } from './palette';
import { fillOf, renderTheme, strokeOf } from './render-theme';
import { fitText, num, svgOpen, svgText } from './svg-markup';
import { byteGridMarkup } from './byte-grid';
import { fitTitle } from './fit-title';
import { momentTitle } from './moment-title';

export interface StepsSvgOptions {
  width: number;
  height: number;
  theme?: ThemeName;
  /** The moment on screen: named in the title, and the step holding it outlined. */
  moment?: number;
}

export const STEPS_SVG_CLASS = 'allocscope-steps';

/** Suspects listed under the plot. */
const SUSPECTS_LISTED = 5;
const LINE = 15;
const COLUMN_OPACITY = 0.25;
const MARGIN = { left: 72, right: 16, top: 58, bottom: 34 } as const;

const SOURCE_WORDS = {
  annotations: 'from the annotations',
  pattern: 'from the repeating shape of the active curve',
} as const;

export function renderStepsSvg(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  growth: GrowthAnalysis,
  options: StepsSvgOptions,
): string {
  const theme = renderTheme(options.theme);
  const device = snapshot.devices[deviceIndex]!;
  const { width, height } = options;
  const steps = growth.steps;
  // A CPU profiler trace records no reserved bytes: no line at 0 B that reads as measured.
  const reserved = device.figures.reservedRecorded;
  const suspects = growth.suspects.slice(0, SUSPECTS_LISTED);
  const listHeight = suspects.length === 0 ? 0 : (suspects.length + 1) * LINE + 8;
  const plot = {
    x: MARGIN.left,
    y: MARGIN.top,
    width: Math.max(10, width - MARGIN.left - MARGIN.right),
    height: Math.max(40, height - MARGIN.top - MARGIN.bottom - listHeight),
  };
  const most = Math.max(
    1,
    ...steps.map((step) => Math.max(step.peakActiveBytes, reserved ? step.endReservedBytes : 0)),
  );
  const ticks = byteTicks(most, Math.max(2, Math.round(plot.height / 45)));
  const top = Math.max(most * 1.05, ticks.values.at(-1) ?? 0);
  const slot = plot.width / Math.max(1, steps.length);
  const xOf = (index: number): number => plot.x + (index + 0.5) * slot;
  const yOf = (bytes: number): number => plot.y + plot.height - (bytes / top) * plot.height;

  const source = growth.found.source === null ? '' : ` ${SOURCE_WORDS[growth.found.source]}`;
  const moment = options.moment;
  const momentStep =
    moment === undefined
      ? -1
      : steps.findIndex((step) => moment >= step.startEvent && moment <= step.endEvent);
  const momentText =
    moment === undefined
      ? ''
      : ` · ${momentTitle(moment)}${momentStep < 0 ? '' : ` (step ${momentStep + 1})`}`;
  const title = `${deviceLabel(device.device)} · ${steps.length} training steps${source}${momentText} · ${snapshot.fileName}`;
  const parts = [
    svgOpen(width, height, theme.fontFamily, `${title}: ${growth.verdict}`),
    `<rect width="100%" height="100%" fill="${theme.background}"/>`,
    svgText(fitTitle(title, snapshot.fileName, width - 32, 13), {
      x: 16,
      y: 20,
      fill: theme.text,
      size: 13,
      weight: 'bold',
    }),
    svgText(fitText(growth.verdict, width - 32, 11), { x: 16, y: 38, fill: theme.text }),
    `<g class="${STEPS_SVG_CLASS}">`,
  ];
  parts.push(...byteGridMarkup(ticks, yOf, { left: plot.x, width: plot.width }, theme));
  // Each step's active peak: a column (a gap between columns while they are wide enough).
  const solid = (paint: Paint | string): string =>
    typeof paint === 'string' ? paint : flatten(paint, theme.background);
  const columnColor = solid(theme.activeLine);
  const columnWidth = Math.max(0.5, slot > 4 ? slot * 0.7 : slot);
  parts.push(
    `<path data-mark="step-peaks" d="${steps
      .map((step, i) => {
        const y = yOf(step.peakActiveBytes);
        return `M${num(xOf(i) - columnWidth / 2)} ${num(y)}h${num(columnWidth)}V${num(plot.y + plot.height)}h${num(-columnWidth)}Z`;
      })
      .join('')}" fill="${columnColor}" fill-opacity="${COLUMN_OPACITY}"/>`,
  );
  if (momentStep >= 0) {
    // The step the moment lies in, as the Steps table marks its row.
    const y = yOf(steps[momentStep]!.peakActiveBytes);
    parts.push(
      `<rect data-mark="moment-step" x="${num(xOf(momentStep) - columnWidth / 2)}" y="${num(y)}" width="${num(columnWidth)}" height="${num(plot.y + plot.height - y)}" fill="none" stroke="${theme.text}" stroke-width="1"/>`,
    );
  }
  const polyline = (ys: readonly number[]): string =>
    ys.map((bytes, i) => `${i === 0 ? 'M' : 'L'}${num(xOf(i))} ${num(yOf(bytes))}`).join('');
  if (reserved)
    parts.push(
      `<path data-mark="end-reserved" d="${polyline(steps.map((step) => step.endReservedBytes))}" fill="none" ${strokeOf(theme.reservedLine)} stroke-width="1.5"/>`,
    );
  parts.push(
    `<path data-mark="end-active" d="${polyline(steps.map((step) => step.endActiveBytes))}" fill="none" ${strokeOf(theme.activeLine)} stroke-width="1.5"/>`,
  );
  if (steps.length <= 200)
    for (const [i, step] of steps.entries())
      parts.push(
        `<circle cx="${num(xOf(i))}" cy="${num(yOf(step.endActiveBytes))}" r="2.5" ${fillOf(theme.activeLine)}/>`,
      );
  // The growth line through the ends of the steps (what the verdict's "per step" is the slope of).
  const fit = growth.endActiveFit;
  if (steps.length >= 2)
    parts.push(
      `<path data-mark="growth-fit" d="M${num(xOf(0))} ${num(yOf(fit.intercept))}L${num(xOf(steps.length - 1))} ${num(yOf(fit.intercept + fit.slope * (steps.length - 1)))}" fill="none" stroke="${theme.peakActive}" stroke-width="1.5" stroke-dasharray="5 3"/>`,
    );
  // x axis: the first and last step's names.
  const axisY = plot.y + plot.height + 16;
  if (steps.length > 0) {
    parts.push(
      svgText(steps[0]!.name, { x: plot.x, y: axisY, fill: theme.textMuted }),
      svgText(steps.at(-1)!.name, {
        x: plot.x + plot.width,
        y: axisY,
        fill: theme.textMuted,
        anchor: 'end',
      }),
    );
  }
  // Legend.
  const legend: [string, string][] = [
    [
      'peak active in the step',
      flatten({ color: columnColor, opacity: COLUMN_OPACITY }, theme.background),
    ],
    ['active at its end', solid(theme.activeLine)],
    ...(reserved ? [['reserved at its end', theme.reservedLine] as [string, string]] : []),
    [`growth: ${formatSignedBytes(growth.growthBytesPerStep)} per step`, theme.peakActive],
  ];
  let x = plot.x;
  const legendY = axisY + 14;
  for (const [words, color] of legend) {
    parts.push(
      `<rect x="${num(x)}" y="${num(legendY - 8)}" width="10" height="9" fill="${color}"/>`,
      svgText(words, { x: x + 14, y: legendY, fill: theme.textMuted }),
    );
    x += 14 + words.length * 6 + 18;
  }
  // The suspects: what kept memory step after step.
  let y = legendY + 8;
  if (suspects.length > 0) {
    y += LINE;
    parts.push(
      svgText(`Leak suspects (by ${growth.by}): kept to the end, growing step after step`, {
        x: 16,
        y,
        fill: theme.text,
        weight: 'bold',
      }),
    );
    for (const suspect of suspects) {
      y += LINE;
      parts.push(
        svgText(
          fitText(
            `${formatSignedBytes(suspect.bytesPerStep)} per step in ${suspect.stepsGrown} steps (${formatBytes(suspect.totalBytes)} kept) · ${suspect.topFrame}`,
            width - 32,
            11,
          ),
          { x: 16, y, fill: theme.text },
        ),
      );
    }
  }
  parts.push('</g>', '</svg>');
  return parts.join('\n');
}
