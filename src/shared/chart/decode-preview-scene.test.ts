import { describe, expect, it } from 'vitest';
import type { CurvePreviewData, CurvePreviewList } from '../analysis/curve-preview';
import { layoutDecodePreview, type DecodePreviewPicture } from './decode-preview-scene';

function list(allocated: number[], reserved: number[], bucketRows = 1): CurvePreviewList {
  const rows = allocated.length * bucketRows;
  return {
    rows,
    bucketRows,
    freeing: 'free_completed',
    allocatedLow: Float64Array.from(allocated, (value) => value - 1),
    allocatedHigh: Float64Array.from(allocated),
    reservedLow: Float64Array.from(reserved),
    reservedHigh: Float64Array.from(reserved),
  };
}

function marksOf(picture: DecodePreviewPicture, tag: string) {
  return picture.marks.filter((mark) => 'tag' in mark && mark.tag === tag);
}

function xs(points: Float64Array): number[] {
  return [...points].filter((_, index) => index % 2 === 0);
}

describe('the picture of the curves while a file decodes', () => {
  const data: CurvePreviewData = {
    lists: [list([10, 30, 20, 40], [64, 64, 64, 64]), list([-8, 16], [0, 32])],
    listCount: 2,
  };

  it('spans the share read of the width, both lists one after the other', () => {
    const half = layoutDecodePreview(data, 0.5, 464, 120)!;
    const { plot } = half;
    expect(half.projectedRows).toBe(12);
    const lines = marksOf(half, 'allocatedLine');
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((mark) => xs((mark as { points: Float64Array }).points));
    // From the plot's left edge to half of its width (6 of 12 projected rows), the second list
    // beginning where the first one's 4 rows end.
    expect(first![0]).toBe(plot.left);
    expect(second![0]).toBeCloseTo(plot.left + (4 / 12) * plot.width);
    expect(Math.max(...second!)).toBeCloseTo(plot.left + (6 / 12) * plot.width);
    const divider = marksOf(half, 'list-start')[0] as { lines: Float64Array };
    expect(divider.lines[0]).toBeCloseTo(plot.left + (4 / 12) * plot.width);

    // All read (or the size unknown): the rows fill the width.
    for (const fraction of [1, null]) {
      const whole = layoutDecodePreview(data, fraction, 464, 120)!;
      expect(whole.projectedRows).toBe(6);
      const last = marksOf(whole, 'allocatedLine')[1] as { points: Float64Array };
      expect(Math.max(...xs(last.points))).toBeCloseTo(whole.plot.left + whole.plot.width);
    }
  });

  it('scales from the lowest to the highest value of any curve, zero included, and labels them', () => {
    const picture = layoutDecodePreview(data, 1, 464, 120)!;
    expect(picture.highBytes).toBe(64);
    expect(picture.lowBytes).toBe(-9);
    const { plot } = picture;
    for (const mark of picture.marks) {
      if (mark.type !== 'polygon' && mark.type !== 'polyline') continue;
      const ys = [...mark.points].filter((_, index) => index % 2 === 1);
      expect(Math.min(...ys)).toBeGreaterThanOrEqual(plot.top - 1e-9);
      expect(Math.max(...ys)).toBeLessThanOrEqual(plot.top + plot.height + 1e-9);
    }
    const reserved = marksOf(picture, 'reservedLine')[0] as { points: Float64Array };
    expect(reserved.points[3]).toBeCloseTo(plot.top);
    const text = picture.marks.find((mark) => mark.type === 'text');
    expect(text?.type === 'text' && text.items.map((item) => item.text)).toEqual([
      '+64 B',
      '−9 B',
      '0',
    ]);
  });

  it('draws nothing before the first row, or with no room', () => {
    expect(layoutDecodePreview({ lists: [], listCount: 0 }, 0.1, 464, 120)).toBeNull();
    expect(layoutDecodePreview({ lists: [list([], [])], listCount: 1 }, 0.1, 464, 120)).toBeNull();
    expect(layoutDecodePreview(data, 0.5, 40, 120)).toBeNull();
  });

  it('a first report (under 2% read) fills the width rather than squeezing the curve to its edge', () => {
    expect(layoutDecodePreview(data, 0.001, 464, 120)!.projectedRows).toBe(6);
  });
});
