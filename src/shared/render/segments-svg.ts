// The allocator's segments at one moment as a standalone SVG document: the picture the page's
// segments view draws (segments-svg-picture.ts: the same scene, laid out for the same box and
// scale, the same marks), under a header with the title, the totals and the legend. Used by
// `allocscope render --view segments` and the app's SVG/PNG export.

import { SEGMENTS_PADDING, type SegmentsBox } from '../chart/segments-scene';
import type { AllocatorState } from '../state/allocator-state';
import { figuresOfState, smallHoleThreshold } from '../state/memory-figures';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { fillOf, renderTheme, type ThemeName } from './render-theme';
import {
  SEGMENTS_SVG_HEADER_HEIGHT,
  segmentsLegend,
  segmentsSvgTitle,
  totalsLine,
} from './segments-svg-header';
import { segmentsPictureMarkup } from './segments-svg-picture';
import { fitText, svgOpen, svgText } from './svg-markup';
import { fitTitle } from './fit-title';

export interface SegmentsSvgOptions {
  /**
   * The box the picture is laid out for, as the page lays out its scroll box (width and height in
   * CSS px, the Fit/Detail scale): the same box gives the page's picture. The document is as wide.
   */
  box: SegmentsBox;
  /** Height of the document; rows below it are left out (and counted). Omitted: as tall as the picture. */
  height?: number;
  theme?: ThemeName;
}

/** The least width of the document (css px): room for the header's lines. */
const MIN_WIDTH = 120;

/** The box of a whole document `width` × `height` (css px), the header taken off its height. */
export function segmentsBoxOf(
  width: number,
  height: number,
  scale: SegmentsBox['scale'],
): SegmentsBox {
  return { width, height: Math.max(1, height - SEGMENTS_SVG_HEADER_HEIGHT), scale };
}

export function renderSegmentsSvg(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  state: AllocatorState,
  options: SegmentsSvgOptions,
): string {
  const device = snapshot.devices[deviceIndex];
  if (device === undefined) throw new RangeError(`no device at index ${deviceIndex}`);
  const theme = renderTheme(options.theme);
  const box: SegmentsBox = {
    width: Math.max(MIN_WIDTH, Math.round(options.box.width)),
    height: Math.max(1, Math.round(options.box.height)),
    scale: options.box.scale,
  };
  const width = box.width;
  const lineWidth = width - SEGMENTS_PADDING.left - SEGMENTS_PADDING.right;
  const threshold = smallHoleThreshold(device);
  const top = SEGMENTS_SVG_HEADER_HEIGHT;
  const limit = options.height === undefined ? undefined : Math.max(80, options.height);
  const picture = segmentsPictureMarkup(snapshot, state, threshold, box, top, limit, theme);
  const height = limit ?? Math.max(top + 24, Math.ceil(picture.bottom));

  const title = segmentsSvgTitle(snapshot, device.device, device.traceLength, state.event);
  const parts = [
    svgOpen(width, height, theme.fontFamily, title),
    `<rect width="100%" height="100%" ${fillOf(theme.background)}/>`,
    svgText(fitTitle(title, snapshot.fileName, lineWidth, 13), {
      x: SEGMENTS_PADDING.left,
      y: 20,
      fill: theme.text,
      size: 13,
      weight: 'bold',
    }),
    svgText(fitText(totalsLine(figuresOfState(state, threshold)), lineWidth, 12), {
      x: SEGMENTS_PADDING.left,
      y: 40,
      fill: theme.text,
      size: 12,
    }),
    segmentsLegend(theme, 58),
  ];
  if (state.segments.length === 0)
    parts.push(
      svgText('No segments are reserved at this moment.', {
        x: SEGMENTS_PADDING.left,
        y: top + 14,
        fill: theme.textMuted,
      }),
    );
  parts.push(picture.markup, '</svg>');
  return parts.join('\n');
}
