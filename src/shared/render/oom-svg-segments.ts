// The exported OOM explainer's picture of the segments at the failure: the segments picture's
// own layout (segments-flow.ts, segments-fit.ts) and bars (segments-svg-bars.ts), placed under
// the explainer's other sections and fitted to the height left, if any.

import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import type { AllocatorState } from '../state/allocator-state';
import { figuresByGroup, figuresOfState } from '../state/memory-figures';
import type { RenderTheme } from './render-theme';
import { fitSegmentsFlow } from './segments-fit';
import {
  flowSegments,
  SEGMENTS_SVG_HEADER_HEIGHT,
  SEGMENTS_SVG_PAD,
  type FlowConfig,
} from './segments-flow';
import { barsMarkup, labelsMarkup } from './segments-svg-bars';
import { freeBytesBySegment, largestFreeBlock, svgSegmentGroups } from './segments-svg-groups';
import { groupTitleLine, segmentsLegend, totalsLine } from './segments-svg-header';
import { fitText, num, svgText } from './svg-markup';

/** Room for the section's title, totals and legend above the bars. */
const SECTION_HEADER = 58;

/**
 * The section from `top` in a document `width` wide; `height`: what is left of a fixed-height
 * document (undefined: as tall as the segments need). Returns the markup and the height used.
 */
export function oomSegmentsMarkup(
  view: AnalyzedSnapshot,
  state: AllocatorState,
  smallHoleThresholdBytes: number,
  heading: string,
  top: number,
  width: number,
  height: number | undefined,
  theme: RenderTheme,
): { markup: string; height: number } {
  const pad = SEGMENTS_SVG_PAD;
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
      svgText('no segments at this moment', {
        x: pad,
        y: top + SECTION_HEADER + 14,
        fill: theme.textMuted,
      }),
    );
    return { markup: wrap(parts), height: SECTION_HEADER + 24 };
  }
  // The segments picture lays its bars out below its own header; shift them under this one.
  const shift = top + SECTION_HEADER - SEGMENTS_SVG_HEADER_HEIGHT;
  const groups = svgSegmentGroups(view, state, figuresByGroup(state, smallHoleThresholdBytes));
  const largest = Math.max(1, ...state.segments.map((segment) => segment.sizeBytes));
  const freeBytes = freeBytesBySegment(state);
  const fitted = fitSegmentsFlow(
    (candidate: FlowConfig) => flowSegments(groups, candidate, lineWidth, freeBytes),
    largest / lineWidth,
    height === undefined ? undefined : height - SECTION_HEADER + SEGMENTS_SVG_HEADER_HEIGHT,
  );
  const { config, layout } = fitted;
  const inner: string[] = [];
  for (const placed of layout.groups) {
    if (placed.titleY + 4 > fitted.height) continue;
    inner.push(
      svgText(fitText(groupTitleLine(placed.group.title, placed.group.figures), lineWidth, 12), {
        x: pad,
        y: placed.titleY,
        fill: theme.text,
        size: 12,
      }),
    );
  }
  inner.push(barsMarkup(state, layout.bars, config, theme, fitted.height, largestFreeBlock(state)));
  inner.push(labelsMarkup(layout.bars, config, theme, fitted.height));
  const hidden = layout.bars.filter((bar) => bar.y + config.barHeight > fitted.height).length;
  if (hidden > 0) {
    inner.push(
      svgText(`${hidden} more segments do not fit; render taller or wider to see them`, {
        x: width - pad,
        y: fitted.height - 4,
        fill: theme.oom,
        anchor: 'end',
      }),
    );
  }
  parts.push(`<g transform="translate(0 ${num(shift)})">${inner.join('\n')}</g>`);
  return { markup: wrap(parts), height: fitted.height + shift - top };
}

function wrap(parts: readonly string[]): string {
  return `<g class="oom-segments">${parts.join('\n')}</g>`;
}
