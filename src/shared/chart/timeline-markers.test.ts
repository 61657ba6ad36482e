import { describe, expect, it } from 'vitest';
import { testDevice } from '../../../test/support/builders/analyzed-device';
import {
  eventMarkers,
  oomLineWidth,
  oomLineWidthIn,
  reservedPeakEvent,
  stackLabelRows,
} from './timeline-markers';

describe('eventMarkers', () => {
  it('marks both peaks and every OOM', () => {
    const markers = eventMarkers(testDevice());
    expect(markers).toEqual([
      { kind: 'peak-reserved', event: 1, label: 'reserved peak 8.0 KiB' },
      { kind: 'peak-active', event: 2, label: 'active peak 3.5 KiB' },
      { kind: 'oom', event: 1, label: 'OOM: 1.0 GiB requested' },
    ]);
  });

  it('puts the reserved peak before the trace when the baseline is highest', () => {
    const device = testDevice();
    device.figures.reserved.baselineBytes = 9000;
    expect(reservedPeakEvent(device)).toBe(-1);
  });
});

describe('stackLabelRows', () => {
  it('moves overlapping labels to the next row and keeps apart ones on the first', () => {
    expect(
      stackLabelRows([
        { x: 100, width: 80 },
        { x: 130, width: 80 },
        { x: 400, width: 80 },
      ]),
    ).toEqual([0, 1, 0]);
  });

  it('leaves out the labels with no room in the rows allowed, the first ones placed first', () => {
    const labels = [0, 1, 2, 3].map(() => ({ x: 50, width: 60 }));
    expect(stackLabelRows(labels, 8, 2)).toEqual([0, 1, -1, -1]);
    // A label given first keeps the first row even if another starts further left.
    expect(
      stackLabelRows(
        [
          { x: 200, width: 100 },
          { x: 150, width: 100 },
          { x: 400, width: 50 },
        ],
        8,
        1,
      ),
    ).toEqual([0, -1, 0]);
  });
});

describe('oomLineWidth', () => {
  it('draws OOM lines 2 px wide, 1 px where there is more than one per 8 px', () => {
    expect(oomLineWidth(1, 1000)).toBe(2);
    expect(oomLineWidth(125, 1000)).toBe(2);
    expect(oomLineWidth(126, 1000)).toBe(1);
    expect(oomLineWidth(521, 1190)).toBe(1);
  });
});

describe('oomLineWidthIn', () => {
  it('counts only the OOM markers inside the plot', () => {
    const markers = [
      { kind: 'peak-active' as const },
      ...Array.from({ length: 20 }, () => ({ kind: 'oom' as const })),
    ];
    const inside = [50, ...Array.from({ length: 20 }, (_, i) => i * 5)];
    expect(oomLineWidthIn(markers, inside, { left: 0, width: 100 })).toBe(1);
    // The same OOMs left of the plot: none drawn, full width.
    const outside = [50, ...Array.from({ length: 20 }, (_, i) => -1 - i)];
    expect(oomLineWidthIn(markers, outside, { left: 0, width: 100 })).toBe(2);
  });
});
