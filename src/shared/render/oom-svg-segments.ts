// The exported OOM explainer's picture of the segments at the failure: the segments picture
// itself (segments-svg-picture.ts: the segments view's scene and marks), placed under the
// explainer's other sections and fitted to the height left, if any.

import type { SegmentsBox } from '../chart/segments-scene';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import type { AllocatorState } from '../state/allocator-state';
import { figuresOfState } from '../state/memory-figures';
import type { RenderTheme } from './render-theme';
import { segmentsLegend, totalsLine } from './segments-svg-header';
import { segmentsPictureMarkup } from './segments-svg-picture';
import { fitText, svgText } from './svg-markup';

/** Room for the section's title, totals and legend above the bars. */
const SECTION_HEADER = 58;
/** The box the picture is laid out for when the document grows to fit: a view's height. */
const FREE_BOX_HEIGHT = 400;

/**
 * The section from `top` in a document `width` wide (its text `pad` in from the sides);
 * `height`: what is left of a fixed-height document (undefined: as tall as the segments need).
 * Returns the markup and the height used.
 */
export function oomSegmentsMarkup(
  snapshot: AnalyzedSnapshot,
  state: AllocatorState,
  smallHoleThresholdBytes: number,
  heading: string,
  top: number,
  width: number,
  height: number | undefined,
  theme: RenderTheme,
  pad: number,
): { markup: string; height: number } {
  const lineWidth = width - 2 * pad;
  const totals = figuresOfState(state, smallHoleThresholdBytes);
  const parts: string[] = [];
  parts.push(svgText(heading, { x: pad, y: top + 13, fill: theme.text, size: 12, weight: 'bold' }));
  parts.push(
    svgText(fitText(totalsLine(totals), lineWidth, 11), {
      x: pad,
      y: top + 30,
      fill: theme.text,
    }),
  );
  parts.push(segmentsLegend(theme, top + 47));
  if (state.segments.length === 0) {
    parts.push(
      svgText('No segments are reserved at this moment.', {
        x: pad,
        y: top + SECTION_HEADER + 14,
        fill: theme.textMuted,
      }),
    );
    return { markup: wrap(parts), height: SECTION_HEADER + 24 };
  }
  // A fixed height: everything in it (the segments view's Fit); else the view's Detail.
  const box: SegmentsBox =
    height === undefined
      ? { width, height: FREE_BOX_HEIGHT, scale: 'detail' }
      : { width, height: Math.max(1, height - SECTION_HEADER), scale: 'fit' };
  const pictureTop = top + SECTION_HEADER;
  const limit = height === undefined ? undefined : top + height;
  const picture = segmentsPictureMarkup(
    snapshot,
    state,
    smallHoleThresholdBytes,
    box,
    pictureTop,
    limit,
    theme,
  );
  parts.push(picture.markup);
  const bottom = limit === undefined ? picture.bottom : Math.min(limit, picture.bottom);
  return { markup: wrap(parts), height: bottom - top };
}

function wrap(parts: readonly string[]): string {
  return `<g class="oom-segments">${parts.join('\n')}</g>`;
}
