// The largest-allocations table as CSV (RFC 4180): the same rows as the page's table at the same
// moment (allocationsAliveAt, largest first, the first LARGEST_TABLE_ROWS), with exact figures
// and whole stacks instead of the table's human units.

import { allocationsAliveAt, BEFORE_TRACE } from '@shared/analysis/allocation-table';
import { topUserFrameIndex } from '@shared/analysis/user-frame';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { eventTimeUs } from '@shared/analyzed/device-times';
import {
  allocationFacts,
  formatAddress,
  frameText,
  stackFrames,
} from '../allocations/allocation-facts';

/** How many rows the largest-allocations table lists, and so its CSV export. */
export const LARGEST_TABLE_ROWS = 100;

export const LARGEST_CSV_COLUMNS = [
  'rank',
  'address',
  'size_bytes',
  'block_bytes',
  'start_event',
  'end_event',
  'start_time_us',
  'lifetime_events',
  'top_user_frame',
  'stack',
] as const;

export type CsvValue = string | number | null;

export interface LargestAllocationRecord {
  /** 1 = the largest. */
  rank: number;
  /** Row of device.allocations. */
  row: number;
  /** "0x…", as the app shows addresses. */
  address: string;
  /** Requested bytes. */
  sizeBytes: number;
  /** The block's rounded bytes where the snapshot records them; null otherwise. */
  blockBytes: number | null;
  /** Index of the alloc entry; null when allocated before the trace. */
  startEvent: number | null;
  /** Index of the entry that freed it; null when alive at the end of the trace. */
  endEvent: number | null;
  /** time_us of the alloc entry as the snapshot records it; null without times or before the trace. */
  startTimeUs: number | null;
  /** Trace entries after which it was alive, clipped to the trace. */
  lifetimeEvents: number;
  topUserFrame: string | null;
  /** Innermost first, as Python tracebacks list them from the allocation. */
  stack: string[];
}

/** The moment a table shows: the selected one, or the device's active peak. */
export function tableEvent(device: AnalyzedDevice, moment: number | null): number {
  return moment ?? device.figures.active.peakEventIndex;
}

export function largestAllocationRecords(
  view: Pick<AnalyzedSnapshot, 'streams' | 'frames' | 'stacks'>,
  device: AnalyzedDevice,
  moment: number | null,
  limit: number = LARGEST_TABLE_ROWS,
): LargestAllocationRecord[] {
  const event = tableEvent(device, moment);
  const table = device.allocations;
  const alive = allocationsAliveAt(table, event).subarray(0, limit);
  return Array.from(alive, (row, index): LargestAllocationRecord => {
    const facts = allocationFacts(view, device, row);
    const frames = stackFrames(view, facts.stackId);
    const userIndex = topUserFrameIndex(frames);
    const start = table.startEvent[row]!;
    return {
      rank: index + 1,
      row,
      address: formatAddress(table.address[row]!),
      sizeBytes: facts.sizeBytes,
      blockBytes: facts.blockSizeBytes,
      startEvent: facts.allocEvent,
      endEvent: facts.freeEvent,
      startTimeUs: start === BEFORE_TRACE ? null : eventTimeUs(device, start),
      lifetimeEvents: facts.lifetimeEvents,
      topUserFrame: userIndex < 0 ? null : frameText(frames[userIndex]!),
      stack: frames.map(frameText),
    };
  });
}

/** One RFC 4180 field: quoted when it holds a quote, comma or line break; quotes doubled. */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? numberText(value) : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Integers in full (no exponent below 2^53), never "NaN". */
function numberText(value: number): string {
  if (!Number.isFinite(value)) return '';
  return Number.isInteger(value) && Math.abs(value) < 1e21
    ? BigInt(value).toString()
    : String(value);
}

/** Lines end in CRLF, the last one too, as RFC 4180 describes. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  const lines = [header, ...rows].map((fields) => fields.map(csvField).join(','));
  return lines.map((line) => `${line}\r\n`).join('');
}

export function largestAllocationsCsv(
  view: Pick<AnalyzedSnapshot, 'streams' | 'frames' | 'stacks'>,
  device: AnalyzedDevice,
  moment: number | null,
): string {
  const records = largestAllocationRecords(view, device, moment);
  return toCsv(
    LARGEST_CSV_COLUMNS,
    records.map((record) => [
      record.rank,
      record.address,
      record.sizeBytes,
      record.blockBytes,
      record.startEvent,
      record.endEvent,
      record.startTimeUs,
      record.lifetimeEvents,
      record.topUserFrame,
      record.stack.join(' <- '),
    ]),
  );
}
