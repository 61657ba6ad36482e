// The segments picture as SVG markup, from `top` down: the page's segments scene
// (chart/segments-scene.ts: groups, their rows and bars, laid out for a box and a scale) with
// each group's title where the page puts its header, and the marks chart/segments-paint.ts
// decides, drawn through the SVG backend. The segments document (segments-svg.ts) and the OOM
// explainer's document (oom-svg-segments.ts) both draw it.

import { groupSegments } from '../chart/segment-order';
import type { SegmentsLayout } from '../chart/segments-layout';
import { paintSegmentRows, type SegmentsRole } from '../chart/segments-paint';
import { layoutScene, SEGMENTS_PADDING, type SegmentsBox } from '../chart/segments-scene';
import type { AllocatorState } from '../state/allocator-state';
import { figuresByGroup } from '../state/memory-figures';
import { segmentGroupKey, segmentGroupTitle } from '../state/segment-groups';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { palette } from './palette';
import type { RenderTheme } from './render-theme';
import { groupTitleLine } from './segments-svg-header';
import { svgPainter } from './svg-painter';
import { fitText, svgText } from './svg-markup';

/** The hairline between neighbouring blocks: a device pixel of a 2x PNG (the page's default). */
const EXPORT_HAIRLINE = 0.5;
/** Baseline of a group's title below the top of its header band. */
const GROUP_TITLE_BASELINE = 17;

export interface SegmentsPicture {
  markup: string;
  /** Bottom of the picture (the document's y), the rows left out not counted. */
  bottom: number;
}

/**
 * The picture of `state` laid out for `box`, its top at `top`; rows reaching below `limit` (when
 * given) are left out and counted in a note above `limit`.
 */
export function segmentsPictureMarkup(
  snapshot: AnalyzedSnapshot,
  state: AllocatorState,
  smallHoleThresholdBytes: number,
  box: SegmentsBox,
  top: number,
  limit: number | undefined,
  theme: RenderTheme,
): SegmentsPicture {
  const groups = groupSegments(state.segments);
  const scene = layoutScene(state, groups, box.scale, box.width, box.height);
  const { layout } = scene;
  const origin = top + SEGMENTS_PADDING.top;
  const lineWidth = box.width - SEGMENTS_PADDING.left - SEGMENTS_PADDING.right;
  let endRow = 0;
  while (
    endRow < layout.rows.length &&
    (limit === undefined || origin + layout.rows[endRow]!.y + layout.rowHeight <= limit)
  )
    endRow++;

  const parts: string[] = [];
  const figures = new Map(
    figuresByGroup(state, smallHoleThresholdBytes).map((group) => [segmentGroupKey(group), group]),
  );
  for (const placed of layout.groups) {
    const group = groups[placed.group];
    const groupFigures = group === undefined ? undefined : figures.get(group.key);
    const y = origin + placed.headerY + GROUP_TITLE_BASELINE;
    if (group === undefined || groupFigures === undefined) continue;
    if (limit !== undefined && y + 4 > limit) continue;
    const title = groupTitleLine(segmentGroupTitle(snapshot, group), groupFigures);
    parts.push(
      svgText(fitText(title, lineWidth, 12), {
        x: SEGMENTS_PADDING.left,
        y,
        fill: theme.text,
        size: 12,
      }),
    );
  }

  const painter = svgPainter<SegmentsRole>(palette(theme.name).segments);
  paintSegmentRows(scene, painter, {
    firstRow: 0,
    endRow,
    originX: SEGMENTS_PADDING.left,
    originY: origin,
    hairline: EXPORT_HAIRLINE,
  });
  parts.push(
    `<g class="segments-scene" data-scale="${box.scale}" data-box="${Math.round(box.width)} ${Math.round(box.height)}" data-origin="${SEGMENTS_PADDING.left} ${origin}">`,
    painter.markup(),
    '</g>',
  );

  const hidden = hiddenSegments(layout, endRow);
  if (hidden > 0 && limit !== undefined) {
    parts.push(
      svgText(`${hidden} more segments do not fit; render taller or wider to see them`, {
        x: box.width - SEGMENTS_PADDING.right,
        y: limit - 4,
        fill: theme.oom,
        anchor: 'end',
      }),
    );
  }
  return { markup: parts.join('\n'), bottom: origin + layout.height };
}

/** Segments with no piece on rows 0 .. endRow - 1. */
function hiddenSegments(layout: SegmentsLayout, endRow: number): number {
  if (endRow >= layout.rows.length) return 0;
  const firstHiddenPiece = layout.rows[endRow]!.firstPiece;
  let hidden = 0;
  for (let segment = 0; segment < layout.firstPieceOfSegment.length; segment++)
    if (layout.firstPieceOfSegment[segment]! >= firstHiddenPiece) hidden++;
  return hidden;
}
