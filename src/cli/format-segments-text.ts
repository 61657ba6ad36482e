// `allocscope segments`: the allocator's segments at one moment as text, in the spirit of
// `python -m torch.cuda._memory_viz stats` / segsum: per device the totals (reserved, blocks in
// use split into allocated and pending free, active, and reserved − active split into rounding
// and cached free blocks, the largest hole), the figures per pool / stream / segment type, then
// one line per segment with a block map. Figures carry their glossary names
// (shared/format/glossary.ts), the same the summary and the app give them.

import { BlockKind, type AllocatorState, type StateSegment } from '@shared/state/allocator-state';
import type { GroupFigures, MemoryFigures } from '@shared/state/memory-figures';
import { EXPANDABLE, poolNameAt, segmentTypeName, streamNameAt } from '@shared/format/words';
import { FIGURE } from '@shared/format/glossary';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { alignColumns } from './align-columns';
import { cliDeviceName } from './load-analyzed-snapshot';

export interface SegmentsTextOptions {
  exactBytes: boolean;
}

/** Cells of the block map of each segment. */
export const MAP_CELLS = 32;

export function formatFileHeader(snapshot: AnalyzedSnapshot): string[] {
  const lines = [`${snapshot.fileName}  ${formatBytes(snapshot.fileBytes)}`];
  for (const warning of snapshot.warnings) lines.push(`warning: ${warning}`);
  return lines;
}

export function formatDeviceSegments(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  state: AllocatorState,
  totals: MemoryFigures,
  groups: readonly GroupFigures[],
  options: SegmentsTextOptions,
): string[] {
  const size = (bytes: number): string =>
    options.exactBytes
      ? `${formatBytes(bytes)} (${formatExactBytes(bytes)} B)`
      : formatBytes(bytes);
  const lines: string[] = [];
  const last = device.traceLength - 1;
  const moment =
    state.event >= last
      ? `final state${device.traceLength > 0 ? ` (after event ${last})` : ''}`
      : state.event < 0
        ? 'state before the first event'
        : `state after event ${state.event} of ${device.traceLength}`;
  lines.push(
    `${cliDeviceName(device.device)}: ${moment}, ${totals.segmentCount} segments, ${state.blocks.count} blocks`,
  );
  const free = totals.internalWasteBytes + totals.cachedFreeBytes;
  const internalShare =
    free > 0 ? ` (${((totals.internalWasteBytes / free) * 100).toFixed(1)}% rounding)` : '';
  const pendingBytes = pendingFreeBytes(state);
  const rows: string[][] = [
    [FIGURE.reserved, size(totals.reservedBytes), 'Σ segment sizes: memory_reserved()'],
    [
      FIGURE.inUse,
      size(totals.blockBytes),
      'rounded sizes of blocks in use: memory_stats() active_bytes',
    ],
    [
      `  ${FIGURE.allocated}`,
      size(totals.blockBytes - pendingBytes),
      'without pending frees: memory_allocated()',
    ],
    [`  ${FIGURE.pendingFree}`, size(pendingBytes), 'freed, still used by another stream'],
    [FIGURE.active, size(totals.activeBytes), 'requested bytes of the live allocations'],
    [FIGURE.notActive, size(free), `${FIGURE.rounding} + ${FIGURE.cachedFree}${internalShare}`],
    [
      `  ${FIGURE.rounding}`,
      size(totals.internalWasteBytes),
      'inside blocks in use, beyond the request',
    ],
    [
      `  ${FIGURE.cachedFree}`,
      size(totals.cachedFreeBytes),
      `free blocks: ${totals.freeBlockCount}`,
    ],
    [
      FIGURE.largestFree,
      size(totals.largestFreeBytes),
      'the largest request that fits without a new segment',
    ],
  ];
  if (totals.smallHoleThresholdBytes > 0) {
    rows.push([
      'small holes',
      size(totals.smallFreeBytes),
      `in free blocks < ${formatBytes(totals.smallHoleThresholdBytes)} (a common request size here)`,
    ]);
  }
  lines.push(...alignColumns(rows).map((row) => `  ${row}`));
  lines.push(`  segments: ${segmentCounts(snapshot, state.segments)}`);
  if (state.outsideSegments.length > 0)
    lines.push(`  warning: ${state.outsideSegments.length} live allocations lie in no segment`);
  if (state.clippedBlocks > 0)
    lines.push(
      `  note: ${state.clippedBlocks} estimated block sizes were cut to fit their neighbours`,
    );

  if (groups.length > 0) {
    lines.push('');
    const table: string[][] = [
      [
        'pool',
        'stream',
        'type',
        'segments',
        FIGURE.reserved,
        FIGURE.inUse,
        FIGURE.cachedFree,
        FIGURE.largestFree,
      ],
    ];
    for (const group of groups) {
      table.push([
        poolNameAt(snapshot.pools, group.poolIndex),
        streamNameAt(snapshot.streams, group.streamId),
        segmentTypeName(group.segmentType),
        String(group.segmentCount),
        size(group.reservedBytes),
        size(group.blockBytes),
        size(group.cachedFreeBytes),
        size(group.largestFreeBytes),
      ]);
    }
    lines.push(...alignColumns(table).map((row) => `  ${row}`));
  }

  if (state.segments.length > 0) {
    lines.push('');
    const table: string[][] = [
      [
        'address',
        'size',
        'pool',
        'stream',
        'type',
        'exp',
        FIGURE.inUse,
        FIGURE.cachedFree,
        'blocks',
        'largest hole',
        'map',
      ],
    ];
    for (const segment of state.segments) {
      const figures = segmentFigures(state, segment);
      table.push([
        `0x${segment.address.toString(16)}`,
        size(segment.sizeBytes),
        poolNameAt(snapshot.pools, segment.poolIndex),
        streamNameAt(snapshot.streams, segment.streamId),
        segmentTypeName(segment.segmentType),
        segment.isExpandable ? 'yes' : '-',
        size(figures.usedBytes),
        size(figures.freeBytes),
        String(segment.endBlock - segment.firstBlock),
        size(figures.largestFreeBytes),
        `[${blockMap(state, segment)}]`,
      ]);
    }
    lines.push(...alignColumns(table).map((row) => `  ${row}`));
  }
  return lines;
}

export const MAP_LEGEND =
  `map: ${MAP_CELLS} cells per segment, '#' in use, '.' free, 1-9 tenths in use, ` +
  `'p' mostly pending free (freed, still used by another stream)`;

function segmentCounts(snapshot: AnalyzedSnapshot, segments: readonly StateSegment[]): string {
  const count = (key: (segment: StateSegment) => string): string => {
    const counts = new Map<string, number>();
    for (const segment of segments) counts.set(key(segment), (counts.get(key(segment)) ?? 0) + 1);
    return [...counts].map(([name, n]) => `${name} ${n}`).join(', ');
  };
  if (segments.length === 0) return 'none';
  const expandable = segments.filter((segment) => segment.isExpandable).length;
  return [
    count((segment) => segmentTypeName(segment.segmentType)),
    count((segment) => poolNameAt(snapshot.pools, segment.poolIndex)),
    count((segment) => streamNameAt(snapshot.streams, segment.streamId)),
    `${EXPANDABLE} ${expandable}`,
  ].join(' · ');
}

/** Σ rounded sizes of the blocks pending free (freed by the program, still used by a stream). */
function pendingFreeBytes(state: AllocatorState): number {
  const { blocks } = state;
  let bytes = 0;
  for (const segment of state.segments)
    for (let b = segment.firstBlock; b < segment.endBlock; b++)
      if (blocks.kind[b] === BlockKind.pendingFree) bytes += blocks.sizeBytes[b]!;
  return bytes;
}

interface SegmentFigures {
  usedBytes: number;
  freeBytes: number;
  largestFreeBytes: number;
}

function segmentFigures(state: AllocatorState, segment: StateSegment): SegmentFigures {
  const { blocks } = state;
  const figures = { usedBytes: 0, freeBytes: 0, largestFreeBytes: 0 };
  for (let b = segment.firstBlock; b < segment.endBlock; b++) {
    const bytes = blocks.sizeBytes[b]!;
    if (blocks.kind[b] === BlockKind.free) {
      figures.freeBytes += bytes;
      figures.largestFreeBytes = Math.max(figures.largestFreeBytes, bytes);
    } else figures.usedBytes += bytes;
  }
  return figures;
}

/** The segment in MAP_CELLS equal cells: how much of each is in use. */
export function blockMap(state: AllocatorState, segment: StateSegment): string {
  const { blocks } = state;
  const cellBytes = segment.sizeBytes / MAP_CELLS;
  const used = new Float64Array(MAP_CELLS);
  const pending = new Float64Array(MAP_CELLS);
  if (!(cellBytes > 0)) return ' '.repeat(MAP_CELLS);
  for (let b = segment.firstBlock; b < segment.endBlock; b++) {
    const kind = blocks.kind[b];
    if (kind === BlockKind.free) continue;
    const start = blocks.address[b]! - segment.address;
    const end = start + blocks.sizeBytes[b]!;
    const first = Math.max(0, Math.floor(start / cellBytes));
    const last = Math.min(MAP_CELLS - 1, Math.floor((end - 1) / cellBytes));
    for (let cell = first; cell <= last; cell++) {
      const overlap = Math.min(end, (cell + 1) * cellBytes) - Math.max(start, cell * cellBytes);
      if (overlap <= 0) continue;
      used[cell]! += overlap;
      if (kind === BlockKind.pendingFree) pending[cell]! += overlap;
    }
  }
  let map = '';
  for (let cell = 0; cell < MAP_CELLS; cell++) {
    const share = used[cell]! / cellBytes;
    if (pending[cell]! * 2 > used[cell]! && share > 0.05) map += 'p';
    else if (share >= 0.95) map += '#';
    else if (share <= 0.05) map += '.';
    else map += String(Math.min(9, Math.max(1, Math.round(share * 10))));
  }
  return map;
}
