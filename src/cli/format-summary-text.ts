// The human-readable summary: one short table per device, binary units, exact bytes on request.
// Each figure carries its glossary name (shared/format/glossary.ts) and what to compare it with.

import { describeStack } from '@shared/analysis/user-frame';
import type { SnapshotFigures } from '@shared/analyzed/device-figures';
import { FIGURE } from '@shared/format/glossary';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import { snapshotFormName } from '@shared/format/words';
import { alignColumns } from './align-columns';
import { cliDeviceName } from './load-analyzed-snapshot';
import { joinLines } from './text-lines';
import { NO_DEVICES_TEXT } from './no-devices';

export interface TextOptions {
  /** Exact byte counts beside human units. */
  exactBytes: boolean;
}

export function formatSummaryText(figures: SnapshotFigures, options: TextOptions): string {
  const size = (bytes: number): string =>
    options.exactBytes
      ? `${formatBytes(bytes)} (${formatExactBytes(bytes)} B)`
      : formatBytes(bytes);
  const lines: string[] = [];
  lines.push(
    `${figures.fileName}  ${formatBytes(figures.fileBytes)}  ${snapshotFormName(figures.pickleProtocol)}`,
  );
  for (const warning of figures.warnings) lines.push(`warning: ${warning}`);
  if (figures.devices.length === 0) lines.push('', NO_DEVICES_TEXT);
  for (const device of figures.devices) {
    const { active, reserved } = device;
    lines.push('');
    lines.push(
      `${cliDeviceName(device.device)}: ${device.traceEntries} trace entries, ${device.segments} segments, ${device.blocks} blocks`,
    );
    const rows: string[][] = [
      ['', 'final', 'peak', FIGURE.baseline, 'compare with'],
      [
        FIGURE.reserved,
        size(reserved.finalBytes),
        size(reserved.peakBytes),
        size(reserved.baselineBytes),
        'memory_reserved(), max_memory_reserved()',
      ],
      [
        FIGURE.active,
        size(active.finalBytes),
        size(active.peakBytes),
        size(active.baselineBytes),
        'requested bytes (memory_stats requested_bytes)',
      ],
      [
        FIGURE.allocated,
        size(device.allocatedFinalBytes),
        '',
        '',
        'rounded blocks, no pending frees: memory_allocated()',
      ],
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
    const live = device.largestAtPeak;
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
