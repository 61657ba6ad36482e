import { describe, expect, it } from 'vitest';
import type { AllocationBand } from '../chart/timeline-layout';
import { bandOutlines, outlinePath } from './band-outlines';

function band(stepEvents: number[], stepOffsets: number[], endEvent: number, sizeBytes = 10) {
  return {
    row: 0,
    sizeBytes,
    stepEvents: Float64Array.from(stepEvents),
    stepOffsets: Float64Array.from(stepOffsets),
    endEvent,
  } satisfies AllocationBand;
}

// One pixel per event, one pixel per byte with y growing downwards from 100.
const xOfEvent = (event: number): number => event;
const yOfBytes = (bytes: number): number => 100 - bytes;

describe('outlinePath', () => {
  it('runs along the top edge and back along the bottom', () => {
    expect(outlinePath([0, 5], [0, 20], 8, 10, yOfBytes)).toBe('M0 90H5V70H8V80H5V100H0Z');
  });
});

describe('bandOutlines', () => {
  it('gives one path per band and counts its steps', () => {
    const outlines = bandOutlines(
      [band([0, 5], [0, 20], 8), band([2], [30], 4)],
      xOfEvent,
      yOfBytes,
    );
    expect(outlines.paths).toEqual(['M0 90H5V70H8V80H5V100H0Z', 'M2 60H4V70H2Z']);
    expect(outlines.steps).toBe(3);
  });

  it('drops steps narrower than half a pixel and repeats of the same offset', () => {
    const outlines = bandOutlines([band([0, 4, 4.1, 6], [0, 20, 5, 5], 9)], xOfEvent, yOfBytes);
    // 4 -> 4.1 rounds to the same half pixel; 6 holds the offset 4.1 already set.
    expect(outlines.steps).toBe(2);
    expect(outlines.paths[0]).toBe('M0 90H4V85H9V95H4V100H0Z');
  });

  it('draws a band thinner than half a pixel everywhere as a hairline', () => {
    const outlines = bandOutlines([band([3, 3.1], [0, 10], 3.2)], xOfEvent, yOfBytes);
    expect(outlines.steps).toBe(1);
    expect(outlines.paths[0]).toBe('M3 90H3.5V100H3Z');
  });
});
