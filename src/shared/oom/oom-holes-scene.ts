// The OOM picture laid out once as a scene of marks (chart/scene-marks.ts), for the page's canvas
// (src/renderer/oom/oom-holes-chart.tsx) and the exported SVG (render/oom-svg.ts) alike: the
// request against the largest free block of each pool, stream and segment size (the allocator's
// separate free lists: a hole in one cannot serve a request of another), each over the group's
// cached free bytes, with the device's free memory as CUDA reported it. Bars share one linear byte
// scale; a dashed line marks the request. The box is (0, 0) .. (width, height); the caller places
// it, and writes the section's heading (oomHolesHeading) above it in its own way.

import { SegmentTypeCode } from '../analysis/segment-history';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import type { SceneMark, TextItem } from '../chart/scene-marks';
import { fitText } from '../chart/text-width';
import { formatBytes } from '../format/units';
import type { AllocatorState } from '../state/allocator-state';
import { figuresByGroup, smallHoleThreshold, type GroupFigures } from '../state/memory-figures';
import { segmentGroupTitle } from '../state/segment-groups';
import type { OomExplanation } from './oom-explanation';

/** The palette entries the picture is drawn in (render/oom-holes-paints.ts names them). */
export type OomHolesRole =
  'text' | 'textMuted' | 'request' | 'deviceFree' | 'cachedFree' | 'groupOutline' | 'largest';

export interface OomHoleRow {
  /** "default pool · default stream · large segments". */
  label: string;
  cachedFreeBytes: number;
  largestFreeBytes: number;
  /** The group the request is served from. */
  isRequestGroup: boolean;
}

export interface OomHolesPicture {
  scene: { width: number; height: number; marks: SceneMark<OomHolesRole>[] };
  /** The group rows drawn, the request's first. */
  rows: readonly OomHoleRow[];
  /** The bytes at the bars' right end. */
  scaleMax: number;
}

/** Groups drawn; the request's group is always among them. */
export const MAX_HOLE_ROWS = 8;
const ROW = 20;
const FONT = 11;
/** The room under the rows for the legend. */
const LEGEND = 20;

/** The section's heading, the same words on the page and in the export. */
export function oomHolesHeading(e: OomExplanation): string {
  return e.verdict === 'what-if'
    ? 'The largest free block of each pool, stream and segment size (→ where a large request would go)'
    : `The ${formatBytes(e.roundedRequestBytes ?? 0)} request against the largest free block of each pool, stream and segment size (→ where the request goes)`;
}

/** The rows of the picture for the allocator state after the explanation's event. */
export function oomHoleRowsOfState(
  snapshot: Pick<AnalyzedSnapshot, 'pools' | 'streams'>,
  device: AnalyzedDevice,
  e: OomExplanation,
  state: AllocatorState,
): OomHoleRow[] {
  return oomHoleRows(snapshot, e, figuresByGroup(state, smallHoleThreshold(device)));
}

/** One row per group at the explanation's moment (figuresByGroup order), the request's first. */
export function oomHoleRows(
  snapshot: Pick<AnalyzedSnapshot, 'pools' | 'streams'>,
  e: OomExplanation,
  groups: readonly GroupFigures[],
): OomHoleRow[] {
  const typeCode = e.segmentType === 'small' ? SegmentTypeCode.small : SegmentTypeCode.large;
  const isRequestGroup = (group: GroupFigures): boolean =>
    group.poolIndex === e.poolIndex &&
    snapshot.streams[group.streamId] === e.stream &&
    group.segmentType === typeCode;
  const rows = groups.map((group): OomHoleRow => ({
    label: segmentGroupTitle(snapshot, group),
    cachedFreeBytes: group.cachedFreeBytes,
    largestFreeBytes: group.largestFreeBytes,
    isRequestGroup: isRequestGroup(group),
  }));
  const requestIndex = rows.findIndex((row) => row.isRequestGroup);
  const request: OomHoleRow =
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

/** The picture's height for `rows` group rows (it does not depend on the width). */
export function oomHolesHeight(e: OomExplanation, rowCount: number): number {
  const extra = (e.roundedRequestBytes === null ? 0 : 1) + (e.deviceFreeBytes === null ? 0 : 1);
  return (extra + rowCount) * ROW + LEGEND;
}

/** The picture in a box `width` wide (its height: oomHolesHeight). */
export function layoutOomHoles(
  e: OomExplanation,
  rows: readonly OomHoleRow[],
  width: number,
): OomHolesPicture {
  // The labels and the figures keep their room on a wide screen and share a narrow one.
  const labelWidth = Math.round(Math.min(360, Math.max(150, width * 0.3)));
  const valueWidth = Math.round(Math.min(300, Math.max(150, width * 0.24)));
  const barLeft = labelWidth;
  const barWidth = Math.max(40, width - labelWidth - valueWidth);
  const request = e.roundedRequestBytes;
  const scaleMax = Math.max(
    1,
    request ?? 0,
    e.deviceFreeBytes ?? 0,
    ...rows.map((row) => Math.max(row.cachedFreeBytes, row.largestFreeBytes)),
  );
  const xOf = (bytes: number): number => barLeft + (bytes / scaleMax) * barWidth;
  const barLength = (bytes: number): number => Math.max(bytes > 0 ? 1 : 0, xOf(bytes) - barLeft);

  const boldLabels: TextItem[] = [];
  const labels: TextItem[] = [];
  const values: TextItem[] = [];
  const requestBar: number[] = [];
  const freeBar: number[] = [];
  const cachedBars: number[] = [];
  const outlines: number[] = [];
  const largestBars: number[] = [];
  let y = 0;
  const row = (label: string, bold: boolean, value: string): void => {
    (bold ? boldLabels : labels).push({
      text: fitText(label, labelWidth - 10, FONT),
      x: 0,
      y: y + 13,
    });
    values.push({
      text: fitText(value, valueWidth - 12, FONT),
      x: barLeft + barWidth + 8,
      y: y + 13,
    });
    y += ROW;
  };
  const bar = (out: number[], bytes: number, inset: number): void => {
    out.push(barLeft, y + inset, barLength(bytes), ROW - 2 * inset);
  };

  if (request !== null) {
    bar(requestBar, request, 3);
    row('The request (rounded as the allocator rounds it)', true, formatBytes(request));
  }
  if (e.deviceFreeBytes !== null) {
    bar(freeBar, e.deviceFreeBytes, 3);
    row('Free on the device (CUDA device_free)', false, formatBytes(e.deviceFreeBytes));
  }
  for (const hole of rows) {
    bar(cachedBars, hole.cachedFreeBytes, 2);
    outline(outlines, barLeft, y + 2, barLength(hole.cachedFreeBytes), ROW - 4);
    bar(largestBars, hole.largestFreeBytes, 6);
    row(
      hole.isRequestGroup ? `→ ${hole.label}` : hole.label,
      hole.isRequestGroup,
      `largest ${formatBytes(hole.largestFreeBytes)} · cached free ${formatBytes(hole.cachedFreeBytes)}`,
    );
  }
  const rowsBottom = y;

  // The legend of the group rows.
  const legendY = rowsBottom + 13;
  const legendRoom = width - barLeft;
  const legendCached: number[] = [barLeft, legendY - 9, 14, 10];
  const legendLargest: number[] = [barLeft + 190, legendY - 7, 14, 6];
  outline(outlines, barLeft, legendY - 9, 14, 10);
  const legend: TextItem[] = [
    { text: fitText('cached free in the group', 165, FONT), x: barLeft + 19, y: legendY },
    {
      text: fitText(
        'its largest free block (the largest request it can serve)',
        legendRoom - 209,
        FONT,
      ),
      x: barLeft + 209,
      y: legendY,
    },
  ];

  const marks: SceneMark<OomHolesRole>[] = [];
  const rects = (role: OomHolesRole, values: number[], tag: string): void => {
    if (values.length > 0)
      marks.push({ type: 'rects', role, alpha: 1, rects: Float64Array.from(values), tag });
  };
  rects('request', requestBar, 'request');
  rects('deviceFree', freeBar, 'device-free');
  rects('cachedFree', [...cachedBars, ...legendCached], 'cached-free');
  if (outlines.length > 0)
    marks.push({
      type: 'lines',
      role: 'groupOutline',
      lineWidth: 0.75,
      dash: null,
      lines: Float64Array.from(outlines),
      tag: 'group-outline',
    });
  rects('largest', [...largestBars, ...legendLargest], 'largest');
  if (request !== null) {
    const x = Math.round(xOf(request)) + 0.5;
    marks.push({
      type: 'lines',
      role: 'request',
      lineWidth: 1,
      dash: [4, 3],
      lines: Float64Array.of(x, 2, x, rowsBottom),
      tag: 'request-line',
    });
  }
  const text = (role: OomHolesRole, items: TextItem[], tag: string, bold: boolean): void => {
    if (items.length > 0)
      marks.push({
        type: 'text',
        role,
        haloRole: null,
        sizePx: FONT,
        ...(bold ? { bold } : {}),
        items: items.filter((item) => item.text !== ''),
        tag,
      });
  };
  text('text', boldLabels, 'label-request', true);
  text('text', labels, 'label', false);
  text('textMuted', values, 'value', false);
  text('textMuted', legend, 'legend', false);
  return { scene: { width, height: rowsBottom + LEGEND, marks }, rows, scaleMax };
}

/** A rectangle's four edges as lines (x0, y0, x1, y1 each), centred on the edges. */
function outline(out: number[], x: number, y: number, width: number, height: number): void {
  if (width <= 0) return;
  out.push(x, y, x + width, y);
  out.push(x + width, y, x + width, y + height);
  out.push(x + width, y + height, x, y + height);
  out.push(x, y + height, x, y);
}
