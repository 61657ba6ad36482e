// The allocator's segments at one moment as a standalone SVG document: one horizontal bar per
// segment, width ∝ bytes on one scale for the whole device, grouped (and labelled) by pool,
// stream and large/small pool; blocks coloured by state (allocated, pending free, cached free),
// expandable segments outlined dashed; a legend with the totals. Used by `allocscope render
// --view segments` and the app's SVG export.
//
// Bars flow left to right and wrap like words in a paragraph (segments-flow.ts) at the largest
// scale that fits (segments-fit.ts); blocks narrower than a pixel are merged per pixel column
// (segment-bar-runs.ts), so the document's size follows the picture's pixels.

import type { AllocatorState } from '../state/allocator-state';
import { figuresByGroup, figuresOfState, smallHoleThreshold } from '../state/memory-figures';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { fillOf, renderTheme, type ThemeName } from './render-theme';
import { fitSegmentsFlow } from './segments-fit';
import {
  flowSegments,
  SEGMENTS_SVG_HEADER_HEIGHT,
  SEGMENTS_SVG_PAD,
  type FlowConfig,
} from './segments-flow';
import { barsMarkup, labelsMarkup } from './segments-svg-bars';
import { freeBytesBySegment, largestFreeBlock, svgSegmentGroups } from './segments-svg-groups';
import {
  groupTitleLine,
  segmentsLegend,
  segmentsSvgTitle,
  totalsLine,
} from './segments-svg-header';
import { fitText, svgOpen, svgText } from './svg-markup';
import { fitTitle } from './fit-title';

export interface SegmentsSvgOptions {
  width: number;
  /** Height of the document; when omitted, as tall as the segments need. */
  height?: number;
  theme?: ThemeName;
}

export function renderSegmentsSvg(
  view: AnalyzedSnapshot,
  deviceIndex: number,
  state: AllocatorState,
  options: SegmentsSvgOptions,
): string {
  const device = view.devices[deviceIndex];
  if (device === undefined) throw new RangeError(`no device at index ${deviceIndex}`);
  const theme = renderTheme(options.theme);
  const pad = SEGMENTS_SVG_PAD;
  const width = Math.max(120, options.width);
  const threshold = smallHoleThreshold(device);
  const totals = figuresOfState(state, threshold);
  const groups = svgSegmentGroups(view, state, figuresByGroup(state, threshold));
  const lineWidth = width - 2 * pad;
  const largest = Math.max(1, ...state.segments.map((segment) => segment.sizeBytes));
  const freeBytes = freeBytesBySegment(state);
  const { config, layout, height } = fitSegmentsFlow(
    (candidate: FlowConfig) => flowSegments(groups, candidate, lineWidth, freeBytes),
    largest / lineWidth,
    options.height,
  );

  const parts: string[] = [];
  const title = segmentsSvgTitle(view, device.device, device.traceLength, state.event);
  parts.push(svgOpen(width, height, theme.fontFamily, title));
  parts.push(`<rect width="100%" height="100%" ${fillOf(theme.background)}/>`);
  parts.push(
    svgText(fitTitle(title, view.fileName, width - 2 * pad, 13), {
      x: pad,
      y: 20,
      fill: theme.text,
      size: 13,
      weight: 'bold',
    }),
  );
  parts.push(
    svgText(fitText(totalsLine(totals), lineWidth, 12), {
      x: pad,
      y: 40,
      fill: theme.text,
      size: 12,
    }),
  );
  parts.push(segmentsLegend(theme, 58));

  if (state.segments.length === 0) {
    parts.push(
      svgText('no segments at this moment', {
        x: pad,
        y: SEGMENTS_SVG_HEADER_HEIGHT + 14,
        fill: theme.textMuted,
      }),
    );
  }
  for (const placed of layout.groups) {
    if (placed.titleY + 4 > height) continue;
    const text = groupTitleLine(placed.group.title, placed.group.figures);
    parts.push(
      svgText(fitText(text, lineWidth, 12), {
        x: pad,
        y: placed.titleY,
        fill: theme.text,
        size: 12,
      }),
    );
  }
  parts.push(barsMarkup(state, layout.bars, config, theme, height, largestFreeBlock(state)));
  parts.push(labelsMarkup(layout.bars, config, theme, height));
  const hidden = layout.bars.filter((bar) => bar.y + config.barHeight > height).length;
  if (hidden > 0) {
    parts.push(
      svgText(`${hidden} more segments do not fit; render taller or wider to see them`, {
        x: width - pad,
        y: height - 4,
        fill: theme.oom,
        anchor: 'end',
      }),
    );
  }
  parts.push('</svg>');
  return parts.join('\n');
}
