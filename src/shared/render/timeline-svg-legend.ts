// The exported timeline's legend along the bottom: a swatch and a label for every kind of mark
// the picture draws (chart/timeline-marks.ts, the list the app's legend shows too), then, when
// the bands are coloured by a grouping, what each colour is (holders/band-coloring.ts), wrapped
// onto more rows when one is too narrow.

import { hexOfIndex, type BandColoring } from '../chart/band-colors';
import type { TimelineMark, TimelineMarkKind } from '../chart/timeline-marks';
import { legendName, type ColorLegendEntry } from '../holders/band-coloring';
import { fillOf, strokeOf, type RenderTheme } from './render-theme';
import { NO_STACK_HATCH_ID } from './timeline-svg-bands';
import { escapeXml, fitText, num, svgText, textWidth } from './svg-markup';

const SWATCH = 12;
const GAP = 18;
/** Height of one legend row. */
export const LEGEND_ROW = 16;

type Swatch = (x: number, y: number, theme: RenderTheme, coloring: LegendColoring) => string;

/** What the legend needs of the bands' colouring. */
export type LegendColoring = Pick<BandColoring, 'noStackFill'>;

/** The longest a group's name is written in the legend (longer ones are cut with an ellipsis). */
const GROUP_LABEL_WIDTH = 240;

const vertical =
  (color: (theme: RenderTheme) => string, dash: string, width: number): Swatch =>
  (x, y, theme) =>
    `<path d="M${num(x + SWATCH / 2)} ${num(y - 10)}v12" stroke="${color(theme)}" stroke-width="${width}"${dash === '' ? '' : ` stroke-dasharray="${dash}"`}/>`;

/** The swatch of each kind of mark, drawn as the picture draws it. */
const SWATCHES: Record<TimelineMarkKind, Swatch> = {
  bands: (x, y, theme) =>
    [0, 1, 2]
      .map(
        (i) =>
          `<rect x="${num(x + i * 4)}" y="${num(y - 8)}" width="4" height="9" fill="${hexOfIndex(i, theme.bands)}"/>`,
      )
      .join(''),
  'no-stack': (x, y, theme, coloring) =>
    (coloring.noStackFill
      ? `<rect x="${num(x)}" y="${num(y - 8)}" width="${SWATCH}" height="9" fill="${theme.bands.noStack}"/>`
      : [0, 1]
          .map(
            (i) =>
              `<rect x="${num(x + i * 6)}" y="${num(y - 8)}" width="6" height="9" fill="${hexOfIndex(i, theme.bands)}"/>`,
          )
          .join('')) +
    `<rect x="${num(x)}" y="${num(y - 8)}" width="${SWATCH}" height="9" fill="url(#${NO_STACK_HATCH_ID})"/>`,
  other: (x, y, theme) =>
    `<rect x="${num(x)}" y="${num(y - 8)}" width="${SWATCH}" height="9" fill="${theme.otherFill}"/>`,
  active: (x, y, theme) =>
    `<path d="M${num(x)} ${num(y - 3.5)}h${SWATCH}" ${strokeOf(theme.activeLine)}/>`,
  reserved: (x, y, theme) =>
    `<rect x="${num(x)}" y="${num(y - 8)}" width="${SWATCH}" height="9" ${fillOf(theme.reservedFill)}/><path d="M${num(x)} ${num(y - 8)}h${SWATCH}" stroke="${theme.reservedLine}" stroke-width="1.5"/>`,
  'peak-reserved': vertical((theme) => theme.peakReserved, '3 3', 1),
  'peak-active': vertical((theme) => theme.peakActive, '5 3', 1),
  oom: vertical((theme) => theme.oom, '', 2),
  moment: vertical((theme) => theme.moment, '', 1),
  steps: (x, y, theme) =>
    `<rect x="${num(x)}" y="${num(y - 4)}" width="${SWATCH / 2}" height="4" ${fillOf(theme.activeLine)}/>`,
  phases: (x, y, theme) =>
    (['forward', 'backward', 'optimizer'] as const)
      .map(
        (name, i) =>
          `<rect x="${num(x + i * 4)}" y="${num(y - 5)}" width="4" height="5" fill="${theme.phases[name]}"/>`,
      )
      .join(''),
  annotations: (x, y, theme) =>
    `<rect x="${num(x)}" y="${num(y - 5)}" width="${SWATCH}" height="2" ${fillOf(theme.annotationLane)}/>`,
};

/** What the legend lists: the kinds of mark, then the groups a colouring names. */
export interface TimelineLegendContent {
  marks: readonly TimelineMark[];
  coloring: LegendColoring;
  /** The colours of a colouring by a grouping, or null. */
  groups: readonly ColorLegendEntry[] | null;
}

interface LegendEntry {
  /** The attribute that says what the entry is (data-legend="bands", data-legend-group="..."). */
  attribute: string;
  label: string;
  swatch: (x: number, y: number, theme: RenderTheme) => string;
}

function legendEntries(content: TimelineLegendContent): LegendEntry[] {
  const entries: LegendEntry[] = [];
  for (const mark of content.marks) {
    entries.push({
      attribute: `data-legend="${mark.kind}"`,
      label: mark.label,
      swatch: (x, y, theme) => SWATCHES[mark.kind](x, y, theme, content.coloring),
    });
    // What each band colour is follows the bands' own entry.
    if (mark.kind !== 'bands') continue;
    for (const group of content.groups ?? [])
      entries.push({
        attribute: `data-legend-group="${escapeXml(group.name)}"`,
        label: fitText(legendName(group.name), GROUP_LABEL_WIDTH, 11),
        swatch: (x, y, theme) =>
          `<rect x="${num(x)}" y="${num(y - 8)}" width="${SWATCH}" height="9" fill="${hexOfIndex(group.color, theme.bands)}"/>`,
      });
  }
  return entries;
}

interface PlacedEntry {
  entry: LegendEntry;
  x: number;
  row: number;
}

/** Entries placed left to right from `left`, a new row where `right` would be passed. */
function placeEntries(entries: readonly LegendEntry[], left: number, right: number): PlacedEntry[] {
  let x = left;
  let row = 0;
  return entries.map((entry) => {
    const width = SWATCH + 4 + textWidth(entry.label, 11);
    if (x > left && x + width > right) {
      row++;
      x = left;
    }
    const placed = { entry, x, row };
    x += width + GAP;
    return placed;
  });
}

/** How many rows the legend takes between `left` and `right`. */
export function legendRowCount(
  content: TimelineLegendContent,
  left: number,
  right: number,
): number {
  const placed = placeEntries(legendEntries(content), left, right);
  return placed.length === 0 ? 0 : placed[placed.length - 1]!.row + 1;
}

/** The legend with its last row's baseline at `bottom`. */
export function timelineLegend(
  theme: RenderTheme,
  content: TimelineLegendContent,
  left: number,
  right: number,
  bottom: number,
): string {
  const placed = placeEntries(legendEntries(content), left, right);
  const rows = placed.length === 0 ? 0 : placed[placed.length - 1]!.row + 1;
  const parts = placed.map(({ entry, x, row }) => {
    const y = bottom - (rows - 1 - row) * LEGEND_ROW;
    return (
      `<g ${entry.attribute}>` +
      entry.swatch(x, y, theme) +
      svgText(entry.label, { x: x + SWATCH + 4, y, fill: theme.textMuted }) +
      '</g>'
    );
  });
  return `<g class="legend">${parts.join('')}</g>`;
}
