// Chart colours come from CSS custom properties (timeline.css), so the light and dark themes and
// any later restyling live in CSS; canvas code reads them once per theme change.

import type { BandPalette } from '@shared/chart/band-colors';
import { cssNumberVariable, cssVariable } from './css-variables';

export interface ChartTheme {
  text: string;
  textMuted: string;
  grid: string;
  otherFill: string;
  activeLine: string;
  reservedLine: string;
  reservedFill: string;
  peakActive: string;
  peakReserved: string;
  oom: string;
  moment: string;
  selection: string;
  selectionHalo: string;
  hover: string;
  annotationFill: string;
  annotationLane: string;
  crosshair: string;
  bandSeparator: string;
  overviewActive: string;
  overviewReserved: string;
  palette: BandPalette;
  font: string;
}

export function readChartTheme(element: Element): ChartTheme {
  const style = getComputedStyle(element);
  const v = (name: string, fallback: string): string => cssVariable(style, name, fallback);
  return {
    text: v('--tl-text', '#1c2230'),
    textMuted: v('--tl-text-muted', '#5b6475'),
    grid: v('--tl-grid', 'rgb(28 34 48 / 8%)'),
    otherFill: v('--tl-other', '#c9ced6'),
    activeLine: v('--tl-active-line', '#3b4252'),
    reservedLine: v('--tl-reserved-line', '#6b7fa8'),
    reservedFill: v('--tl-reserved-fill', 'rgb(107 127 168 / 12%)'),
    peakActive: v('--tl-peak-active', '#2f6fed'),
    peakReserved: v('--tl-peak-reserved', '#7b61c9'),
    oom: v('--tl-oom', '#d93b3b'),
    moment: v('--tl-moment', '#1c2230'),
    selection: v('--tl-selection', '#1c2230'),
    selectionHalo: v('--tl-selection-halo', '#ffffff'),
    hover: v('--tl-hover', 'rgb(28 34 48 / 55%)'),
    annotationFill: v('--tl-annotation-fill', 'rgb(217 161 59 / 7%)'),
    annotationLane: v('--tl-annotation-lane', '#d9a13b'),
    crosshair: v('--tl-crosshair', 'rgb(28 34 48 / 35%)'),
    bandSeparator: v('--tl-band-separator', 'rgb(255 255 255 / 65%)'),
    overviewActive: v('--tl-overview-active', '#9aa3b2'),
    overviewReserved: v('--tl-overview-reserved', 'rgb(107 127 168 / 25%)'),
    palette: {
      saturation: cssNumberVariable(style, '--tl-band-saturation', 48),
      lightness: [
        cssNumberVariable(style, '--tl-band-lightness', 72),
        cssNumberVariable(style, '--tl-band-lightness-alt', 62),
      ],
      noStack: v('--tl-band-no-stack', '#b4bac4'),
    },
    font: `11px ${v('--tl-font-family', 'system-ui, sans-serif')}`,
  };
}
