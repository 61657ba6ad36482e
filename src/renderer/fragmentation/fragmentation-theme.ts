// Colours of the fragmentation chart, from the CSS custom properties of fragmentation.css (and
// the timeline's, for what the two charts share).

import { cssVariable } from '../canvas/css-variables';

export interface FragmentationTheme {
  cached: string;
  cachedFill: string;
  largest: string;
  waste: string;
  small: string;
  smallFill: string;
  grid: string;
  moment: string;
  oom: string;
  peak: string;
  crosshair: string;
}

export function readFragmentationTheme(element: Element): FragmentationTheme {
  const style = getComputedStyle(element);
  const v = (name: string, fallback: string): string => cssVariable(style, name, fallback);
  return {
    cached: v('--frag-cached', '#5f74a6'),
    cachedFill: v('--frag-cached-fill', 'rgb(95 116 166 / 14%)'),
    largest: v('--frag-largest', '#2a9d6f'),
    waste: v('--frag-waste', '#c0602f'),
    small: v('--frag-small', '#b04fb0'),
    smallFill: v('--frag-small-fill', 'rgb(176 79 176 / 14%)'),
    grid: v('--tl-grid', 'rgb(28 34 48 / 7%)'),
    moment: v('--tl-moment', '#1c2230'),
    oom: v('--tl-oom', '#d43c3c'),
    peak: v('--tl-peak-active', '#2f6fed'),
    crosshair: v('--tl-crosshair', 'rgb(28 34 48 / 40%)'),
  };
}
