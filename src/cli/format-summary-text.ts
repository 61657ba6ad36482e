// The human-readable summary: one short table per device, binary units, exact bytes on request.
// Each figure carries its glossary name (shared/format/glossary.ts) and what to compare it with.

import { describeStack } from '@shared/analysis/user-frame';
import type { SnapshotFigures } from '@shared/analyzed/device-figures';
import { FIGURE } from '@shared/format/glossary';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import { NO_SEGMENTS_IN_TRACE, snapshotFormName } from '@shared/format/words';
import { alignColumns } from './align-columns';
import { cliDeviceName } from './load-analyzed-snapshot';
import { joinLines } from './text-lines';
import { NO_DEVICES_TEXT } from './no-devices';
import { categoriesAtPeakLines } from './format-categories-at-peak';

export interface TextOptions {
  /** Exact byte counts beside human units. */
  exactBytes: boolean;
}

/** What each figure compares with, in PyTorch's words. */
const SNAPSHOT_COMPARE = {
  reserved: 'memory_reserved(), max_memory_reserved()',
  active: 'requested bytes (memory_stats requested_bytes)',
  allocated: 'rounded blocks, no pending frees: memory_allocated()',
};
const PROFILER_COMPARE = {
  reserved: "the [memory] events' Total Reserved",
  active: "the [memory] events' Bytes, from their Total Allocated",
  allocated: 'Total Allocated at the last event',
};
const TIMELINE_COMPARE = {
  reserved: 'not recorded by a memory timeline',
  active: "the categories' bytes summed: the top of PyTorch's memory timeline plot",
  allocated: 'the same, at the last time',
};

/** Why a trace's device has no reserved figures (a CPU trace: Total Reserved is 0 throughout). */
const WHY_RESERVED_NOT_RECORDED = {
  trace: "the [memory] events' Total Reserved is 0 throughout",
  timeline: 'a memory timeline records no reserved bytes',
};

export function formatSummaryText(figures: SnapshotFigures, options: TextOptions): string {
  const size = (bytes: number): string =>
    options.exactBytes
      ? `${formatBytes(bytes)} (${formatExactBytes(bytes)} B)`
      : formatBytes(bytes);
  const lines: string[] = [];
  lines.push(
    `${figures.fileName}  ${formatBytes(figures.fileBytes)}  ${snapshotFormName(figures.pickleProtocol, figures.source)}`,
  );
  for (const warning of figures.warnings) lines.push(`warning: ${warning}`);
  if (figures.devices.length === 0) lines.push('', NO_DEVICES_TEXT);
  const timeline = figures.source === 'memory-timeline';
  const trace = figures.source === 'profiler-trace';
  const compare = timeline ? TIMELINE_COMPARE : trace ? PROFILER_COMPARE : SNAPSHOT_COMPARE;
  for (const device of figures.devices) {
    const { active, reserved } = device;
    lines.push('');
    lines.push(
      timeline
        ? `${cliDeviceName(device.device)}: ${device.traceEntries} trace entries (changes of a category's bytes)`
        : trace
          ? `${cliDeviceName(device.device)}: ${device.traceEntries} trace entries (memory events); ${NO_SEGMENTS_IN_TRACE}`
          : `${cliDeviceName(device.device)}: ${device.traceEntries} trace entries, ${device.segments} segments, ${device.blocks} blocks`,
    );
    const rows: string[][] = [
      ['', 'final', 'peak', FIGURE.baseline, 'compare with'],
      device.reservedRecorded
        ? [
            FIGURE.reserved,
            size(reserved.finalBytes),
            size(reserved.peakBytes),
            size(reserved.baselineBytes),
            compare.reserved,
          ]
        : [
            FIGURE.reserved,
            'not recorded',
            '',
            '',
            timeline ? WHY_RESERVED_NOT_RECORDED.timeline : WHY_RESERVED_NOT_RECORDED.trace,
          ],
      [
        FIGURE.active,
        size(active.finalBytes),
        size(active.peakBytes),
        size(active.baselineBytes),
        compare.active,
      ],
      [FIGURE.allocated, size(device.allocatedFinalBytes), '', '', compare.allocated],
    ];
    lines.push(...alignColumns(rows).map((row) => `  ${row}`));
    if (active.peakEventIndex >= 0)
      lines.push(`  ${FIGURE.activePeak} after event ${active.peakEventIndex}`);
    const actions = device.actionCounts.map(([name, count]) => `${name} ${count}`);
    if (actions.length > 0) lines.push(`  actions: ${actions.join(', ')}`);
    for (const oom of device.ooms) {
      const free = oom.deviceFreeBytes === null ? 'unknown' : size(oom.deviceFreeBytes);
      lines.push(
        `  OOM at event ${oom.eventIndex}: requested ${size(oom.requestedBytes)}, device free ${free}`,
      );
    }
    lines.push(...categoriesAtPeakLines(device, size));
    // A memory timeline's allocations are its categories' bytes laid out: no addresses or stacks.
    const live = figures.source === 'memory-timeline' ? [] : device.largestAtPeak;
    if (live.length > 0) {
      lines.push(`  largest allocations alive at the ${FIGURE.activePeak} (requested bytes):`);
      const table = live.map((allocation) => [
        size(allocation.bytes),
        `0x${allocation.address.toString(16)}`,
        allocation.allocEventIndex === null
          ? 'before trace'
          : `event ${allocation.allocEventIndex}`,
        describeStack(figures, allocation.stackId),
      ]);
      lines.push(...alignColumns(table).map((row) => `    ${row}`));
    }
  }
  return joinLines(lines);
}
