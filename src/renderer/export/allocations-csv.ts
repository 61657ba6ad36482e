// Every allocation of a device as CSV (RFC 4180): the rows alive at the selected moment first, in
// the largest-allocations table's order (largest first), then every other allocation of the
// trace in trace order, with a column saying which are alive. Exact bytes, times both from the
// trace start (ms, as the app shows them) and as the file records them (epoch µs), the label the
// app shows for each stack and the user's own frames of it.
//
// Whole stacks are not written per row: real stacks run to ~7 KB of text, so a trace with a
// million allocations would make gigabytes; `stack_id` groups rows of one stack instead.
//
// Built in slices (buildAllocationsCsv) so that a million rows never hold the page for long.

import { allocationsAliveAt, BEFORE_TRACE } from '@shared/analysis/allocation-table';
import { isUserFrame, stackLabel } from '@shared/analysis/user-frame';
import {
  allocationDetails,
  hasDetails,
  type AllocationDetails,
} from '@shared/analyzed/allocation-details';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { eventTimeUs } from '@shared/analyzed/device-times';
import { frameText } from '@shared/format/words';
import { NO_STACK } from '@shared/snapshot/model';
import { frameAt, stackFrameIds } from '@shared/snapshot/stack-source';
import { formatAddress } from '../allocations/allocation-facts';
import { csvLine, csvRecords, type CsvLayout, type CsvValue } from './csv-format';
import { PAGE_SLICING, type Slicing } from './slicing';

/** How many rows the largest-allocations table lists (the CSV lists every allocation). */
export const LARGEST_TABLE_ROWS = 100;

/** The moment a table shows: the selected one, or the device's active peak. */
export function tableEvent(device: AnalyzedDevice, moment: number | null): number {
  return moment ?? device.figures.active.peakEventIndex;
}

export const ALLOCATIONS_CSV_COLUMNS = [
  /** 1 = the largest alive at the moment (the table's first row); empty when not alive then. */
  'rank_at_moment',
  'alive_at_moment',
  'address',
  /** Requested bytes (what the tensor asked for). */
  'size_bytes',
  /** The block's rounded bytes, where the snapshot records them (blocks alive at the end). */
  'block_bytes',
  /** cudaStream_t as recorded (0: the default stream). */
  'stream',
  /** Index of the alloc entry; empty when allocated before the trace. */
  'start_event',
  /** Index of the entry that freed it; empty when alive at the end of the trace. */
  'end_event',
  'start_ms_from_trace_start',
  'end_ms_from_trace_start',
  'start_time_us_epoch',
  'end_time_us_epoch',
  /** Trace entries after which it was alive, clipped to the trace. */
  'lifetime_events',
  'top_user_frame',
  'stack_id',
  /** The frames of the user's own code, innermost first, "file:line name <- …". */
  'user_frames',
] as const;

/** Written only when some allocation of the device has them (the newest snapshots). */
export const ALLOCATIONS_CSV_DETAIL_COLUMNS = [
  'user_metadata',
  'compile_context',
  'category',
] as const;

type DetailColumn = (typeof ALLOCATIONS_CSV_DETAIL_COLUMNS)[number];

const DETAIL_VALUE: Record<DetailColumn, (details: AllocationDetails) => string | null> = {
  user_metadata: (details) => details.userMetadata,
  compile_context: (details) => details.compileContext,
  category: (details) => details.category,
};

export interface AllocationsCsvPlan {
  /** The moment whose alive rows come first. */
  event: number;
  /** Rows of device.allocations in output order. */
  order: Int32Array;
  /** The first `aliveCount` rows of `order` are alive at the moment. */
  aliveCount: number;
  header: string[];
  detailColumns: DetailColumn[];
  /** Details of the rows that have any. */
  details: Map<number, AllocationDetails>;
}

/** The rows in output order; the detail columns are added by scanDetails. */
export function planAllocationsCsv(
  device: AnalyzedDevice,
  moment: number | null,
): AllocationsCsvPlan {
  const event = tableEvent(device, moment);
  const table = device.allocations;
  const alive = allocationsAliveAt(table, event);
  const order = new Int32Array(table.count);
  order.set(alive);
  let next = alive.length;
  for (let row = 0; row < table.count; row++) {
    if (!(table.startEvent[row]! <= event && table.endEvent[row]! > event)) order[next++] = row;
  }
  return {
    event,
    order,
    aliveCount: alive.length,
    header: [...ALLOCATIONS_CSV_COLUMNS],
    detailColumns: [],
    details: new Map(),
  };
}

/** Looks up the details of rows [from, to) of the table; returns the detail columns to write. */
export function scanDetails(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  plan: AllocationsCsvPlan,
  from: number,
  to: number,
): void {
  for (let row = from; row < to; row++) {
    const details = allocationDetails(snapshot, device, row);
    if (hasDetails(details)) plan.details.set(row, details);
  }
}

/** After every row was scanned: the detail columns some row has. */
export function finishPlan(plan: AllocationsCsvPlan): void {
  plan.detailColumns = ALLOCATIONS_CSV_DETAIL_COLUMNS.filter((column) => {
    for (const details of plan.details.values())
      if (DETAIL_VALUE[column](details) !== null) return true;
    return false;
  });
  plan.header = [...ALLOCATIONS_CSV_COLUMNS, ...plan.detailColumns];
}

/** Per stack: what the two stack columns say, computed once per stack. */
class StackTexts {
  private readonly labels = new Map<number, { label: string; userFrames: string }>();
  constructor(private readonly snapshot: Pick<AnalyzedSnapshot, 'frames' | 'stacks'>) {}

  of(stackId: number): { label: string; userFrames: string } {
    let texts = this.labels.get(stackId);
    if (texts === undefined) {
      const frames = Array.from(stackFrameIds(this.snapshot, stackId), (frameId) =>
        frameAt(this.snapshot.frames, frameId),
      );
      texts = {
        label: stackLabel(this.snapshot, stackId) ?? '',
        userFrames: frames
          .filter((frame) => isUserFrame(frame.filename, frame.name))
          .map((frame) => frameText(frame, 'full'))
          .join(' <- '),
      };
      this.labels.set(stackId, texts);
    }
    return texts;
  }
}

/** The times from the trace start: milliseconds with the microseconds kept ("1234.567"). */
const LAYOUT: CsvLayout = {
  decimals: new Map(
    (['start_ms_from_trace_start', 'end_ms_from_trace_start'] as const).map((column) => [
      ALLOCATIONS_CSV_COLUMNS.indexOf(column),
      3,
    ]),
  ),
};

/** Writes positions [from, to) of plan.order as CSV lines. */
export function allocationsCsvLines(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  plan: AllocationsCsvPlan,
  from: number,
  to: number,
  stacks: StackTexts = new StackTexts(snapshot),
): string {
  const table = device.allocations;
  const length = device.traceLength;
  const firstUs = eventTimeUs(device, 0);
  const records: CsvValue[][] = [];
  for (let position = from; position < to; position++) {
    const row = plan.order[position]!;
    const alive = position < plan.aliveCount;
    const start = table.startEvent[row]!;
    const end = table.endEvent[row]!;
    const startEvent = start === BEFORE_TRACE ? null : start;
    const endEvent = end >= length ? null : end;
    const startUs = startEvent === null ? null : eventTimeUs(device, startEvent);
    const endUs = endEvent === null ? null : eventTimeUs(device, endEvent);
    const relative = (us: number | null): number | null =>
      us === null || firstUs === null ? null : (us - firstUs) / 1000;
    const blockBytes = table.blockSizeBytes[row]!;
    const stackId = table.stackId[row]!;
    const texts = stackId === NO_STACK ? null : stacks.of(stackId);
    const fields: CsvValue[] = [
      alive ? position + 1 : null,
      alive,
      formatAddress(table.address[row]!),
      table.sizeBytes[row]!,
      Number.isFinite(blockBytes) ? blockBytes : null,
      snapshot.streams[table.streamId[row]!] ?? null,
      startEvent,
      endEvent,
      relative(startUs),
      relative(endUs),
      startUs,
      endUs,
      Math.max(0, Math.min(end, length) - Math.max(start, 0)),
      texts?.label ?? null,
      stackId === NO_STACK ? null : stackId,
      texts?.userFrames ?? null,
    ];
    if (plan.detailColumns.length > 0) {
      const details = plan.details.get(row);
      for (const column of plan.detailColumns)
        fields.push(details === undefined ? null : DETAIL_VALUE[column](details));
    }
    records.push(fields);
  }
  return csvRecords(records, LAYOUT);
}

/** Rows handled between two clock reads. */
const ROWS_PER_CHECK = 500;

/**
 * The whole CSV, built in slices of at most about `slicing.sliceMs`. Text, as the saver hands the
 * text formats to Electron's main process (and the web build's download takes either).
 */
export async function buildAllocationsCsv(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  moment: number | null,
  slicing: Slicing = PAGE_SLICING,
): Promise<string> {
  const plan = planAllocationsCsv(device, moment);
  const count = plan.order.length;
  let sliceStart = slicing.now();
  const maybePause = async (): Promise<void> => {
    if (slicing.now() - sliceStart < slicing.sliceMs) return;
    await slicing.pause();
    sliceStart = slicing.now();
  };
  for (let from = 0; from < count; from += ROWS_PER_CHECK) {
    scanDetails(snapshot, device, plan, from, Math.min(count, from + ROWS_PER_CHECK));
    await maybePause();
  }
  finishPlan(plan);
  const chunks: string[] = [csvLine(plan.header)];
  const stacks = new StackTexts(snapshot);
  for (let from = 0; from < count; from += ROWS_PER_CHECK) {
    const to = Math.min(count, from + ROWS_PER_CHECK);
    chunks.push(allocationsCsvLines(snapshot, device, plan, from, to, stacks));
    await maybePause();
  }
  return chunks.join('');
}
