// `allocscope report FILE` without --json: the report's findings (the typed objects the document
// is written from, never the document itself) as plain text,
// per device: the figures at the active peak (totals and per pool / stream / segment type), the
// fragmentation over the trace, and each OOM with its verdict (or the "what if" at the peak).

import type {
  DeviceReport,
  MomentFiguresJson,
  OomExplanationJson,
} from '@shared/report/report-document';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import {
  NO_STACK_TEXT,
  poolName,
  segmentGroupPhrase,
  snapshotFormName,
  streamName,
} from '@shared/format/words';
import { alignColumns } from './align-columns';
import { cliDeviceName } from './load-analyzed-snapshot';
import { joinLines } from './text-lines';
import { countOf } from '@shared/format/plural';
import { NO_DEVICES_TEXT } from './no-devices';

export interface ReportTextOptions {
  /** Exact byte counts beside human units. */
  exactBytes?: boolean;
}

/** The report as text: the file's figures from the analyzed snapshot, the findings per device. */
export function formatReportText(
  snapshot: AnalyzedSnapshot,
  reports: readonly DeviceReport[],
  options: ReportTextOptions,
): string {
  const size = (bytes: number): string =>
    options.exactBytes
      ? `${formatBytes(bytes)} (${formatExactBytes(bytes)} B)`
      : formatBytes(bytes);
  const lines: string[] = [];
  lines.push(
    `${snapshot.fileName}  ${formatBytes(snapshot.fileBytes)}  ${snapshotFormName(snapshot.pickleProtocol, snapshot.source)}`,
  );
  for (const warning of snapshot.warnings) lines.push(`warning: ${warning}`);
  if (reports.length === 0) {
    lines.push('', NO_DEVICES_TEXT);
  }
  for (const report of reports) {
    const figures = snapshot.devices.find((device) => device.device === report.device)!.figures;
    lines.push('');
    lines.push(
      `${cliDeviceName(report.device)}: ${figures.traceEntries} trace entries, ${figures.segments} segments at the end, ` +
        `${countOf(report.ooms.length, 'OOM')}`,
    );
    // The allocator's state is its segments: a profiler trace records none, so no figure of it.
    if (report.allocatorNotRecorded !== undefined) lines.push(`  ${report.allocatorNotRecorded}`);
    if (report.holdersAtPeak !== undefined)
      lines.push(...holderLines(report.holdersAtPeak, 'at the active peak', size));
    if (report.atPeak !== null)
      lines.push(...momentLines('at the active peak', report.atPeak, size));
    if (report.atMoment !== null)
      lines.push(...momentLines('at the chosen moment', report.atMoment, size));
    if (report.fragmentationSeries !== null)
      lines.push(...seriesLines(report.fragmentationSeries, size));
    for (const oom of report.ooms) lines.push(...oomLines(oom, size));
    if (report.whatIf !== null) lines.push(...whatIfLines(report.whatIf, size));
  }
  return joinLines(lines);
}

type Size = (bytes: number) => string;

function describeMoment(event: number): string {
  return event < 0 ? 'before the first trace entry' : `after event ${event}`;
}

function momentLines(title: string, figures: MomentFiguresJson, size: Size): string[] {
  const t = figures.totals;
  const lines = [`  ${title} (${describeMoment(figures.event)}):`];
  lines.push(
    `    reserved ${size(t.reservedBytes)}, active ${size(t.activeBytes)}, ` +
      `cached free ${size(t.cachedFreeBytes)} in ${countOf(t.freeBlockCount, 'free block')} ` +
      `(largest ${size(t.largestFreeBytes)}), rounding ${size(t.internalWasteBytes)}`,
  );
  if (t.smallHoleThresholdBytes > 0) {
    const share = t.reservedBytes > 0 ? (100 * t.smallFreeBytes) / t.reservedBytes : 0;
    lines.push(
      `    free blocks smaller than a common request (${formatBytes(t.smallHoleThresholdBytes)}): ` +
        `${size(t.smallFreeBytes)}, ${share.toFixed(1)}% of reserved`,
    );
  }
  if (figures.groups.length > 0) {
    const rows = [
      [
        'pool',
        'stream',
        'segments',
        'reserved',
        'active',
        'cached free',
        'largest free block',
        'free blocks',
      ],
    ];
    for (const g of figures.groups) {
      rows.push([
        poolName(g.pool),
        streamName(g.stream),
        `${g.segmentCount} ${g.segmentType}`,
        size(g.reservedBytes),
        size(g.activeBytes),
        size(g.cachedFreeBytes),
        size(g.largestFreeBytes),
        String(g.freeBlockCount),
      ]);
    }
    lines.push(...alignColumns(rows).map((row) => `      ${row}`));
  }
  return lines;
}

function seriesLines(s: NonNullable<DeviceReport['fragmentationSeries']>, size: Size): string[] {
  if (s.moments.length === 0) return [];
  let worst = 0;
  for (let i = 1; i < s.moments.length; i++) {
    if (s.cachedFreeBytes[i]! > s.cachedFreeBytes[worst]!) worst = i;
  }
  const maxWaste = Math.max(...s.internalWasteBytes);
  return [
    `  fragmentation over the trace (${countOf(s.moments.length, 'sampled moment')}):`,
    `    most cached free ${size(s.cachedFreeBytes[worst]!)} ${describeMoment(s.moments[worst]!)} ` +
      `(reserved ${size(s.reservedBytes[worst]!)}, largest free block ${size(s.largestFreeBytes[worst]!)}, ` +
      `${countOf(s.freeBlockCount[worst]!, 'free block')}); most rounding ${size(maxWaste)}`,
  ];
}

function oomLines(oom: OomExplanationJson, size: Size): string[] {
  const free = oom.deviceFreeBytes === null ? 'unknown' : size(oom.deviceFreeBytes);
  const lines = [
    `  OOM at event ${oom.event}: requested ${size(oom.requestedBytes ?? 0)} ` +
      `(${size(oom.roundedRequestBytes ?? 0)} rounded), device free ${free}`,
    `    reserved ${size(oom.reservedBytes)}, active ${size(oom.activeBytes)}, cached free ` +
      `${size(oom.cachedFreeBytes)} (largest ${size(oom.largestFreeBytes)}); in ` +
      `${segmentGroupPhrase(oom.pool, oom.stream, oom.segmentType)}: cached free ` +
      `${size(oom.poolCachedFreeBytes)}, largest ${size(oom.poolLargestFreeBytes)}`,
    `    verdict (${oom.verdict}): ${oom.verdictText}`,
  ];
  lines.push(...holderLines(oom.holders, '', size));
  return lines;
}

function whatIfLines(whatIf: OomExplanationJson, size: Size): string[] {
  return [`  no OOM; ${whatIf.verdictText}`, ...holderLines(whatIf.holders, '', size)];
}

function holderLines(holders: OomExplanationJson['holders'], when: string, size: Size): string[] {
  if (holders.length === 0) return [];
  const rows = holders.map((holder) => [
    size(holder.bytes),
    countOf(holder.count, 'allocation'),
    holder.topFrame ?? NO_STACK_TEXT,
  ]);
  return [
    `    live allocations${when === '' ? '' : ` ${when}`} by stack, largest first:`,
    ...alignColumns(rows).map((row) => `      ${row}`),
  ];
}
