import { describe, expect, it } from 'vitest';
import {
  CHART_CHROME_PX,
  LOWER_BAR_PX,
  LOWER_CONTENT_PX,
  LOWER_MIN_PX,
  MAIN_MIN_PX,
  PLOT_DEFAULT_PX,
  SIDE_DEFAULT_MAX_PX,
  SIDE_MIN_PX,
  defaultLowerHeight,
  defaultSideWidth,
} from './pane-sizes';

describe('the default pane sizes', () => {
  it('give a laptop window the plot and the lower content both want', () => {
    const body = CHART_CHROME_PX + PLOT_DEFAULT_PX + LOWER_BAR_PX + LOWER_CONTENT_PX;
    const lower = defaultLowerHeight(body);
    expect(lower - LOWER_BAR_PX).toBeGreaterThanOrEqual(LOWER_CONTENT_PX);
    expect(body - lower - CHART_CHROME_PX).toBeGreaterThanOrEqual(PLOT_DEFAULT_PX);
  });

  it('give a tall window’s lower views their share, the chart the rest', () => {
    expect(defaultLowerHeight(1000)).toBe(420);
    expect(defaultLowerHeight(2000)).toBe(840);
    // Where the share is under what the lower content wants, the bar and the content.
    expect(defaultLowerHeight(700)).toBe(LOWER_BAR_PX + LOWER_CONTENT_PX);
  });

  it('share a short window in proportion, never below the minimum', () => {
    const body = 400;
    const lower = defaultLowerHeight(body);
    expect(lower).toBeGreaterThanOrEqual(LOWER_MIN_PX);
    expect(lower).toBeLessThan(body);
    const wantedLower = LOWER_BAR_PX + LOWER_CONTENT_PX;
    const wantedChart = CHART_CHROME_PX + PLOT_DEFAULT_PX;
    expect(lower / body).toBeCloseTo(wantedLower / (wantedLower + wantedChart), 2);
    expect(defaultLowerHeight(50)).toBe(50);
  });

  it('give the allocation panel its share of the width, within bounds', () => {
    expect(defaultSideWidth(1280)).toBe(Math.round(1280 * 0.28));
    expect(defaultSideWidth(4000)).toBe(SIDE_DEFAULT_MAX_PX);
    // A narrow lower view keeps MAIN_MIN_PX beside the panel where it can.
    expect(defaultSideWidth(MAIN_MIN_PX + 250)).toBe(250);
    expect(defaultSideWidth(300)).toBe(SIDE_MIN_PX);
  });
});
