// The palette's promises that are about colour itself: "no stack recorded" never reads as the
// merged "smaller allocations", in either theme, whole or hatched; and the segments picture is
// exported in the colours the screen shows.

import { describe, expect, it } from 'vitest';
import { colorDifference, hslToHex } from '../chart/band-colors';
import { flatten, palette, THEME_NAMES } from './palette';

/** Enough for two flat areas side by side to read as different colours at a glance. */
const CLEARLY_DIFFERENT = 20;

describe.each(THEME_NAMES)('the %s palette', (name) => {
  const p = palette(name);
  const { bands, other } = p.timeline;
  // The hatch covers a third of the area: the colour the eye averages it to.
  const stripe = flatten(bands.noStackHatch, bands.noStack);
  const average = flatten({ color: stripe, opacity: 1 / 3 }, bands.noStack);

  it('draws allocations with no stack clearly apart from the merged smaller allocations', () => {
    expect(colorDifference(bands.noStack, other)).toBeGreaterThan(CLEARLY_DIFFERENT);
    expect(colorDifference(average, other)).toBeGreaterThan(CLEARLY_DIFFERENT);
    expect(colorDifference(stripe, other)).toBeGreaterThan(CLEARLY_DIFFERENT / 2);
  });

  it('sets the merged area apart from the background it lies on', () => {
    expect(colorDifference(other, p.ui.surface)).toBeGreaterThan(5);
  });

  it('keeps the no-stack fill apart from the greys of the page', () => {
    for (const grey of [p.ui.surface, p.segments.free]) {
      expect(colorDifference(bands.noStack, grey), grey).toBeGreaterThan(CLEARLY_DIFFERENT);
    }
  });

  it('keeps every band colour apart from the merged area', () => {
    for (let index = 0; index < 24; index++) {
      const hue = [212, 32, 152, 280, 52, 190, 332, 100, 236, 14, 170, 304][index % 12]!;
      const band = hslToHex(hue, bands.saturation, bands.lightness[index < 12 ? 0 : 1]);
      expect(colorDifference(band, other), band).toBeGreaterThan(10);
    }
  });

  it('exports the segments picture in the screen’s colours', () => {
    const exported = p.exportedSegments;
    expect(exported.allocatedBlock).toBe(p.segments.allocated);
    expect(exported.pendingFreeBlock).toBe(p.segments.pendingFree);
    expect(exported.cachedFreeBlock).toBe(p.segments.free);
    expect(exported.expandableOutline).toBe(p.segments.expandable);
    expect(exported.segmentOutline).toBe(flatten(p.segments.outline, p.ui.surface));
    expect(exported.largestHole).toBe(p.segments.largestHole);
    // The hole is marked in the OOM's colour: it is what an OOM request did not fit.
    expect(p.segments.largestHole).toBe(p.timeline.oom);
  });
});

describe('flatten', () => {
  it('lays a translucent colour over an opaque one', () => {
    expect(flatten({ color: '#000000', opacity: 0.5 }, '#ffffff')).toBe('#808080');
    expect(flatten({ color: '#ff0000', opacity: 1 }, '#00ff00')).toBe('#ff0000');
    expect(flatten({ color: '#ff0000', opacity: 0 }, '#00ff00')).toBe('#00ff00');
  });
});
