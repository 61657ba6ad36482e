import { describe, expect, it } from 'vitest';
import { testDevice } from '../../../test/support/builders/analyzed-device';
import { eventMarkers, reservedPeakEvent, stackLabelRows } from './timeline-markers';

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

  it('never uses more rows than allowed', () => {
    const labels = [0, 1, 2, 3].map(() => ({ x: 50, width: 60 }));
    expect(Math.max(...stackLabelRows(labels, 8, 2))).toBe(1);
  });
});
