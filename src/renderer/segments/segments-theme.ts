// Colours of the segments chart, from the CSS custom properties of segments.css.

import { cssVariable } from '../canvas/css-variables';

export interface SegmentsTheme {
  allocated: string;
  pendingFree: string;
  free: string;
  outline: string;
  expandable: string;
  hover: string;
  selection: string;
  selectionHalo: string;
}

export function readSegmentsTheme(element: Element): SegmentsTheme {
  const style = getComputedStyle(element);
  const v = (name: string, fallback: string): string => cssVariable(style, name, fallback);
  return {
    allocated: v('--seg-allocated', '#5b84d6'),
    pendingFree: v('--seg-pending-free', '#e0a23a'),
    free: v('--seg-free', '#dde2ea'),
    outline: v('--seg-outline', 'rgb(28 34 48 / 45%)'),
    expandable: v('--seg-expandable', '#7b61c9'),
    hover: v('--seg-hover', 'rgb(17 24 39 / 80%)'),
    selection: v('--seg-selection', '#111827'),
    selectionHalo: v('--seg-selection-halo', '#ffffff'),
  };
}
