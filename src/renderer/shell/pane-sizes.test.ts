import { describe, expect, it } from 'vitest';
import {
  CHART_CHROME_GUESS_PX,
  PLOT_MIN_PX,
  LOWER_MIN_PX,
  MAIN_MIN_PX,
  PLOT_DEFAULT_PX,
  SEPARATOR_PX,
  SIDE_MIN_PX,
  defaultLowerHeight,
  defaultSideWidth,
  lowerHeight,
  maxLowerHeight,
  maxSideWidth,
  readPaneSize,
  sideWidth,
  writePaneSize,
  type SizeStorage,
} from './pane-sizes';

class MapStorage implements SizeStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

describe('the lower views’ height', () => {
  it('is 40% of a tall column', () => {
    expect(defaultLowerHeight(1000, 190)).toBe(400);
  });

  it('leaves the plot its default height on a short column, down to the views’ minimum', () => {
    // 620 px: the chart takes its 190 px of rows and 300 of plot, the views the rest.
    expect(defaultLowerHeight(620, 190)).toBe(620 - 190 - PLOT_DEFAULT_PX - SEPARATOR_PX);
    expect(defaultLowerHeight(400, 190)).toBe(LOWER_MIN_PX);
    // Before the chart is measured, a guess of its rows.
    expect(defaultLowerHeight(700, null)).toBe(700 - CHART_CHROME_GUESS_PX - PLOT_DEFAULT_PX - 6);
  });

  it('clamps a chosen height to what leaves the chart its rows and a minimal plot', () => {
    expect(lowerHeight(300, 800, 190)).toBe(300);
    expect(lowerHeight(10, 800, 190)).toBe(LOWER_MIN_PX);
    expect(lowerHeight(5000, 800, 190)).toBe(800 - 190 - PLOT_MIN_PX - SEPARATOR_PX);
    expect(maxLowerHeight(800, 150)).toBe(800 - 150 - PLOT_MIN_PX - SEPARATOR_PX);
    expect(maxLowerHeight(800, null)).toBe(800 - CHART_CHROME_GUESS_PX - PLOT_MIN_PX - 6);
    // A column too short for both: the views keep their minimum.
    expect(lowerHeight(200, 100, 190)).toBe(LOWER_MIN_PX);
  });
});

describe('the side panel’s width', () => {
  it('is 28% of the body by default, within 300-440 px', () => {
    expect(defaultSideWidth(1280)).toBe(358);
    expect(defaultSideWidth(1920)).toBe(440);
    expect(defaultSideWidth(900)).toBe(300);
  });

  it('leaves the chart and the views their minimum width', () => {
    expect(maxSideWidth(1280)).toBe(1280 - MAIN_MIN_PX - SEPARATOR_PX);
    expect(sideWidth(2000, 1280)).toBe(1280 - MAIN_MIN_PX - SEPARATOR_PX);
    expect(sideWidth(100, 1280)).toBe(SIDE_MIN_PX);
    expect(sideWidth(500, 1280)).toBe(500);
    expect(defaultSideWidth(600)).toBe(SIDE_MIN_PX);
  });
});

describe('remembered sizes', () => {
  it('round-trips a size and forgets it on null', () => {
    const storage = new MapStorage();
    expect(readPaneSize(storage, 'lowerHeight')).toBeNull();
    writePaneSize(storage, 'lowerHeight', 321.4);
    expect(readPaneSize(storage, 'lowerHeight')).toBe(321);
    expect(readPaneSize(storage, 'sideWidth')).toBeNull();
    writePaneSize(storage, 'lowerHeight', null);
    expect(readPaneSize(storage, 'lowerHeight')).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it('ignores what is not a size, and storage that throws', () => {
    const storage = new MapStorage();
    storage.items.set('allocscope.panes.sideWidth', '-5');
    expect(readPaneSize(storage, 'sideWidth')).toBeNull();
    storage.items.set('allocscope.panes.sideWidth', 'wide');
    expect(readPaneSize(storage, 'sideWidth')).toBeNull();
    const refusing: SizeStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(readPaneSize(refusing, 'sideWidth')).toBeNull();
    expect(() => writePaneSize(refusing, 'sideWidth', 300)).not.toThrow();
    expect(readPaneSize(null, 'sideWidth')).toBeNull();
  });
});
