// How big the exported segments picture draws its bars: the scale is the largest that fits (the
// biggest segment spanning at most one line). Without a given height the document grows to fit;
// with one, the bars get shorter, lose their labels and pack tighter until they fit, or taller
// when few segments leave room to spare.

import { SEGMENTS_SVG_PAD, type FlowConfig, type FlowLayout } from './segments-flow';

/** Bar heights tried, tallest first, when the segments must fit a given height. */
const BAR_HEIGHTS = [18, 14, 10, 7, 5, 3, 2] as const;
/** Taller bars, used when the segments fit a given height at full width with room to spare. */
const ROOMY_BAR_HEIGHTS = [56, 44, 34, 26] as const;

export interface FittedFlow {
  config: FlowConfig;
  layout: FlowLayout;
  /** Height of the whole SVG document (user units). */
  height: number;
}

/**
 * The flow for a document of `requestedHeight` (as tall as the bars need when undefined), bars
 * laid out by `layoutWith`; `minBytesPerPixel` puts the largest segment on one full line.
 */
export function fitSegmentsFlow(
  layoutWith: (config: FlowConfig) => FlowLayout,
  minBytesPerPixel: number,
  requestedHeight: number | undefined,
): FittedFlow {
  let config: FlowConfig = {
    bytesPerPixel: minBytesPerPixel,
    barHeight: BAR_HEIGHTS[0],
    labels: true,
  };
  let layout = layoutWith(config);
  const pad = SEGMENTS_SVG_PAD;
  const height =
    requestedHeight === undefined ? layout.height + pad : Math.max(80, requestedHeight);
  if (requestedHeight !== undefined && layout.height + pad > height) {
    const fitted = fitToHeight(layoutWith, minBytesPerPixel, height - pad);
    config = fitted.config;
    layout = fitted.layout;
  } else if (requestedHeight !== undefined) {
    // Few segments: taller bars, as long as every bar keeps its full width.
    for (const barHeight of ROOMY_BAR_HEIGHTS) {
      const roomy = { ...config, barHeight };
      const candidate = layoutWith(roomy);
      if (candidate.height + pad <= height) {
        config = roomy;
        layout = candidate;
        break;
      }
    }
  }
  return { config, layout, height };
}

/** The tallest bars and widest scale whose layout fits `height`; the most compact one otherwise. */
export function fitToHeight(
  layoutWith: (config: FlowConfig) => FlowLayout,
  minBytesPerPixel: number,
  height: number,
): { config: FlowConfig; layout: FlowLayout } {
  let fallback: { config: FlowConfig; layout: FlowLayout } | null = null;
  for (const barHeight of BAR_HEIGHTS) {
    for (const labels of barHeight >= 10 ? [true, false] : [false]) {
      // More bytes per pixel packs more bars per line; search the smallest scale that fits.
      let low = minBytesPerPixel;
      let high = minBytesPerPixel * 2 ** 20;
      const at = (bytesPerPixel: number): { config: FlowConfig; layout: FlowLayout } => {
        const config = { bytesPerPixel, barHeight, labels };
        return { config, layout: layoutWith(config) };
      };
      const widest = at(high);
      if (widest.layout.height > height) {
        if (fallback === null || widest.layout.height < fallback.layout.height) fallback = widest;
        continue;
      }
      const first = at(low);
      if (first.layout.height <= height) return first;
      let best = widest;
      for (let i = 0; i < 40 && high / low > 1.01; i++) {
        const middle = Math.sqrt(low * high);
        const candidate = at(middle);
        if (candidate.layout.height <= height) {
          best = candidate;
          high = middle;
        } else low = middle;
      }
      return best;
    }
  }
  return fallback!;
}
