// Where the exported segments picture puts its bars: groups one under the other below the header,
// each under its title, and inside a group the bars left to right, wrapping like words in a
// paragraph (a bar never breaks). A line gets a row of labels above it when a bar on it has one.

import { EXPANDABLE } from '../format/words';
import { formatBytes } from '../format/units';
import type { StateSegment } from '../state/allocator-state';
import type { SvgSegmentGroup } from './segments-svg-groups';
import { textWidth } from './svg-markup';

/** Margin around the picture. */
export const SEGMENTS_SVG_PAD = 16;
/** Room for the title, the totals and the legend above the groups. */
export const SEGMENTS_SVG_HEADER_HEIGHT = 76;
export const SEGMENT_LABEL_SIZE = 10;
const GROUP_TITLE_HEIGHT = 20;
const GROUP_GAP = 10;
const LABEL_HEIGHT = 13;
const LINE_GAP = 5;
const BAR_GAP = 6;
const MIN_BAR_WIDTH = 2;

export interface FlowConfig {
  bytesPerPixel: number;
  barHeight: number;
  labels: boolean;
}

export interface PlacedBar {
  segment: StateSegment;
  x: number;
  y: number;
  width: number;
  /** '' when none fits the bar (or labels are off). */
  label: string;
}

export interface PlacedGroup {
  group: SvgSegmentGroup;
  /** Baseline of the group's title. */
  titleY: number;
}

export interface FlowLayout {
  bars: PlacedBar[];
  groups: PlacedGroup[];
  /** Bottom of the last group, including its gap. */
  height: number;
}

/** The longest of a bar's labels that fits its width; '' when not even its size fits. */
export function barLabel(segment: StateSegment, freeBytes: number, width: number): string {
  const size = formatBytes(segment.sizeBytes);
  const free = freeBytes > 0 ? ` · ${formatBytes(freeBytes)} free` : ' · full';
  const candidates = [
    `${size}${free}${segment.isExpandable ? ` · ${EXPANDABLE}` : ''}`,
    `${size}${segment.isExpandable ? ' exp.' : ''}`,
    size,
  ];
  return candidates.find((text) => textWidth(text, SEGMENT_LABEL_SIZE) + 2 <= width) ?? '';
}

/** Places groups and bars on lines `lineWidth` wide. */
export function flowSegments(
  groups: readonly SvgSegmentGroup[],
  config: FlowConfig,
  lineWidth: number,
  freeBytes: Map<StateSegment, number>,
): FlowLayout {
  const bars: PlacedBar[] = [];
  const placedGroups: PlacedGroup[] = [];
  let y = SEGMENTS_SVG_HEADER_HEIGHT;
  for (const group of groups) {
    placedGroups.push({ group, titleY: y + 14 });
    y += GROUP_TITLE_HEIGHT;
    let line: PlacedBar[] = [];
    let x = 0;
    const closeLine = (): void => {
      if (line.length === 0) return;
      const labelled = config.labels && line.some((bar) => bar.label !== '');
      const barY = y + (labelled ? LABEL_HEIGHT : 0);
      for (const bar of line) bar.y = barY;
      bars.push(...line);
      y = barY + config.barHeight + LINE_GAP;
      line = [];
      x = 0;
    };
    for (const segment of group.segments) {
      const width = Math.min(
        lineWidth,
        Math.max(MIN_BAR_WIDTH, segment.sizeBytes / config.bytesPerPixel),
      );
      if (x > 0 && x + width > lineWidth) closeLine();
      const label = config.labels ? barLabel(segment, freeBytes.get(segment) ?? 0, width) : '';
      line.push({ segment, x: SEGMENTS_SVG_PAD + x, y: 0, width, label });
      x += width + (config.labels ? BAR_GAP : Math.min(BAR_GAP, Math.max(1, width / 2)));
    }
    closeLine();
    y += GROUP_GAP;
  }
  return { bars, groups: placedGroups, height: y };
}
