// The allocator's segments at one moment as a standalone SVG document: one horizontal bar per
// segment, width ∝ bytes on one scale for the whole device, grouped (and labelled) by pool,
// stream and large/small pool; blocks coloured by state (allocated, pending free, cached free),
// expandable segments outlined dashed; a legend with the totals. Used by `allocscope render
// --view segments` and the app's SVG export.
//
// Bars flow left to right and wrap like words in a paragraph (a bar never breaks), so one
// segment or two thousand both fill the picture: the scale is the largest that fits, the
// biggest segment spanning at most one line. Blocks narrower than a pixel are merged per pixel
// column (the colour of the state holding most of it), so the document's size follows the
// picture's pixels, not the number of blocks.

import { formatBytes } from '../units';
import { BlockKind, type AllocatorState, type StateSegment } from '../state/allocator-state';
import {
  figuresByGroup,
  figuresOfState,
  smallHoleThreshold,
  type GroupFigures,
} from '../state/memory-figures';
import { SegmentTypeCode } from '../state/segment-history';
import type { SnapshotView } from '../view/snapshot-view';
import { fillOf, renderTheme, strokeOf, type RenderTheme, type ThemeName } from './render-theme';
import { fitText, num, svgOpen, svgText, textWidth } from './svg-markup';

export interface SegmentsSvgOptions {
  width: number;
  /** Height of the document; when omitted, as tall as the segments need. */
  height?: number;
  theme?: ThemeName;
}

const PAD = 16;
const HEADER_HEIGHT = 76;
const GROUP_TITLE_HEIGHT = 20;
const GROUP_GAP = 10;
const LABEL_HEIGHT = 13;
const LINE_GAP = 5;
const BAR_GAP = 6;
const MIN_BAR_WIDTH = 2;
const LABEL_SIZE = 10;
/** Bar heights tried, tallest first, when the segments must fit a given height. */
const BAR_HEIGHTS = [18, 14, 10, 7, 5, 3, 2] as const;
/** Taller bars, used when the segments fit a given height at full width with room to spare. */
const ROOMY_BAR_HEIGHTS = [56, 44, 34, 26] as const;

interface Group {
  figures: GroupFigures;
  title: string;
  segments: StateSegment[];
}

interface LayoutConfig {
  bytesPerPixel: number;
  barHeight: number;
  labels: boolean;
}

interface PlacedBar {
  segment: StateSegment;
  x: number;
  y: number;
  width: number;
  label: string;
}

interface PlacedGroup {
  group: Group;
  titleY: number;
}

interface FlowLayout {
  bars: PlacedBar[];
  groups: PlacedGroup[];
  height: number;
}

export function renderSegmentsSvg(
  view: SnapshotView,
  deviceIndex: number,
  state: AllocatorState,
  options: SegmentsSvgOptions,
): string {
  const device = view.devices[deviceIndex];
  if (device === undefined) throw new RangeError(`no device at index ${deviceIndex}`);
  const theme = renderTheme(options.theme);
  const width = Math.max(120, options.width);
  const threshold = smallHoleThreshold(device);
  const totals = figuresOfState(state, threshold);
  const groups = groupSegments(view, state, figuresByGroup(state, threshold));
  const lineWidth = width - 2 * PAD;
  const largest = Math.max(1, ...state.segments.map((segment) => segment.sizeBytes));
  const freeBytes = freeBytesBySegment(state);

  const layoutWith = (config: LayoutConfig): FlowLayout =>
    flow(groups, config, lineWidth, freeBytes);
  let config: LayoutConfig = {
    bytesPerPixel: largest / lineWidth,
    barHeight: BAR_HEIGHTS[0],
    labels: true,
  };
  let layout = layoutWith(config);
  const height = options.height === undefined ? layout.height + PAD : Math.max(80, options.height);
  if (options.height !== undefined && layout.height + PAD > height) {
    const fitted = fitToHeight(layoutWith, largest / lineWidth, height - PAD);
    config = fitted.config;
    layout = fitted.layout;
  } else if (options.height !== undefined) {
    // Few segments: taller bars, as long as every bar keeps its full width.
    for (const barHeight of ROOMY_BAR_HEIGHTS) {
      const roomy = { ...config, barHeight };
      const candidate = layoutWith(roomy);
      if (candidate.height + PAD <= height) {
        config = roomy;
        layout = candidate;
        break;
      }
    }
  }

  const parts: string[] = [];
  const title = titleOf(view, device.device, device.traceLength, state.event);
  parts.push(svgOpen(width, height, theme.fontFamily, title));
  parts.push(`<rect width="100%" height="100%" ${fillOf(theme.background)}/>`);
  parts.push(svgText(title, { x: PAD, y: 20, fill: theme.text, size: 13, weight: 'bold' }));
  const totalsLine = [
    `reserved ${formatBytes(totals.reservedBytes)}`,
    `allocated ${formatBytes(totals.blockBytes)} (requested ${formatBytes(totals.activeBytes)})`,
    `cached free ${formatBytes(totals.cachedFreeBytes)} in ${totals.freeBlockCount} blocks`,
    `largest hole ${formatBytes(totals.largestFreeBytes)}`,
    `${totals.segmentCount} segments`,
  ].join(' · ');
  parts.push(
    svgText(fitText(totalsLine, lineWidth, 12), { x: PAD, y: 40, fill: theme.text, size: 12 }),
  );
  parts.push(legend(theme, 58));

  if (state.segments.length === 0) {
    parts.push(
      svgText('no segments at this moment', {
        x: PAD,
        y: HEADER_HEIGHT + 14,
        fill: theme.textMuted,
      }),
    );
  }
  for (const placed of layout.groups) {
    const { figures } = placed.group;
    const text =
      `${placed.group.title} — ${figures.segmentCount} segment${figures.segmentCount === 1 ? '' : 's'}, ` +
      `${formatBytes(figures.reservedBytes)} reserved, ${formatBytes(figures.cachedFreeBytes)} cached free, ` +
      `largest hole ${formatBytes(figures.largestFreeBytes)}`;
    if (placed.titleY + 4 <= height)
      parts.push(
        svgText(fitText(text, lineWidth, 12), {
          x: PAD,
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
        x: width - PAD,
        y: height - 4,
        fill: theme.oom,
        anchor: 'end',
      }),
    );
  }
  parts.push('</svg>');
  return parts.join('\n');
}

function titleOf(view: SnapshotView, device: number, traceLength: number, event: number): string {
  let moment: string;
  if (traceLength === 0 || event >= traceLength - 1) moment = 'final state';
  else if (event < 0) moment = 'state before the first event';
  else
    moment = `state after event ${event.toLocaleString('en-US')} of ${traceLength.toLocaleString('en-US')}`;
  return `${view.fileName} · device ${device} · allocator segments, ${moment}`;
}

export function poolName(view: SnapshotView, poolIndex: number): string {
  return poolIndex === 0 ? 'default pool' : `private pool (${view.pools[poolIndex] ?? poolIndex})`;
}

export function streamName(view: SnapshotView, streamId: number): string {
  const raw = view.streams[streamId] ?? streamId;
  return raw === 0 ? 'default stream' : `stream 0x${raw.toString(16)}`;
}

export function segmentTypeName(segmentType: number): string {
  if (segmentType === SegmentTypeCode.large) return 'large';
  if (segmentType === SegmentTypeCode.small) return 'small';
  return 'unknown';
}

function groupSegments(
  view: SnapshotView,
  state: AllocatorState,
  figures: GroupFigures[],
): Group[] {
  return figures.map((group) => {
    const segments = state.segments
      .filter(
        (segment) =>
          segment.poolIndex === group.poolIndex &&
          segment.streamId === group.streamId &&
          segment.segmentType === group.segmentType,
      )
      .sort((a, b) => b.sizeBytes - a.sizeBytes || a.address - b.address);
    const type =
      group.segmentType === SegmentTypeCode.unknown
        ? 'segments'
        : `${segmentTypeName(group.segmentType)} segments`;
    return {
      figures: group,
      title: `${poolName(view, group.poolIndex)} · ${streamName(view, group.streamId)} · ${type}`,
      segments,
    };
  });
}

function freeBytesBySegment(state: AllocatorState): Map<StateSegment, number> {
  const free = new Map<StateSegment, number>();
  for (const segment of state.segments) {
    let bytes = 0;
    for (let b = segment.firstBlock; b < segment.endBlock; b++)
      if (state.blocks.kind[b] === BlockKind.free) bytes += state.blocks.sizeBytes[b]!;
    free.set(segment, bytes);
  }
  return free;
}

function barLabel(segment: StateSegment, freeBytes: number, width: number): string {
  const size = formatBytes(segment.sizeBytes);
  const free = freeBytes > 0 ? ` · ${formatBytes(freeBytes)} free` : ' · full';
  const candidates = [
    `${size}${free}${segment.isExpandable ? ' · expandable' : ''}`,
    `${size}${segment.isExpandable ? ' exp.' : ''}`,
    size,
  ];
  return candidates.find((text) => textWidth(text, LABEL_SIZE) + 2 <= width) ?? '';
}

/** Places groups and bars; lines get a label row when a bar on them has a label. */
function flow(
  groups: readonly Group[],
  config: LayoutConfig,
  lineWidth: number,
  freeBytes: Map<StateSegment, number>,
): FlowLayout {
  const bars: PlacedBar[] = [];
  const placedGroups: PlacedGroup[] = [];
  let y = HEADER_HEIGHT;
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
      line.push({ segment, x: PAD + x, y: 0, width, label });
      x += width + (config.labels ? BAR_GAP : Math.min(BAR_GAP, Math.max(1, width / 2)));
    }
    closeLine();
    y += GROUP_GAP;
  }
  return { bars, groups: placedGroups, height: y };
}

/** The tallest bars and widest scale whose layout fits `height`; the most compact one otherwise. */
function fitToHeight(
  layoutWith: (config: LayoutConfig) => FlowLayout,
  minBytesPerPixel: number,
  height: number,
): { config: LayoutConfig; layout: FlowLayout } {
  let fallback: { config: LayoutConfig; layout: FlowLayout } | null = null;
  for (const barHeight of BAR_HEIGHTS) {
    for (const labels of barHeight >= 10 ? [true, false] : [false]) {
      // More bytes per pixel packs more bars per line; search the smallest scale that fits.
      let low = minBytesPerPixel;
      let high = minBytesPerPixel * 2 ** 20;
      const at = (bytesPerPixel: number): { config: LayoutConfig; layout: FlowLayout } => {
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

interface Rect {
  x0: number;
  x1: number;
}

/** Rect list per kind for one bar, blocks narrower than a pixel merged per pixel column. */
function barRuns(
  state: AllocatorState,
  bar: PlacedBar,
  out: [Rect[], Rect[]],
  separators: number[],
): void {
  const { blocks } = state;
  const { segment } = bar;
  const scale = bar.width / Math.max(1, segment.sizeBytes);
  const barEnd = bar.x + bar.width;
  let column = -1;
  const cover = [0, 0];
  const emit = (x0: number, x1: number, kind: number): void => {
    const list = out[kind]!;
    const last = list[list.length - 1];
    if (last !== undefined && x0 <= last.x1 + 0.05 && x1 >= last.x0)
      last.x1 = Math.max(last.x1, x1);
    else list.push({ x0, x1 });
  };
  const flush = (): void => {
    if (column >= 0 && cover[0]! + cover[1]! >= 0.35) {
      const kind = cover[0]! >= cover[1]! ? 0 : 1;
      emit(Math.max(bar.x, column), Math.min(barEnd, column + 1), kind);
    }
    column = -1;
    cover[0] = cover[1] = 0;
  };
  let previousWide = false;
  for (let b = segment.firstBlock; b < segment.endBlock; b++) {
    const kind = blocks.kind[b]!;
    const x0 = bar.x + (blocks.address[b]! - segment.address) * scale;
    const x1 = Math.min(barEnd, x0 + blocks.sizeBytes[b]! * scale);
    if (kind === BlockKind.free) {
      previousWide = false;
      continue;
    }
    const wide = x1 - x0 >= 1;
    if (wide) {
      flush();
      // Neighbouring blocks in use, both wide enough to tell apart: a hairline between them.
      if (previousWide && x1 - x0 >= 3 && b > segment.firstBlock) separators.push(x0);
      emit(x0, x1, kind === BlockKind.pendingFree ? 1 : 0);
    } else {
      const at = Math.floor(x0);
      if (at !== column) {
        flush();
        column = at;
      }
      cover[kind === BlockKind.pendingFree ? 1 : 0]! += x1 - x0;
    }
    previousWide = wide && x1 - x0 >= 3;
  }
  flush();
}

function rectPath(rects: readonly Rect[], y: number, height: number): string {
  let d = '';
  for (const rect of rects) {
    const width = rect.x1 - rect.x0;
    if (width <= 0) continue;
    d += `M${num(rect.x0)} ${num(y)}h${num(width)}v${num(height)}h${num(-width)}z`;
  }
  return d;
}

/** The largest free block of the state (the first of equals), -1 when there is none. */
function largestFreeBlock(state: AllocatorState): number {
  const { blocks } = state;
  let best = -1;
  for (let b = 0; b < blocks.count; b++) {
    if (blocks.kind[b] !== BlockKind.free) continue;
    if (best < 0 || blocks.sizeBytes[b]! > blocks.sizeBytes[best]!) best = b;
  }
  return best;
}

function barsMarkup(
  state: AllocatorState,
  bars: readonly PlacedBar[],
  config: LayoutConfig,
  theme: RenderTheme,
  height: number,
  largestHole: number,
): string {
  const h = config.barHeight;
  let background = '';
  let outline = '';
  let expandable = '';
  let allocated = '';
  let pending = '';
  let separators = '';
  let hole = '';
  for (const bar of bars) {
    if (bar.y + h > height) continue;
    const { segment } = bar;
    if (largestHole >= segment.firstBlock && largestHole < segment.endBlock) {
      const scale = bar.width / Math.max(1, segment.sizeBytes);
      const x0 = bar.x + (state.blocks.address[largestHole]! - segment.address) * scale;
      const x1 = Math.max(x0 + 1, x0 + state.blocks.sizeBytes[largestHole]! * scale);
      hole = rectPath(
        [{ x0: x0 + 0.75, x1: Math.max(x0 + 1.5, x1 - 0.75) }],
        bar.y + 0.75,
        h - 1.5,
      );
    }
    const box = rectPath([{ x0: bar.x, x1: bar.x + bar.width }], bar.y, h);
    background += box;
    if (bar.segment.isExpandable) expandable += box;
    else outline += box;
    const runs: [Rect[], Rect[]] = [[], []];
    const cuts: number[] = [];
    barRuns(state, bar, runs, cuts);
    allocated += rectPath(runs[0], bar.y, h);
    pending += rectPath(runs[1], bar.y, h);
    for (const x of cuts) separators += `M${num(x)} ${num(bar.y)}v${num(h)}`;
  }
  const outlineWidth = h >= 7 ? 0.75 : 0.5;
  return [
    `<path class="segments" d="${background}" fill="${theme.cachedFreeBlock}"/>`,
    `<path class="allocated" d="${allocated}" fill="${theme.allocatedBlock}"/>`,
    `<path class="pending-free" d="${pending}" fill="${theme.pendingFreeBlock}"/>`,
    separators === ''
      ? ''
      : `<path d="${separators}" fill="none" ${strokeOf(theme.blockSeparator)} stroke-width="0.75"/>`,
    `<path d="${outline}" fill="none" stroke="${theme.segmentOutline}" stroke-width="${outlineWidth}"/>`,
    expandable === ''
      ? ''
      : `<path class="expandable" d="${expandable}" fill="none" stroke="${theme.expandableOutline}" stroke-width="1" stroke-dasharray="3 2"/>`,
    hole === ''
      ? ''
      : `<path class="largest-hole" d="${hole}" fill="none" stroke="${theme.largestHole}" stroke-width="1.5"/>`,
  ].join('\n');
}

function labelsMarkup(
  bars: readonly PlacedBar[],
  config: LayoutConfig,
  theme: RenderTheme,
  height: number,
): string {
  if (!config.labels) return '';
  const texts = bars
    .filter((bar) => bar.label !== '' && bar.y + config.barHeight <= height)
    .map((bar) =>
      svgText(bar.label, { x: bar.x + 1, y: bar.y - 3, fill: theme.textMuted, size: LABEL_SIZE }),
    );
  return `<g class="labels">${texts.join('')}</g>`;
}

function legend(theme: RenderTheme, y: number): string {
  const items: { label: string; fill: string; stroke?: string; dash?: boolean }[] = [
    { label: 'allocated', fill: theme.allocatedBlock },
    { label: 'pending free (record_stream)', fill: theme.pendingFreeBlock },
    { label: 'cached free', fill: theme.cachedFreeBlock, stroke: theme.segmentOutline },
    { label: 'expandable segment', fill: 'none', stroke: theme.expandableOutline, dash: true },
    { label: 'largest hole', fill: theme.cachedFreeBlock, stroke: theme.largestHole },
  ];
  let x = PAD;
  const parts: string[] = [];
  for (const item of items) {
    const stroke =
      item.stroke === undefined
        ? ''
        : ` stroke="${item.stroke}" stroke-width="1"${item.dash === true ? ' stroke-dasharray="3 2"' : ''}`;
    parts.push(
      `<rect x="${num(x + 0.5)}" y="${num(y - 9.5)}" width="14" height="10" fill="${item.fill}"${stroke}/>`,
    );
    parts.push(svgText(item.label, { x: x + 19, y, fill: theme.textMuted }));
    x += 19 + textWidth(item.label, 11) + 18;
  }
  return `<g class="legend">${parts.join('')}</g>`;
}
