// Markers of the exported timeline: the peaks and OOMs as vertical lines with their labels above
// the plot (stacked where they would overlap), and the selected moment's line.

import {
  oomLineWidthIn,
  stackLabelRows,
  type EventMarker,
  type MarkerKind,
} from '../chart/timeline-markers';
import type { RenderTheme } from './render-theme';
import { num, svgText, textWidth, type SvgPlot } from './svg-markup';

export interface MarkerStyle {
  color: string;
  /** stroke-dasharray; '' for a solid line. */
  dash: string;
  width: number;
}

export type MarkerStyles = Record<MarkerKind, MarkerStyle>;

/** `oomWidth`: oomLineWidth of the OOMs in the picture. */
export function markerStyles(theme: RenderTheme, oomWidth: 1 | 2 = 2): MarkerStyles {
  return {
    'peak-reserved': { color: theme.peakReserved, dash: '3 3', width: 1 },
    'peak-active': { color: theme.peakActive, dash: '5 3', width: 1 },
    oom: { color: theme.oom, dash: '', width: oomWidth },
  };
}

/** The styles for these markers in this plot: OOM lines thinner where they are dense. */
export function markerStylesFor(
  theme: RenderTheme,
  markers: readonly EventMarker[],
  markerX: (event: number) => number,
  plot: Pick<SvgPlot, 'left' | 'width'>,
): MarkerStyles {
  const xs = markers.map((marker) => markerX(marker.event));
  return markerStyles(theme, oomLineWidthIn(markers, xs, plot));
}

/** One line per marker, on a half pixel where its width is odd so it stays crisp. */
export function markerLines(
  markers: readonly EventMarker[],
  markerX: (event: number) => number,
  plot: SvgPlot,
  styles: MarkerStyles,
): string[] {
  return markers.map((marker) => {
    const style = styles[marker.kind];
    const x = Math.round(markerX(marker.event)) + (style.width % 2 === 1 ? 0.5 : 0);
    return `<path d="M${num(x)} ${num(plot.top)}v${num(plot.height)}" stroke="${style.color}" stroke-width="${style.width}"${style.dash === '' ? '' : ` stroke-dasharray="${style.dash}"`} data-mark="${marker.kind}"/>`;
  });
}

/** The selected moment's line at x (CSS pixels of the document). */
export function momentLine(x: number, plot: SvgPlot, theme: RenderTheme): string {
  const crisp = Math.round(x) + 0.5;
  return `<path d="M${num(crisp)} ${num(plot.top)}v${num(plot.height)}" stroke="${theme.moment}" stroke-width="1" data-mark="moment"/>`;
}

/** Labels of the markers inside the plot's x range, kept within it and stacked where they meet. */
export function markerLabels(
  markers: readonly EventMarker[],
  markerX: (event: number) => number,
  plot: Omit<SvgPlot, 'height'>,
  styles: Record<MarkerKind, { color: string }>,
): string {
  const right = plot.left + plot.width;
  const placed = markers
    .map((marker) => ({ marker, x: markerX(marker.event) }))
    .filter(({ x }) => x >= plot.left - 1 && x <= right + 1)
    .map(({ marker, x }) => {
      const width = textWidth(marker.label, 11) + 8;
      const half = width / 2;
      return { marker, width, x: Math.max(plot.left + half - 6, Math.min(right - half + 6, x)) };
    });
  const rows = stackLabelRows(placed, 8, 3);
  return placed
    .map((label, i) =>
      rows[i]! < 0
        ? ''
        : svgText(label.marker.label, {
            x: label.x,
            y: plot.top - 6 - rows[i]! * 12,
            fill: styles[label.marker.kind].color,
            anchor: 'middle',
          }),
    )
    .join('');
}
