import { describe, expect, it } from 'vitest';
import {
  blockAtAddress,
  chooseScale,
  DEFAULT_LAYOUT_OPTIONS,
  hitTestSegments,
  layoutSegments,
  rectsOfRange,
  rowsBetween,
  type LayoutSegment,
  type SegmentsLayout,
  type SegmentsLayoutOptions,
} from './segments-layout';

const MiB = 1024 * 1024;

function options(overrides: Partial<SegmentsLayoutOptions> = {}): SegmentsLayoutOptions {
  return { ...DEFAULT_LAYOUT_OPTIONS, width: 600, viewportHeight: 300, ...overrides };
}

/** Every segment's pieces cover its bytes exactly once, in order. */
function expectTiled(layout: SegmentsLayout, segments: readonly LayoutSegment[]): void {
  const covered = new Float64Array(segments.length);
  const next = new Float64Array(segments.length);
  for (const piece of layout.pieces) {
    expect(piece.byteStart).toBe(next[piece.segment]);
    expect(piece.byteEnd).toBeGreaterThanOrEqual(piece.byteStart);
    next[piece.segment] = piece.byteEnd;
    covered[piece.segment]! += piece.byteEnd - piece.byteStart;
  }
  segments.forEach((segment, index) => expect(covered[index]).toBe(segment.sizeBytes));
}

function expectNoOverlaps(layout: SegmentsLayout): void {
  for (const row of layout.rows) {
    let right = -Infinity;
    for (let p = row.firstPiece; p < row.endPiece; p++) {
      const piece = layout.pieces[p]!;
      expect(piece.row).toBe(layout.rows.indexOf(row));
      expect(piece.x).toBeGreaterThanOrEqual(right);
      expect(piece.x + piece.width).toBeLessThanOrEqual(layout.width + 1e-6);
      right = piece.x + piece.width;
    }
  }
}

describe('layoutSegments', () => {
  it('gives widths proportional to bytes with one scale for all groups', () => {
    const segments: LayoutSegment[] = [
      { sizeBytes: 2 * MiB, group: 0 },
      { sizeBytes: 20 * MiB, group: 0 },
      { sizeBytes: 8 * MiB, group: 1 },
      { sizeBytes: 2 * MiB, group: 2 },
    ];
    const layout = layoutSegments(segments, options());
    expectTiled(layout, segments);
    expectNoOverlaps(layout);
    const widthOf = (segment: number): number =>
      layout.pieces.filter((p) => p.segment === segment).reduce((sum, p) => sum + p.width, 0);
    for (let i = 0; i < segments.length; i++) {
      expect(widthOf(i)).toBeCloseTo(segments[i]!.sizeBytes * layout.pixelsPerByte, 6);
    }
    expect(widthOf(1) / widthOf(0)).toBeCloseTo(10, 6);
    expect(widthOf(2) / widthOf(3)).toBeCloseTo(4, 6);
  });

  it('starts each group under its own header, in input order', () => {
    const segments: LayoutSegment[] = [
      { sizeBytes: MiB, group: 0 },
      { sizeBytes: MiB, group: 0 },
      { sizeBytes: MiB, group: 5 },
    ];
    const layout = layoutSegments(segments, options());
    expect(layout.groups.map((g) => g.group)).toEqual([0, 5]);
    const [first, second] = layout.groups;
    expect(first!.headerY).toBe(0);
    expect(layout.rows[first!.firstRow]!.y).toBe(DEFAULT_LAYOUT_OPTIONS.headerHeight);
    expect(second!.headerY).toBeGreaterThan(layout.rows[first!.endRow - 1]!.y);
    for (const group of layout.groups) {
      for (let r = group.firstRow; r < group.endRow; r++)
        expect(layout.rows[r]!.group).toBe(group.group);
    }
    expect(second!.endRow).toBe(layout.rows.length);
  });

  it('one segment fills one row', () => {
    const layout = layoutSegments([{ sizeBytes: 64 * MiB, group: 0 }], options());
    expect(layout.rows).toHaveLength(1);
    expect(layout.pieces[0]!.width).toBeGreaterThan(600 * 0.9);
    expect(layout.pieces[0]!.width).toBeLessThanOrEqual(600);
  });

  it('wraps a segment wider than a row over several rows', () => {
    const segments: LayoutSegment[] = [
      { sizeBytes: 2 * MiB, group: 0 },
      { sizeBytes: 2000 * MiB, group: 0 },
    ];
    const layout = layoutSegments(segments, options());
    const big = layout.pieces.filter((p) => p.segment === 1);
    expect(big.length).toBeGreaterThan(1);
    expectTiled(layout, segments);
    expectNoOverlaps(layout);
    // The small one stays visible.
    expect(layout.pieces.find((p) => p.segment === 0)!.width).toBeGreaterThanOrEqual(
      DEFAULT_LAYOUT_OPTIONS.minSegmentPx - 1e-9,
    );
  });

  it('stays readable with 2000 segments: bounded rows, all segments placed', () => {
    const segments: LayoutSegment[] = Array.from({ length: 2000 }, (_, i) => ({
      sizeBytes: (i % 7 === 0 ? 20 : 2) * MiB,
      group: i < 1500 ? 0 : 1,
    }));
    const layout = layoutSegments(segments, options({ width: 1200, viewportHeight: 400 }));
    expectTiled(layout, segments);
    expectNoOverlaps(layout);
    expect(layout.rows.length).toBeLessThanOrEqual(DEFAULT_LAYOUT_OPTIONS.maxRows + 2);
    expect(layout.pieces.every((p) => p.width >= 2)).toBe(true);
    expect(Array.from(layout.firstPieceOfSegment).every((p) => p >= 0)).toBe(true);
  });

  it('has no rows without segments', () => {
    const layout = layoutSegments([], options());
    expect(layout.rows).toEqual([]);
    expect(layout.height).toBe(0);
    expect(chooseScale([], 0, options())).toBe(0);
  });
});

describe('hit testing', () => {
  const segments: LayoutSegment[] = [
    { sizeBytes: 4 * MiB, group: 0 },
    { sizeBytes: 12 * MiB, group: 0 },
    { sizeBytes: 300 * MiB, group: 1 },
  ];
  const layout = layoutSegments(segments, options());

  it('returns the segment and byte under the point for every piece', () => {
    for (const [index, piece] of layout.pieces.entries()) {
      const row = layout.rows[piece.row]!;
      const y = row.y + layout.rowHeight / 2;
      const start = hitTestSegments(layout, piece.x, y);
      expect(start).toMatchObject({ segment: piece.segment, piece: index });
      expect(start!.byteOffset).toBe(piece.byteStart);
      const middle = hitTestSegments(layout, piece.x + piece.width / 2, y)!;
      expect(middle.segment).toBe(piece.segment);
      const expectedMiddle = piece.byteStart + (piece.byteEnd - piece.byteStart) / 2;
      expect(Math.abs(middle.byteOffset - expectedMiddle)).toBeLessThanOrEqual(
        1 / layout.pixelsPerByte,
      );
      const end = hitTestSegments(layout, piece.x + piece.width - 0.01, y)!;
      expect(end.byteOffset).toBeLessThan(piece.byteEnd);
    }
  });

  it('returns null between bars, between rows and under headers', () => {
    const first = layout.pieces[0]!;
    const y = layout.rows[first.row]!.y + 2;
    expect(hitTestSegments(layout, first.x + first.width + 1, y)).toBeNull();
    expect(hitTestSegments(layout, 1, 2)).toBeNull(); // the first header
    expect(hitTestSegments(layout, 1, layout.rows[0]!.y + layout.rowHeight + 1)).toBeNull();
    expect(hitTestSegments(layout, 1, layout.height + 50)).toBeNull();
  });

  it('rowsBetween finds the rows a scrolled view shows', () => {
    const [first, end] = rowsBetween(layout, 0, layout.height);
    expect([first, end]).toEqual([0, layout.rows.length]);
    const [none, noneEnd] = rowsBetween(layout, layout.height + 10, layout.height + 20);
    expect(noneEnd - none).toBe(0);
  });

  it('rectsOfRange places a block on the pieces it spans', () => {
    const big = 2;
    const size = segments[big]!.sizeBytes;
    const rects = rectsOfRange(layout, big, 0, size);
    const total = rects.reduce((sum, rect) => sum + rect.width, 0);
    expect(total).toBeCloseTo(size * layout.pixelsPerByte, 6);
    const one = rectsOfRange(layout, 0, MiB, 2 * MiB);
    expect(one).toHaveLength(1);
    expect(one[0]!.x).toBeCloseTo(layout.pieces[0]!.x + MiB * layout.pixelsPerByte, 6);
  });
});

describe('blockAtAddress', () => {
  // Three blocks tiling [1000, 1600), then a segment [5000, 5100) with one block.
  const address = [1000, 1100, 1400, 5000];
  const size = [100, 300, 200, 100];

  it('finds the block holding an address', () => {
    expect(blockAtAddress(address, size, 0, 3, 1000)).toBe(0);
    expect(blockAtAddress(address, size, 0, 3, 1099)).toBe(0);
    expect(blockAtAddress(address, size, 0, 3, 1100)).toBe(1);
    expect(blockAtAddress(address, size, 0, 3, 1599)).toBe(2);
    expect(blockAtAddress(address, size, 3, 4, 5050)).toBe(3);
  });

  it('returns -1 outside the blocks', () => {
    expect(blockAtAddress(address, size, 0, 3, 999)).toBe(-1);
    expect(blockAtAddress(address, size, 0, 3, 1600)).toBe(-1);
    expect(blockAtAddress(address, size, 3, 3, 5000)).toBe(-1);
  });
});
