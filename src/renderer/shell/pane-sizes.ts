// The default sizes of a snapshot page's panes (the timeline above, the views below it, the
// selected allocation's panel beside the lower view), for react-resizable-panels, which does the
// dragging and the keys (the tab's store remembers the sizes). Pure, unit-tested: at 1280×720 the defaults keep the
// timeline's plot PLOT_DEFAULT_PX tall and the lower view LOWER_CONTENT_PX of content.

/** The plot's height (the timeline's canvas) the defaults keep where the window allows. */
export const PLOT_DEFAULT_PX = 240;
/** The least plot the timeline keeps when the divider is dragged up. */
export const PLOT_MIN_PX = 80;
/**
 * The timeline's own rows around its plot: the legend line, the marker labels above the plot,
 * the x axis and the overview strip below it (timeline.css, TIMELINE_MARGIN).
 */
export const CHART_CHROME_PX = 124;
/** The lower views' bar (tabs, moment, exports). */
export const LOWER_BAR_PX = 32;
/** The content a lower view gets by default: eight table rows and their heading. */
export const LOWER_CONTENT_PX = 264;
/** The least the lower views keep: their bar and a line or two. */
export const LOWER_MIN_PX = 90;
/** Share of the height the lower views get by default on a tall window. */
export const LOWER_DEFAULT_FRACTION = 0.42;
/** The allocation panel beside the lower view. */
export const SIDE_MIN_PX = 240;
export const SIDE_DEFAULT_FRACTION = 0.28;
export const SIDE_DEFAULT_MIN_PX = 300;
export const SIDE_DEFAULT_MAX_PX = 440;
/** What the lower view keeps beside the allocation panel. */
export const MAIN_MIN_PX = 420;

function clamp(value: number, min: number, max: number): number {
  return Math.round(Math.max(min, Math.min(max, value)));
}

/**
 * The lower views' default height in a body `bodyHeight` tall: their bar and LOWER_CONTENT_PX,
 * or LOWER_DEFAULT_FRACTION of a tall window (the chart the rest); less only where the timeline
 * would keep under PLOT_DEFAULT_PX of plot (then the two share the height in proportion to what
 * each wants).
 */
export function defaultLowerHeight(bodyHeight: number): number {
  const lowerWanted = Math.max(
    LOWER_BAR_PX + LOWER_CONTENT_PX,
    bodyHeight * LOWER_DEFAULT_FRACTION,
  );
  const chartWanted = CHART_CHROME_PX + PLOT_DEFAULT_PX;
  if (lowerWanted + chartWanted <= bodyHeight) return Math.round(lowerWanted);
  const share = (bodyHeight * lowerWanted) / (lowerWanted + chartWanted);
  return clamp(share, Math.min(LOWER_MIN_PX, bodyHeight), bodyHeight);
}

/** The least the timeline pane keeps: its rows and PLOT_MIN_PX of plot. */
export const CHART_MIN_PX = CHART_CHROME_PX + PLOT_MIN_PX;

/** The allocation panel's default width beside a lower view `width` wide. */
export function defaultSideWidth(width: number): number {
  const preferred = clamp(width * SIDE_DEFAULT_FRACTION, SIDE_DEFAULT_MIN_PX, SIDE_DEFAULT_MAX_PX);
  return clamp(preferred, SIDE_MIN_PX, Math.max(SIDE_MIN_PX, width - MAIN_MIN_PX));
}
