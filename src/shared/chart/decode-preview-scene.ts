// The picture of the curves while a file decodes (analysis/curve-preview.ts): memory_reserved and
// memory_allocated of each trace list read so far, one after another along the x-axis (entries
// in file order), on one byte scale. The x-axis is projected to the whole file from the share of
// it read, so the curve grows left to right with the progress bar and the picture does not
// rescale as it fills. Levels are the change since each list's first entry (the baseline comes
// only with the last byte); a dashed line marks where a list starts.

import { formatSignedBytes } from '../format/units';
import type { CurvePreviewData } from '../analysis/curve-preview';
import type { SceneMark, TextItem } from './scene-marks';

export type DecodePreviewRole =
  | 'reservedFill'
  | 'reservedLine'
  | 'allocatedFill'
  | 'allocatedLine'
  | 'zero'
  | 'divider'
  | 'label';

export interface DecodePreviewPicture {
  marks: SceneMark<DecodePreviewRole>[];
  /** The plot's box inside the picture. */
  plot: { left: number; top: number; width: number; height: number };
  /** Entries the x-axis spans (those read, projected to the whole file). */
  projectedRows: number;
  /** Bytes at the top and the bottom of the plot, relative to each list's start. */
  highBytes: number;
  lowBytes: number;
}

const LABEL_WIDTH = 64;
const PAD = 6;
const LABEL_PX = 11;
/** Under this share read, the projection to the whole file is too rough: the curve fills the width. */
const MIN_FRACTION = 0.02;

/**
 * The picture at `width` x `height` CSS pixels; `readFraction` the share of the file read (null:
 * unknown, the curves fill the width). Null while there is no row to draw.
 */
export function layoutDecodePreview(
  data: CurvePreviewData,
  readFraction: number | null,
  width: number,
  height: number,
): DecodePreviewPicture | null {
  const lists = data.lists.filter((list) => list.rows > 0);
  const rows = lists.reduce((sum, list) => sum + list.rows, 0);
  const plot = {
    left: LABEL_WIDTH,
    top: PAD,
    width: Math.max(1, width - LABEL_WIDTH - PAD),
    height: Math.max(1, height - 2 * PAD),
  };
  if (rows === 0 || width <= LABEL_WIDTH + PAD || height <= 2 * PAD) return null;
  const fraction =
    readFraction === null || !(readFraction >= MIN_FRACTION) ? 1 : Math.min(1, readFraction);
  const projectedRows = Math.max(rows, rows / fraction);
  let highBytes = 0;
  let lowBytes = 0;
  for (const list of lists) {
    for (const high of [list.allocatedHigh, list.reservedHigh])
      for (const value of high) if (value > highBytes) highBytes = value;
    for (const low of [list.allocatedLow, list.reservedLow])
      for (const value of low) if (value < lowBytes) lowBytes = value;
  }
  if (highBytes === lowBytes) highBytes = lowBytes + 1;
  const x = (row: number): number => plot.left + (row / projectedRows) * plot.width;
  const y = (bytes: number): number =>
    plot.top + ((highBytes - bytes) / (highBytes - lowBytes)) * plot.height;

  const marks: SceneMark<DecodePreviewRole>[] = [];
  const zeroY = y(0);
  marks.push({
    type: 'lines',
    role: 'zero',
    lineWidth: 1,
    dash: null,
    lines: Float64Array.of(plot.left, zeroY, plot.left + plot.width, zeroY),
    tag: 'zero',
  });
  const dividers: number[] = [];
  let firstRow = 0;
  for (const list of lists) {
    if (firstRow > 0) dividers.push(x(firstRow), plot.top, x(firstRow), plot.top + plot.height);
    // A bucket's values are those after its rows: drawn where its last row ends, so the curve
    // reaches the last row read.
    const at = (bucket: number): number =>
      x(firstRow + Math.min(list.rows, (bucket + 1) * list.bucketRows));
    const place = { at, y, startX: x(firstRow) };
    marks.push(envelope(list.reservedLow, list.reservedHigh, place, 'reservedFill'));
    marks.push(line(list.reservedHigh, place, 'reservedLine'));
    marks.push(envelope(list.allocatedLow, list.allocatedHigh, place, 'allocatedFill'));
    marks.push(line(list.allocatedHigh, place, 'allocatedLine'));
    firstRow += list.rows;
  }
  if (dividers.length > 0) {
    marks.push({
      type: 'lines',
      role: 'divider',
      lineWidth: 1,
      dash: [3, 3],
      lines: Float64Array.from(dividers),
      tag: 'list-start',
    });
  }
  marks.push({
    type: 'text',
    role: 'label',
    haloRole: null,
    sizePx: LABEL_PX,
    items: labels(highBytes, lowBytes, zeroY, plot),
    tag: 'bytes',
  });
  return { marks, plot, projectedRows, highBytes, lowBytes };
}

/** Where a list's buckets are drawn: x of each bucket, y of a byte count, x of its start (0 bytes). */
interface ListPlacement {
  at: (bucket: number) => number;
  y: (bytes: number) => number;
  startX: number;
}

/**
 * (x, y) of the list's start at 0 bytes, then of each bucket's value, written from `points[0]`;
 * the array may be longer (the envelope goes on back along the lows).
 */
function tracePoints(values: Float64Array, place: ListPlacement, points: Float64Array): void {
  points[0] = place.startX;
  points[1] = place.y(0);
  for (let bucket = 0; bucket < values.length; bucket++) {
    points[2 + 2 * bucket] = place.at(bucket);
    points[3 + 2 * bucket] = place.y(values[bucket]!);
  }
}

/** The band between a curve's lowest and highest values, bucket by bucket. */
function envelope(
  low: Float64Array,
  high: Float64Array,
  place: ListPlacement,
  role: DecodePreviewRole,
): SceneMark<DecodePreviewRole> {
  const count = high.length;
  const points = new Float64Array(4 * count + 2);
  tracePoints(high, place, points);
  for (let bucket = 0; bucket < count; bucket++) {
    const back = 2 + 2 * (2 * count - 1 - bucket);
    points[back] = place.at(bucket);
    points[back + 1] = place.y(low[bucket]!);
  }
  return { type: 'polygon', role, points, tag: role };
}

/** A curve's highest values, bucket by bucket. */
function line(
  high: Float64Array,
  place: ListPlacement,
  role: DecodePreviewRole,
): SceneMark<DecodePreviewRole> {
  const points = new Float64Array(2 * high.length + 2);
  tracePoints(high, place, points);
  return { type: 'polyline', role, lineWidth: 1.25, points, tag: role };
}

/** The top and bottom of the scale, and zero where it is not one of them. */
function labels(
  highBytes: number,
  lowBytes: number,
  zeroY: number,
  plot: DecodePreviewPicture['plot'],
): TextItem[] {
  const bottom = plot.top + plot.height;
  const items: TextItem[] = [{ text: formatSignedBytes(highBytes), x: 2, y: plot.top + LABEL_PX }];
  if (lowBytes < 0) items.push({ text: formatSignedBytes(lowBytes), x: 2, y: bottom });
  if (zeroY > plot.top + 2 * LABEL_PX && zeroY < bottom - LABEL_PX)
    items.push({ text: '0', x: 2, y: zeroY + LABEL_PX / 2 - 1 });
  else if (lowBytes === 0) items.push({ text: '0', x: 2, y: bottom });
  return items;
}
