// The sizes of a snapshot page's panes: the chart above, the lower views (allocations, segments,
// fragmentation, OOM) below it, and the side panel (the selected allocation) on the right. The
// user drags the dividers; sizes are remembered (localStorage) and clamped to the window, so a
// size chosen on a large screen never hides the chart on a small one. Pure, unit-tested.

/** Thickness of a divider, in CSS pixels. */
export const SEPARATOR_PX = 6;
/** The least plot the chart pane keeps when the divider is dragged up. */
export const PLOT_MIN_PX = 80;
/** The plot's height (the chart's canvas) that the default sizes keep where the window allows. */
export const PLOT_DEFAULT_PX = 300;
/**
 * The chart's own rows around the plot (legend, controls, marker labels, x axis, overview strip)
 * until they are measured (chartChromePx).
 */
export const CHART_CHROME_GUESS_PX = 190;
/** The lower views: their bar of tabs and a line or two. */
export const LOWER_MIN_PX = 90;
/** Share of the height the lower views get by default on a tall window. */
export const LOWER_DEFAULT_FRACTION = 0.4;
export const SIDE_MIN_PX = 240;
export const SIDE_DEFAULT_FRACTION = 0.28;
export const SIDE_DEFAULT_MIN_PX = 300;
export const SIDE_DEFAULT_MAX_PX = 440;
/** What the chart and the lower views keep beside the side panel. */
export const MAIN_MIN_PX = 420;

function clamp(value: number, min: number, max: number): number {
  return Math.round(Math.max(min, Math.min(max, value)));
}

/** The chart's rows around its plot, as measured, else the guess. */
function chartChrome(chartChromePx: number | null): number {
  return chartChromePx ?? CHART_CHROME_GUESS_PX;
}

/**
 * The lower views' largest height in a column `columnHeight` tall: the chart keeps its rows and
 * PLOT_MIN_PX of plot.
 */
export function maxLowerHeight(columnHeight: number, chartChromePx: number | null): number {
  const chartMin = chartChrome(chartChromePx) + PLOT_MIN_PX;
  return Math.max(LOWER_MIN_PX, columnHeight - chartMin - SEPARATOR_PX);
}

/**
 * The height the lower views get: the user's choice (or the default) within what fits.
 * `chartChromePx`: the chart pane's height less its plot's, as measured (null: not yet).
 */
export function lowerHeight(
  chosen: number | null,
  columnHeight: number,
  chartChromePx: number | null,
): number {
  const requested = chosen ?? defaultLowerHeight(columnHeight, chartChromePx);
  return clamp(requested, LOWER_MIN_PX, maxLowerHeight(columnHeight, chartChromePx));
}

/**
 * The default: 40% of the column, less where that would leave the plot under PLOT_DEFAULT_PX (a
 * short window keeps a usable chart, and the lower views their minimum).
 */
export function defaultLowerHeight(columnHeight: number, chartChromePx: number | null): number {
  const share = columnHeight * LOWER_DEFAULT_FRACTION;
  const chartDefault = chartChrome(chartChromePx) + PLOT_DEFAULT_PX;
  const leftByChart = columnHeight - chartDefault - SEPARATOR_PX;
  return clamp(
    Math.min(share, leftByChart),
    LOWER_MIN_PX,
    maxLowerHeight(columnHeight, chartChromePx),
  );
}

/** The side panel's largest width in a body `bodyWidth` wide. */
export function maxSideWidth(bodyWidth: number): number {
  return Math.max(SIDE_MIN_PX, bodyWidth - MAIN_MIN_PX - SEPARATOR_PX);
}

export function defaultSideWidth(bodyWidth: number): number {
  const preferred = clamp(
    bodyWidth * SIDE_DEFAULT_FRACTION,
    SIDE_DEFAULT_MIN_PX,
    SIDE_DEFAULT_MAX_PX,
  );
  return clamp(preferred, SIDE_MIN_PX, maxSideWidth(bodyWidth));
}

export function sideWidth(chosen: number | null, bodyWidth: number): number {
  return clamp(chosen ?? defaultSideWidth(bodyWidth), SIDE_MIN_PX, maxSideWidth(bodyWidth));
}

// ---- Remembered sizes --------------------------------------------------------------------------

export type PaneSizeKey = 'lowerHeight' | 'sideWidth';

const STORAGE_KEYS: Readonly<Record<PaneSizeKey, string>> = {
  lowerHeight: 'allocscope.panes.lowerHeight',
  sideWidth: 'allocscope.panes.sideWidth',
};

/** The part of `Storage` used here (localStorage in the page; a Map in tests). */
export interface SizeStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A remembered size, or null (none, or not a size: the default applies). */
export function readPaneSize(storage: SizeStorage | null, key: PaneSizeKey): number | null {
  let text: string | null = null;
  try {
    text = storage?.getItem(STORAGE_KEYS[key]) ?? null;
  } catch {
    return null; // storage refused (private mode, a policy): sizes are not remembered
  }
  if (text === null || !/^\d{1,5}$/.test(text)) return null;
  return Number(text);
}

/** Remembers a size; null forgets it (the default applies again). */
export function writePaneSize(
  storage: SizeStorage | null,
  key: PaneSizeKey,
  value: number | null,
): void {
  try {
    if (value === null) storage?.removeItem(STORAGE_KEYS[key]);
    else storage?.setItem(STORAGE_KEYS[key], String(Math.round(value)));
  } catch {
    // Full or refused: the size holds for this page only.
  }
}

/** The page's localStorage, or null where there is none (or reading it throws). */
export function pageStorage(): SizeStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
