// Geometry of the timeline as data, shared by the canvas view and any SVG/PNG export: the active
// memory drawn as stacked allocation bands (the classic memory_viz picture), the largest and the
// longest-held ones individually and the rest merged, so the top edge is always the exact active curve; and the
// envelopes of the curves per pixel column (level of detail: never more work than pixels).
//
// x is in event coordinates: an allocation alive over events [start, end) spans x in [start, end)
// (start -1, made before the trace, is clamped to the window). Time mode maps event -> time when
// drawing; the layout never needs to know.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { rowsOverlapping, rowsStartingIn } from '../analyzed/alive-checkpoints';
import { BLOCK_EVENTS, timelineIndexOf, visibleArea } from '../analyzed/timeline-index';

export interface TimelineLayoutRequest {
  device: AnalyzedDevice;
  /** Visible events [startEvent, endEvent). */
  startEvent: number;
  endEvent: number;
  /**
   * Event at which each pixel column starts: columns + 1 entries, non-decreasing, the first
   * startEvent and the last endEvent. Columns may be empty (start == next start) when zoomed in.
   */
  columnStartEvents: Int32Array;
  /** How many allocations are drawn individually (default 400): see selectBandRows. */
  maxBands?: number;
}

export interface AllocationBand {
  /** Row of AnalyzedDevice.allocations. */
  row: number;
  sizeBytes: number;
  /**
   * The band's bottom (bytes) as a step function of x: stepOffsets[i] holds on
   * [stepEvents[i], stepEvents[i + 1]) and the last step up to endEvent.
   */
  stepEvents: Float64Array;
  stepOffsets: Float64Array;
  /** Where the band stops (min of the allocation's end and the window's end). */
  endEvent: number;
}

export interface TimelineLayout {
  startEvent: number;
  endEvent: number;
  /** Drawn individually, stacked from 0 upwards; everything else is "other", up to the active curve. */
  bands: AllocationBand[];
  /**
   * Pairs of indexes into `bands` (flattened: a0, b0, a1, b1, …, each pair lower index first)
   * of bands that touch, one on top of the other, somewhere in the window: what the band
   * colours must keep apart (band-colors.ts).
   */
  adjacentBands: Int32Array;
  /** Per pixel column: range of the active curve within the column (value after each event in it). */
  activeMin: Float64Array;
  activeMax: Float64Array;
  /**
   * false when the file records no reserved bytes (a CPU profiler trace): the reserved curve is
   * not drawn (DeviceFigures.reservedRecorded).
   */
  reservedRecorded: boolean;
  /** Per pixel column: range of the reserved curve. */
  reservedMin: Float64Array;
  reservedMax: Float64Array;
  /** Largest active or reserved value in the window (for fitting the y axis). */
  maxBytes: number;
}

export type TimelineHit =
  | { kind: 'allocation'; row: number }
  /** Bytes of smaller allocations merged into one band at this moment. */
  | { kind: 'other'; bytes: number };

const DEFAULT_MAX_BANDS = 400;
// Windows where fewer allocations start than this are served from the alive checkpoints.
const NARROW_WINDOW_STARTS = 20_000;

export function layoutTimeline(request: TimelineLayoutRequest): TimelineLayout {
  const { device, startEvent, endEvent, columnStartEvents } = request;
  const columns = columnStartEvents.length - 1;
  const envelopes = curveEnvelopes(device, startEvent, columnStartEvents, columns);
  const { bands, adjacentBands } = stackBands(
    device,
    startEvent,
    endEvent,
    request.maxBands ?? DEFAULT_MAX_BANDS,
  );
  return {
    startEvent,
    endEvent,
    bands,
    adjacentBands,
    reservedRecorded: device.figures.reservedRecorded,
    ...envelopes,
  };
}

/** The value of a curve "at" event e: after e; before the first event (-1), its baseline. */
function curveEnvelopes(
  device: AnalyzedDevice,
  startEvent: number,
  columnStartEvents: Int32Array,
  columns: number,
): Pick<TimelineLayout, 'activeMin' | 'activeMax' | 'reservedMin' | 'reservedMax' | 'maxBytes'> {
  const index = timelineIndexOf(device);
  const active = rangeReader(
    device.activeBytes,
    device.figures.active.baselineBytes,
    index.activeBlockMin,
    index.activeBlockMax,
  );
  const reserved = rangeReader(
    device.reservedBytes,
    device.figures.reserved.baselineBytes,
    index.reservedBlockMin,
    index.reservedBlockMax,
  );
  const activeMin = new Float64Array(columns);
  const activeMax = new Float64Array(columns);
  const reservedMin = new Float64Array(columns);
  const reservedMax = new Float64Array(columns);
  let maxBytes = 0;
  // A column with no event of its own shows the value of the last event before it.
  let previousEvent = startEvent - 1;
  for (let column = 0; column < columns; column++) {
    const from = columnStartEvents[column]!;
    const to = columnStartEvents[column + 1]!;
    const [first, last] = to <= from ? [previousEvent, previousEvent + 1] : [from, to];
    if (to > from) previousEvent = to - 1;
    active.read(first, last);
    activeMin[column] = active.min;
    activeMax[column] = active.max;
    reserved.read(first, last);
    reservedMin[column] = reserved.min;
    reservedMax[column] = reserved.max;
    if (active.max > maxBytes) maxBytes = active.max;
    if (reserved.max > maxBytes) maxBytes = reserved.max;
  }
  return { activeMin, activeMax, reservedMin, reservedMax, maxBytes };
}

/** Min and max of a curve over events [from, to), event -1 being the baseline; whole blocks come from the index. */
function rangeReader(
  values: Float64Array,
  baseline: number,
  blockMin: Float64Array,
  blockMax: Float64Array,
) {
  const reader = {
    min: 0,
    max: 0,
    read(from: number, to: number): void {
      let low = Infinity;
      let high = -Infinity;
      const take = (value: number): void => {
        if (value < low) low = value;
        if (value > high) high = value;
      };
      if (from < 0) {
        take(baseline);
        from = 0;
      }
      to = Math.min(to, values.length);
      let event = from;
      while (event < to && event % BLOCK_EVENTS !== 0) take(values[event++]!);
      for (; event + BLOCK_EVENTS <= to; event += BLOCK_EVENTS) {
        const block = event / BLOCK_EVENTS;
        take(blockMin[block]!);
        take(blockMax[block]!);
      }
      while (event < to) take(values[event++]!);
      if (low === Infinity) low = high = baseline;
      reader.min = low;
      reader.max = high;
    },
  };
  return reader;
}

/**
 * The allocations chosen for [startEvent, endEvent) (selectBandRows), stacked in the order
 * they were made: a new one goes on top, a freed one leaves a gap that the ones above close.
 * Also the pairs of bands that come to lie on each other.
 */
function stackBands(
  device: AnalyzedDevice,
  startEvent: number,
  endEvent: number,
  maxBands: number,
): { bands: AllocationBand[]; adjacentBands: Int32Array } {
  const table = device.allocations;
  const selected = selectBandRows(device, startEvent, endEvent, maxBands);
  if (selected.length === 0) return { bands: [], adjacentBands: new Int32Array(0) };
  // Table rows are in the order allocations were made (pre-trace first), which is stacking order.
  selected.sort((a, b) => a - b);
  interface Boundary {
    event: number;
    row: number;
    starts: boolean;
  }
  const boundaries: Boundary[] = [];
  for (const row of selected) {
    boundaries.push({ event: Math.max(table.startEvent[row]!, startEvent), row, starts: true });
    const end = Math.min(table.endEvent[row]!, endEvent);
    if (end < endEvent) boundaries.push({ event: end, row, starts: false });
  }
  // Frees before allocs at the same event, then by row so the stack order is stable.
  boundaries.sort(
    (a, b) => a.event - b.event || Number(a.starts) - Number(b.starts) || a.row - b.row,
  );

  const stack: number[] = [];
  const steps = new Map<number, { events: number[]; offsets: number[] }>();
  const restack = (from: number, event: number): void => {
    let offset = 0;
    for (let i = 0; i < from; i++) offset += table.sizeBytes[stack[i]!]!;
    for (let i = from; i < stack.length; i++) {
      const row = stack[i]!;
      let entry = steps.get(row);
      if (entry === undefined) {
        entry = { events: [], offsets: [] };
        steps.set(row, entry);
      }
      const last = entry.events.length - 1;
      if (last >= 0 && entry.events[last] === event) entry.offsets[last] = offset;
      else if (last < 0 || entry.offsets[last] !== offset) {
        entry.events.push(event);
        entry.offsets.push(offset);
      }
      offset += table.sizeBytes[row]!;
    }
  };
  // Two bands touch when one is pushed onto the other, or when a freed one between them goes.
  const bandOfRow = new Map(selected.map((row, index) => [row, index]));
  const count = selected.length;
  const touching = new Set<number>();
  const touch = (below: number | undefined, above: number | undefined): void => {
    if (below === undefined || above === undefined) return;
    const a = bandOfRow.get(below)!;
    const b = bandOfRow.get(above)!;
    touching.add(Math.min(a, b) * count + Math.max(a, b));
  };
  // Empty allocations take no room: the bands around them are what touch.
  const sized = (from: number, step: 1 | -1): number | undefined => {
    for (let i = from; i >= 0 && i < stack.length; i += step)
      if (table.sizeBytes[stack[i]!]! > 0) return stack[i];
    return undefined;
  };
  for (const boundary of boundaries) {
    if (boundary.starts) {
      stack.push(boundary.row);
      if (table.sizeBytes[boundary.row]! > 0) touch(sized(stack.length - 2, -1), boundary.row);
      restack(stack.length - 1, boundary.event);
    } else {
      const at = stack.indexOf(boundary.row);
      stack.splice(at, 1);
      touch(sized(at - 1, -1), sized(at, 1));
      restack(at, boundary.event);
    }
  }
  const adjacentBands = new Int32Array(touching.size * 2);
  let pair = 0;
  for (const key of touching) {
    adjacentBands[pair++] = Math.floor(key / count);
    adjacentBands[pair++] = key % count;
  }
  const bands = selected.map((row) => {
    const entry = steps.get(row)!;
    return {
      row,
      sizeBytes: table.sizeBytes[row]!,
      stepEvents: Float64Array.from(entry.events),
      stepOffsets: Float64Array.from(entry.offsets),
      endEvent: Math.min(table.endEvent[row]!, endEvent),
    };
  });
  return { bands, adjacentBands };
}

/**
 * Rows of the allocations drawn as bands in [startEvent, endEvent): half of the budget goes to the
 * largest (a big short-lived tensor is what one looks for at a peak), the rest to those covering
 * the most of the picture, bytes × events visible (long-lived weights and optimizer state, which
 * would otherwise vanish into "smaller allocations" on a wide window).
 */
function selectBandRows(
  device: AnalyzedDevice,
  startEvent: number,
  endEvent: number,
  count: number,
): number[] {
  if (count <= 0) return [];
  const table = device.allocations;
  const index = timelineIndexOf(device);
  const bySizeCount = Math.ceil(count / 2);
  // Narrow window: its few allocations come from the alive checkpoints, ranked exactly.
  // (Checkpoints start at event 0; a window reaching before the trace takes the wide path.)
  if (startEvent >= 0 && rowsStartingIn(table, startEvent, endEvent) <= NARROW_WINDOW_STARTS) {
    const overlapping = rowsOverlapping(table, index.aliveCheckpoints(), startEvent, endEvent);
    overlapping.sort((a, b) => table.sizeBytes[b]! - table.sizeBytes[a]! || a - b);
    const chosen = overlapping.slice(0, bySizeCount);
    const rest = overlapping.slice(bySizeCount);
    const area = new Map(rest.map((row) => [row, visibleArea(table, row, startEvent, endEvent)]));
    rest.sort((a, b) => area.get(b)! - area.get(a)! || a - b);
    return chosen.concat(rest.slice(0, count - chosen.length));
  }
  // Wide window: the largest by size classes (visited largest first, so it stops early), then
  // the rows of largest whole-trace area that are in the window, then more of the largest.
  const bySize = largestBySize(device, startEvent, endEvent, count);
  const chosen = bySize.slice(0, bySizeCount);
  const taken = new Set(chosen);
  for (const row of index.rowsByArea()) {
    if (chosen.length >= count) break;
    if (taken.has(row)) continue;
    if (table.startEvent[row]! < endEvent && table.endEvent[row]! > startEvent) {
      chosen.push(row);
      taken.add(row);
    }
  }
  for (const row of bySize) {
    if (chosen.length >= count) break;
    if (!taken.has(row)) chosen.push(row);
  }
  return chosen;
}

/** The `count` largest rows alive somewhere in the window, largest first (ties: earlier rows). */
function largestBySize(
  device: AnalyzedDevice,
  startEvent: number,
  endEvent: number,
  count: number,
): number[] {
  const table = device.allocations;
  const { rowsBySizeClass, classStarts } = timelineIndexOf(device);
  const candidates: number[] = [];
  for (
    let sizeClass = 0;
    sizeClass < classStarts.length - 1 && candidates.length < count;
    sizeClass++
  ) {
    for (let i = classStarts[sizeClass]!; i < classStarts[sizeClass + 1]!; i++) {
      const row = rowsBySizeClass[i]!;
      // The "after event e" convention: alive in the window when start < endEvent and end > startEvent.
      if (table.startEvent[row]! < endEvent && table.endEvent[row]! > startEvent)
        candidates.push(row);
    }
  }
  // The last class visited may hold more than needed: keep the largest (ties: earlier rows).
  candidates.sort((a, b) => table.sizeBytes[b]! - table.sizeBytes[a]! || a - b);
  return candidates.slice(0, count);
}

/** What is under (event, bytes): a drawn allocation, the merged rest, or nothing above the curve. */
export function hitTestTimeline(
  layout: TimelineLayout,
  device: AnalyzedDevice,
  event: number,
  bytes: number,
): TimelineHit | null {
  if (event < layout.startEvent || event >= layout.endEvent || bytes < 0) return null;
  let bandsTop = 0;
  for (const band of layout.bands) {
    const table = device.allocations;
    if (table.startEvent[band.row]! > event || band.endEvent <= event) continue;
    const offset = stepValueAt(band, event);
    bandsTop += band.sizeBytes;
    if (bytes >= offset && bytes < offset + band.sizeBytes)
      return { kind: 'allocation', row: band.row };
  }
  const active =
    event < 0
      ? device.figures.active.baselineBytes
      : device.activeBytes[Math.min(event, device.activeBytes.length - 1)]!;
  if (bytes < active && bytes >= bandsTop) return { kind: 'other', bytes: active - bandsTop };
  return null;
}

/** The band's bottom at event `event` (the step that contains it). */
export function stepValueAt(band: AllocationBand, event: number): number {
  const events = band.stepEvents;
  let low = 0;
  let high = events.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (events[middle]! <= event) low = middle;
    else high = middle - 1;
  }
  return band.stepOffsets[low]!;
}
