// The exported OOM explainer's bar chart: the request against the largest free block of each
// pool, stream and segment size (the allocator's separate free lists: a hole in one cannot serve
// a request of another), each over the group's cached free bytes, with the device's free memory
// as CUDA reported it. Bars share one linear byte scale; a dashed line marks the request.

import { SegmentTypeCode } from '../analysis/segment-history';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { formatBytes } from '../format/units';
import type { OomExplanation } from '../oom/oom-explanation';
import type { GroupFigures } from '../state/memory-figures';
import { segmentGroupTitle } from '../state/segment-groups';
import { palette } from './palette';
import type { RenderTheme } from './render-theme';
import { fitText, num, svgText } from './svg-markup';

export interface HoleRow {
  /** "default pool · default stream · large segments". */
  label: string;
  cachedFreeBytes: number;
  largestFreeBytes: number;
  /** The group the request is served from. */
  isRequestGroup: boolean;
}

/** Groups drawn; the request's group is always among them. */
export const MAX_HOLE_ROWS = 8;
const ROW = 20;
const LABEL_WIDTH = 360;
const VALUE_WIDTH = 270;

/** One row per group at the explanation's moment (figuresByGroup order), the request's included. */
export function oomHoleRows(
  snapshot: Pick<AnalyzedSnapshot, 'pools' | 'streams'>,
  e: OomExplanation,
  groups: readonly GroupFigures[],
): HoleRow[] {
  const typeCode = e.segmentType === 'small' ? SegmentTypeCode.small : SegmentTypeCode.large;
  const isRequestGroup = (group: GroupFigures): boolean =>
    group.poolIndex === e.poolIndex &&
    snapshot.streams[group.streamId] === e.stream &&
    group.segmentType === typeCode;
  const rows = groups.map((group): HoleRow => ({
    label: segmentGroupTitle(snapshot, group),
    cachedFreeBytes: group.cachedFreeBytes,
    largestFreeBytes: group.largestFreeBytes,
    isRequestGroup: isRequestGroup(group),
  }));
  const requestIndex = rows.findIndex((row) => row.isRequestGroup);
  const request: HoleRow =
    requestIndex >= 0
      ? rows[requestIndex]!
      : {
          // No segment of the request's group existed: nothing cached there at all.
          label: segmentGroupTitle(snapshot, {
            poolIndex: e.poolIndex,
            streamId: Math.max(0, snapshot.streams.indexOf(e.stream)),
            segmentType: typeCode,
          }),
          cachedFreeBytes: e.poolCachedFreeBytes,
          largestFreeBytes: e.poolLargestFreeBytes,
          isRequestGroup: true,
        };
  const others = rows.filter((row) => !row.isRequestGroup).slice(0, MAX_HOLE_ROWS - 1);
  return [request, ...others];
}

/** The chart from `top`; returns the markup and the height used. */
export function oomHolesMarkup(
  e: OomExplanation,
  rows: readonly HoleRow[],
  left: number,
  top: number,
  width: number,
  theme: RenderTheme,
): { markup: string; height: number } {
  // The fragmentation chart's colour for the largest free block: the same figure in every picture.
  const largestColor = palette(theme.name).fragmentation.largest;
  const request = e.roundedRequestBytes;
  const scaleMax = Math.max(
    1,
    request ?? 0,
    e.deviceFreeBytes ?? 0,
    ...rows.map((row) => Math.max(row.cachedFreeBytes, row.largestFreeBytes)),
  );
  const barLeft = left + LABEL_WIDTH;
  const barWidth = Math.max(40, width - LABEL_WIDTH - VALUE_WIDTH);
  const xOf = (bytes: number): number => barLeft + (bytes / scaleMax) * barWidth;
  const parts: string[] = [];
  let y = top;
  const row = (
    label: string,
    bold: boolean,
    bars: string,
    value: string,
    className: string,
  ): void => {
    parts.push(`<g class="${className}">`);
    parts.push(
      svgText(fitText(label, LABEL_WIDTH - 10, 11), {
        x: left,
        y: y + 13,
        fill: theme.text,
        ...(bold ? { weight: 'bold' as const } : {}),
      }),
    );
    parts.push(bars);
    parts.push(
      svgText(fitText(value, VALUE_WIDTH - 12, 11), {
        x: barLeft + barWidth + 8,
        y: y + 13,
        fill: theme.textMuted,
      }),
    );
    parts.push('</g>');
    y += ROW;
  };
  const bar = (bytes: number, fill: string, stroke = '', inset = 3): string =>
    `<rect x="${num(barLeft)}" y="${num(y + inset)}" width="${num(Math.max(bytes > 0 ? 1 : 0, xOf(bytes) - barLeft))}" height="${num(ROW - 2 * inset)}" fill="${fill}"${stroke === '' ? '' : ` stroke="${stroke}" stroke-width="0.75"`}/>`;

  if (request !== null) {
    row(
      'The request (rounded as the allocator rounds it)',
      true,
      bar(request, theme.oom),
      `${formatBytes(request)}`,
      'oom-request',
    );
  }
  if (e.deviceFreeBytes !== null) {
    row(
      'Free on the device (CUDA device_free)',
      false,
      bar(e.deviceFreeBytes, theme.axisLine),
      formatBytes(e.deviceFreeBytes),
      'oom-device-free',
    );
  }
  for (const hole of rows) {
    row(
      hole.isRequestGroup ? `→ ${hole.label}` : hole.label,
      hole.isRequestGroup,
      bar(hole.cachedFreeBytes, theme.cachedFreeBlock, theme.segmentOutline, 2) +
        bar(hole.largestFreeBytes, largestColor, '', 6),
      `largest ${formatBytes(hole.largestFreeBytes)} · cached free ${formatBytes(hole.cachedFreeBytes)}`,
      hole.isRequestGroup ? 'oom-hole oom-hole-request' : 'oom-hole',
    );
  }
  if (request !== null) {
    const x = Math.round(xOf(request)) + 0.5;
    parts.push(
      `<path d="M${num(x)} ${num(top + 2)}V${num(y)}" stroke="${theme.oom}" stroke-width="1" stroke-dasharray="4 3"/>`,
    );
  }
  // Legend of the group rows.
  const legendY = y + 13;
  parts.push(
    `<rect x="${num(barLeft)}" y="${num(legendY - 9)}" width="14" height="10" fill="${theme.cachedFreeBlock}" stroke="${theme.segmentOutline}" stroke-width="0.75"/>`,
    svgText('cached free in the group', { x: barLeft + 19, y: legendY, fill: theme.textMuted }),
    `<rect x="${num(barLeft + 170)}" y="${num(legendY - 7)}" width="14" height="6" fill="${largestColor}"/>`,
    svgText('its largest free block (the largest request it can serve)', {
      x: barLeft + 189,
      y: legendY,
      fill: theme.textMuted,
    }),
  );
  return { markup: `<g class="oom-holes">${parts.join('')}</g>`, height: y - top + 20 };
}
