// The fragmentation chart as a standalone SVG document: the app's picture (src/renderer/
// fragmentation/fragmentation-draw.ts) drawn from the same shared geometry (@shared/chart/
// fragmentation-*): a byte pane with reserved − active (exact, after every event) as an area, the
// largest free block and internal waste as steps through the sampled allocator states, a share
// pane with the part of reserved memory in small holes, the active peak and OOM markers, the
// timeline's x axis, a title, the figures at the marked moment and a legend. Used by
// `allocscope render --view fragmentation` and the app's export of the Fragmentation tab.

import { deviceTimesUsable } from '../analyzed/device-times';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { createEventAxis, type XMode } from '../chart/event-axis';
import { SHARE_TICKS, visibleDomain } from '../chart/fragmentation-layout';
import { layoutFragmentation, type FragmentationRole } from '../chart/fragmentation-scene';
import { eventMarkers } from '../chart/timeline-markers';
import type { FragmentationSeries } from '../state/fragmentation-series';
import { palette, type Paint, type ThemeName } from './palette';
import {
  fragmentationFiguresLine,
  fragmentationLegend,
  fragmentationSvgTitle,
} from './fragmentation-svg-text';
import { fillOf, renderTheme } from './render-theme';
import { fitText, num, svgOpen, svgText, type SvgPlot } from './svg-markup';
import { sceneMarkup, type SvgSceneColors } from './svg-scene';
import { EXPORT_PIXEL_RATIO } from './timeline-svg';
import { xAxisMarkup, yAxisMarkup } from './timeline-svg-axes';
import { markerLabels, markerStylesFor } from './timeline-svg-markers';
import { fitTitle } from './fit-title';
export interface FragmentationSvgOptions {
  /** Size of the document in CSS pixels. */
  width: number;
  height: number;
  /** Events [startEvent, endEvent) to show (the timeline's window); default the whole trace. */
  startEvent?: number;
  endEvent?: number;
  /** The moment marked with a line, whose figures the second line lists. */
  moment?: number | null;
  theme?: ThemeName;
  /** x axis: time since the first event (default where the file has times) or event index. */
  xMode?: XMode;
  /** Device pixels per CSS pixel the plot is laid out at, as a canvas (default 2). */
  devicePixelRatio?: number;
}

/** The class of the chart's group: what tells this picture from the app's other exports. */
export const FRAGMENTATION_SVG_CLASS = 'allocscope-fragmentation';

export const FRAGMENTATION_SVG_MARGIN = { left: 72, right: 20, top: 66, bottom: 46 } as const;
const TITLE_Y = 18;
const FIGURES_Y = 36;
/** The title and the figures start at the left edge, not the plot's, to fit long names. */
const TEXT_LEFT = 16;

/**
 * `series`: the allocator's figures at sampled moments (fragmentationSeries over
 * fragmentationExportMoments), the marked moment among them.
 */
export function renderFragmentationSvg(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  series: FragmentationSeries,
  options: FragmentationSvgOptions,
): string {
  const device = snapshot.devices[deviceIndex];
  if (device === undefined) throw new RangeError(`no device at index ${deviceIndex}`);
  const theme = renderTheme(options.theme);
  const colors = palette(theme.name).fragmentation;
  const width = Math.max(1, options.width);
  const height = Math.max(1, options.height);
  const margin = FRAGMENTATION_SVG_MARGIN;
  const plot: SvgPlot = {
    left: margin.left,
    top: margin.top,
    width: Math.max(1, width - margin.left - margin.right),
    height: Math.max(1, height - margin.top - margin.bottom),
  };
  const axis = createEventAxis(
    device,
    options.xMode ?? (deviceTimesUsable(device) ? 'time' : 'event'),
  );
  const window =
    options.startEvent === undefined || options.endEvent === undefined
      ? null
      : { mode: axis.mode, x0: axis.toX(options.startEvent), x1: axis.toX(options.endEvent) };
  const { x0, x1 } = visibleDomain(axis, window);
  const moment = options.moment ?? null;
  // The plot is the page's scene (chart/fragmentation-scene.ts), laid out as the page lays out a
  // canvas of the plot's size at EXPORT_PIXEL_RATIO.
  const laid = layoutFragmentation({
    device,
    axis,
    samples: { series, windowSeries: null, moment: moment ?? -1, momentFigures: null },
    x0,
    x1,
    width: plot.width,
    height: plot.height,
    devicePixelRatio: options.devicePixelRatio ?? EXPORT_PIXEL_RATIO,
    moment,
  });
  const { panes, ticks } = laid;
  const yBytes = (bytes: number): number => plot.top + laid.yBytes(bytes);
  const yShare = (share: number): number => plot.top + laid.yShare(share);

  const parts: string[] = [];
  const title = fragmentationSvgTitle(snapshot, device, axis, x0, x1, moment);
  parts.push(svgOpen(width, height, theme.fontFamily, title));
  parts.push(`<g class="${FRAGMENTATION_SVG_CLASS}">`);
  parts.push(`<rect width="100%" height="100%" ${fillOf(theme.background)}/>`);
  parts.push(
    `<defs><clipPath id="fragmentation-plot"><rect x="${num(plot.left)}" y="${num(plot.top)}" width="${num(plot.width)}" height="${num(plot.height)}"/></clipPath></defs>`,
  );
  parts.push(
    svgText(fitTitle(title, snapshot.fileName, width - 2 * TEXT_LEFT, 13), {
      x: TEXT_LEFT,
      y: TITLE_Y,
      fill: theme.text,
      size: 13,
      weight: 'bold',
    }),
  );
  const figures = fragmentationFiguresLine(device, series, moment);
  if (figures !== null)
    parts.push(
      svgText(fitText(figures, width - 2 * TEXT_LEFT, 12), {
        x: TEXT_LEFT,
        y: FIGURES_Y,
        fill: theme.text,
        size: 12,
      }),
    );

  parts.push(
    `<g clip-path="url(#fragmentation-plot)"><g class="fragmentation-scene" transform="translate(${num(plot.left)} ${num(plot.top)})" data-origin="${num(plot.left)} ${num(plot.top)}" data-size="${num(plot.width)} ${num(plot.height)}">`,
  );
  parts.push(sceneMarkup(laid.scene.marks, fragmentationSvgColors(theme.name)));
  parts.push('</g></g>');

  // The marker labels above the plot (the page's chart has none).
  const markers = eventMarkers(device).filter((marker) => marker.kind !== 'peak-reserved');
  const markerX = (event: number): number => plot.left + laid.xOfMoment(event);
  const styles = markerStylesFor(theme, markers, markerX, plot);
  if (device.traceLength > 0) parts.push(markerLabels(markers, markerX, plot, styles));
  parts.push(
    yAxisMarkup(
      ticks,
      yBytes,
      { left: plot.left, top: plot.top, height: panes.bytesHeight },
      theme,
    ),
  );
  parts.push(
    shareAxisMarkup(yShare, plot.left, plot.top + panes.shareTop, panes.shareHeight, theme),
  );
  parts.push(xAxisMarkup(axis, device, x0, x1, plot, theme));
  parts.push(fragmentationLegend(theme, colors, plot, height, series.smallHoleThresholdBytes));
  parts.push('</g>');
  parts.push('</svg>');
  return parts.join('\n');
}

/** The share pane's axis: 0 %, 50 %, 100 % of reserved memory. */
function shareAxisMarkup(
  yShare: (share: number) => number,
  left: number,
  top: number,
  height: number,
  theme: ReturnType<typeof renderTheme>,
): string {
  const x = left - 0.5;
  let path = `M${num(x)} ${num(top)}V${num(top + height)}`;
  const labels: string[] = [];
  for (const share of SHARE_TICKS) {
    const y = Math.round(yShare(share)) + 0.5;
    path += `M${num(x - 4)} ${num(y)}h4`;
    labels.push(
      svgText(`${Math.round(share * 100)}%`, {
        x: x - 7,
        y: y + 3.5,
        fill: theme.textMuted,
        anchor: 'end',
      }),
    );
  }
  return `<path d="${path}" fill="none" stroke="${theme.axisLine}"/>${labels.join('')}`;
}

/** The colours of the fragmentation scene's roles in this theme, as the page's canvas reads them. */
function fragmentationSvgColors(name: ThemeName): SvgSceneColors<FragmentationRole> {
  const { fragmentation: frag, timeline } = palette(name);
  const roles: Record<FragmentationRole, Paint | string> = {
    grid: timeline.grid,
    cached: frag.cached,
    cachedFill: frag.cachedFill,
    largest: frag.largest,
    waste: frag.waste,
    small: frag.small,
    smallFill: frag.smallFill,
    peak: timeline.peakActive,
    oom: timeline.oom,
    moment: timeline.moment,
  };
  return { roles };
}
