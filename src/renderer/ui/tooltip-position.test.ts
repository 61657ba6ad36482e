import { describe, expect, it } from 'vitest';
import { placeTooltip, TOOLTIP_OFFSET } from './tooltip-position';

const stage = { width: 400, height: 300 };
const tooltip = { width: 100, height: 50 };

describe('placeTooltip', () => {
  it('goes right of and below the pointer', () => {
    expect(placeTooltip({ x: 10, y: 20 }, tooltip, stage)).toEqual({
      left: 10 + TOOLTIP_OFFSET,
      top: 20 + TOOLTIP_OFFSET,
    });
  });

  it('flips to the left and above near the stage’s far edges', () => {
    expect(placeTooltip({ x: 350, y: 280 }, tooltip, stage)).toEqual({
      left: 350 - TOOLTIP_OFFSET - 100,
      top: 280 - TOOLTIP_OFFSET - 50,
    });
  });

  it('stays inside a stage too small for either side', () => {
    expect(placeTooltip({ x: 60, y: 40 }, tooltip, { width: 120, height: 60 })).toEqual({
      left: 0,
      top: 0,
    });
    expect(
      placeTooltip({ x: 60, y: 40 }, { width: 200, height: 80 }, { width: 120, height: 60 }),
    ).toEqual({
      left: 0,
      top: 0,
    });
  });
});
