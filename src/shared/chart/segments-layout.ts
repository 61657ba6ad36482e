// Where the segments view puts each segment: groups (pool, stream, large/small) one under the
// other, each under a header, and inside a group the segments side by side in address order,
// wrapping onto the next row like words on a line. Widths are proportional to bytes with one
// scale for the whole picture, so bars compare across groups; a segment wider than a row flows on
// over the next rows. Pure geometry (no DOM): hit testing and block lookup are unit-tested here.

export interface LayoutSegment {
  sizeBytes: number;
  /** Index of its group; segments of one group are contiguous in the input. */
  group: number;
}

export interface SegmentsLayoutOptions {
  /** CSS pixels available for a row. */
  width: number;
  /** Height of the visible area: a few segments fill it rather than sit in one row. */
  viewportHeight: number;
  rowHeight: number;
  /** Vertical space between rows of one group. */
  rowGap: number;
  /** Space above each group's rows, for its header. */
  headerHeight: number;
  /** Space between a group's last row and the next header. */
  groupGap: number;
  /** Horizontal space after each segment. */
  segmentGap: number;
  /** The smallest segment gets at least this many pixels unless that needs more than maxRows. */
  minSegmentPx: number;
  /** Most rows the picture may take (long scroll beyond this helps nobody). */
  maxRows: number;
}

export const DEFAULT_LAYOUT_OPTIONS: Omit<SegmentsLayoutOptions, 'width' | 'viewportHeight'> = {
  rowHeight: 18,
  rowGap: 4,
  headerHeight: 26,
  groupGap: 10,
  segmentGap: 3,
  minSegmentPx: 3,
  maxRows: 1500,
};

/** A segment wider than a row starts on a fresh row rather than in less room than this. */
const MIN_FLOW_ROOM_PX = 48;

/** A run of one segment on one row. */
export interface SegmentPiece {
  segment: number;
  row: number;
  x: number;
  width: number;
  /** Byte offsets within the segment that the piece shows: [byteStart, byteEnd). */
  byteStart: number;
  byteEnd: number;
}

export interface LayoutRow {
  y: number;
  group: number;
  /** Pieces firstPiece .. endPiece - 1 lie on this row, left to right. */
  firstPiece: number;
  endPiece: number;
}

export interface LayoutGroup {
  group: number;
  /** Top of the group's header. */
  headerY: number;
  /** Rows firstRow .. endRow - 1. */
  firstRow: number;
  endRow: number;
}

export interface SegmentsLayout {
  width: number;
  rowHeight: number;
  /** CSS pixels per byte, the same for every segment. */
  pixelsPerByte: number;
  groups: LayoutGroup[];
  rows: LayoutRow[];
  /** In row order, left to right within a row. */
  pieces: SegmentPiece[];
  /** For each segment, its first piece; the next pieces follow it while `segment` matches. */
  firstPieceOfSegment: Int32Array;
  /** Height of the whole picture. */
  height: number;
}

/** The scale: the picture fills the view, and the smallest segment stays visible where it can. */
export function chooseScale(
  segments: readonly LayoutSegment[],
  groupCount: number,
  options: SegmentsLayoutOptions,
): number {
  let total = 0;
  let smallest = Infinity;
  for (const segment of segments) {
    if (!(segment.sizeBytes > 0)) continue;
    total += segment.sizeBytes;
    smallest = Math.min(smallest, segment.sizeBytes);
  }
  if (total <= 0 || options.width <= 0) return 0;
  const rowStep = options.rowHeight + options.rowGap;
  const headers = groupCount * (options.headerHeight + options.groupGap);
  const rowsVisible = Math.max(1, Math.floor((options.viewportHeight - headers) / rowStep));
  // A handful of segments: about one row each, not one segment smeared over the whole view.
  const minimumRows = Math.max(1, Math.min(rowsVisible, segments.length));
  const rowsForSmallest = (options.minSegmentPx / smallest) * (total / options.width);
  const rows = Math.max(minimumRows, Math.min(options.maxRows, rowsForSmallest));
  // The gaps take room from every row; leave them out of the bytes' share.
  const gapShare = Math.min(0.5, (segments.length * options.segmentGap) / (rows * options.width));
  const scale = (rows * options.width * (1 - gapShare)) / total;
  return rowsForSmallest <= options.maxRows
    ? Math.max(scale, options.minSegmentPx / smallest)
    : scale;
}

export function layoutSegments(
  segments: readonly LayoutSegment[],
  options: SegmentsLayoutOptions,
  pixelsPerByte?: number,
): SegmentsLayout {
  const width = Math.max(1, options.width);
  let groupCount = 0;
  for (let i = 0; i < segments.length; i++) {
    if (i === 0 || segments[i]!.group !== segments[i - 1]!.group) groupCount++;
  }
  const scale = pixelsPerByte ?? chooseScale(segments, groupCount, options);
  const rowStep = options.rowHeight + options.rowGap;
  const groups: LayoutGroup[] = [];
  const rows: LayoutRow[] = [];
  const pieces: SegmentPiece[] = [];
  const firstPieceOfSegment = new Int32Array(segments.length).fill(-1);
  let y = 0;
  let x = 0;
  let open = false;

  const closeRow = (): void => {
    if (!open) return;
    const row = rows.at(-1)!;
    row.endPiece = pieces.length;
    y = row.y + rowStep;
    open = false;
  };
  const openRow = (group: number): void => {
    closeRow();
    rows.push({ y, group, firstPiece: pieces.length, endPiece: pieces.length });
    open = true;
    x = 0;
  };

  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    const currentGroup = groups.at(-1);
    if (currentGroup === undefined || currentGroup.group !== segment.group) {
      if (currentGroup !== undefined) {
        closeRow();
        currentGroup.endRow = rows.length;
        y = y - options.rowGap + options.groupGap;
      }
      groups.push({ group: segment.group, headerY: y, firstRow: rows.length, endRow: rows.length });
      y += options.headerHeight;
      openRow(segment.group);
    }
    const bytes = Math.max(0, segment.sizeBytes);
    const segmentWidth = bytes * scale;
    const room = width - x;
    // Like a word: a segment that fits in a row but not in what is left of this one starts the
    // next; a wider one flows on from here, unless only a sliver of this row is left.
    if (x > 0 && segmentWidth > room && (segmentWidth <= width || room < MIN_FLOW_ROOM_PX)) {
      openRow(segment.group);
    }
    firstPieceOfSegment[index] = pieces.length;
    let byteStart = 0;
    for (;;) {
      const left = width - x;
      const remainingWidth = (bytes - byteStart) * scale;
      if (remainingWidth <= left + 1e-9 || bytes === byteStart) {
        pieces.push({
          segment: index,
          row: rows.length - 1,
          x,
          width: remainingWidth,
          byteStart,
          byteEnd: bytes,
        });
        x += remainingWidth + options.segmentGap;
        break;
      }
      // Wider than what is left: fill the row and go on below.
      const byteEnd = Math.min(bytes, byteStart + Math.max(1, Math.floor(left / scale)));
      pieces.push({
        segment: index,
        row: rows.length - 1,
        x,
        width: (byteEnd - byteStart) * scale,
        byteStart,
        byteEnd,
      });
      byteStart = byteEnd;
      openRow(segment.group);
    }
  }
  closeRow();
  const last = groups.at(-1);
  if (last !== undefined) last.endRow = rows.length;
  const height = rows.length === 0 ? 0 : rows.at(-1)!.y + options.rowHeight + options.groupGap;
  return {
    width,
    rowHeight: options.rowHeight,
    pixelsPerByte: scale,
    groups,
    rows,
    pieces,
    firstPieceOfSegment,
    height,
  };
}

export interface SegmentHit {
  segment: number;
  /** Byte offset within the segment under the point. */
  byteOffset: number;
  piece: number;
}

/** Rows whose band [y, y + rowHeight) meets [top, bottom): for drawing only what is visible. */
export function rowsBetween(layout: SegmentsLayout, top: number, bottom: number): [number, number] {
  const rows = layout.rows;
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (rows[middle]!.y + layout.rowHeight <= top) low = middle + 1;
    else high = middle;
  }
  let end = low;
  while (end < rows.length && rows[end]!.y < bottom) end++;
  return [low, end];
}

/** The segment and byte under a point of the picture, or null between bars. */
export function hitTestSegments(layout: SegmentsLayout, x: number, y: number): SegmentHit | null {
  const [first, end] = rowsBetween(layout, y, y + 1e-6);
  if (first >= end) return null;
  const row = layout.rows[first]!;
  if (y < row.y || y >= row.y + layout.rowHeight) return null;
  // Pieces of a row are in x order.
  let low = row.firstPiece;
  let high = row.endPiece;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (layout.pieces[middle]!.x <= x) low = middle + 1;
    else high = middle;
  }
  const index = low - 1;
  if (index < row.firstPiece) return null;
  const piece = layout.pieces[index]!;
  // Thin bars are drawn at least a pixel wide; accept the pixel they are drawn on.
  const drawnWidth = Math.max(1, piece.width);
  if (x >= piece.x + drawnWidth) return null;
  const span = piece.byteEnd - piece.byteStart;
  const offset = piece.width <= 0 ? 0 : Math.floor(((x - piece.x) / piece.width) * span + 1e-9);
  return {
    segment: piece.segment,
    byteOffset: piece.byteStart + Math.max(0, Math.min(span - 1, offset)),
    piece: index,
  };
}

/**
 * The block of a segment that holds `address`, by binary search over the blocks' addresses
 * (blocks first .. end - 1 are in address order and tile the segment); -1 when none does.
 */
export function blockAtAddress(
  blockAddress: ArrayLike<number>,
  blockSize: ArrayLike<number>,
  first: number,
  end: number,
  address: number,
): number {
  let low = first;
  let high = end;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (blockAddress[middle]! <= address) low = middle + 1;
    else high = middle;
  }
  const index = low - 1;
  if (index < first) return -1;
  return address < blockAddress[index]! + blockSize[index]! ? index : -1;
}

/** Where a byte range of a segment is drawn: one rectangle per piece it touches. */
export function rectsOfRange(
  layout: SegmentsLayout,
  segment: number,
  byteStart: number,
  byteEnd: number,
): { x: number; y: number; width: number; row: number }[] {
  const rects: { x: number; y: number; width: number; row: number }[] = [];
  const first = layout.firstPieceOfSegment[segment] ?? -1;
  if (first < 0) return rects;
  for (let p = first; p < layout.pieces.length && layout.pieces[p]!.segment === segment; p++) {
    const piece = layout.pieces[p]!;
    const start = Math.max(byteStart, piece.byteStart);
    const end = Math.min(byteEnd, piece.byteEnd);
    if (end <= start && !(byteStart === byteEnd && start === byteStart)) continue;
    const x = piece.x + (start - piece.byteStart) * layout.pixelsPerByte;
    rects.push({
      x,
      y: layout.rows[piece.row]!.y,
      width: (end - start) * layout.pixelsPerByte,
      row: piece.row,
    });
  }
  return rects;
}
