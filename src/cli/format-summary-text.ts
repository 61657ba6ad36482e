// The human-readable summary: one short table per device, binary units, exact bytes on request.

import { describeFrame, topUserFrameId } from '@shared/analysis/user-frame';
import type { SnapshotAnalysis } from '@shared/analysis/snapshot-analysis';
import { liveAllocationsAt } from '@shared/analysis/live-allocations';
import type { SnapshotModel } from '@shared/snapshot/model';
import { formatBytes, formatExactBytes } from '@shared/units';
import { alignColumns } from './align-columns';

export interface TextOptions {
  fileName: string;
  fileBytes: number;
  top: number;
  exactBytes: boolean;
}

export function formatSummaryText(
  model: SnapshotModel,
  analysis: SnapshotAnalysis,
  options: TextOptions,
): string {
  const size = (bytes: number): string =>
    options.exactBytes
      ? `${formatBytes(bytes)} (${formatExactBytes(bytes)} B)`
      : formatBytes(bytes);
  const lines: string[] = [];
  lines.push(
    `${options.fileName}  ${formatBytes(options.fileBytes)}  pickle protocol ${model.pickleProtocol}`,
  );
  for (const warning of analysis.warnings) lines.push(`warning: ${warning}`);
  if (analysis.devices.length === 0)
    lines.push('', 'no devices: the snapshot has no segments and no trace entries');
  for (const device of analysis.devices) {
    const { finalState, active, reserved, trace } = device;
    lines.push('');
    lines.push(
      `device ${device.device}: ${trace?.length ?? 0} trace entries, ${finalState.segmentCount} segments, ${finalState.blockCount} blocks`,
    );
    const rows: string[][] = [
      ['', 'final', 'peak', 'baseline'],
      [
        'reserved',
        size(reserved.finalBytes),
        size(reserved.peakBytes),
        size(reserved.baselineBytes),
      ],
      ['active', size(active.finalBytes), size(active.peakBytes), size(active.baselineBytes)],
      ['allocated', size(finalState.allocatedBytes), '', ''],
    ];
    lines.push(...alignColumns(rows).map((row) => `  ${row}`));
    if (active.peakEventIndex >= 0)
      lines.push(`  active peak after event ${active.peakEventIndex}`);
    const actions = model.actionNames
      .map((name, code) => [name, device.actionCounts[code]!] as const)
      .filter(([, count]) => count > 0)
      .map(([name, count]) => `${name} ${count}`);
    if (actions.length > 0) lines.push(`  actions: ${actions.join(', ')}`);
    for (const oom of device.ooms) {
      const free = oom.deviceFreeBytes === null ? 'unknown' : size(oom.deviceFreeBytes);
      lines.push(
        `  OOM at event ${oom.eventIndex}: requested ${size(oom.requestedBytes)}, device free ${free}`,
      );
    }
    const live = liveAllocationsAt(
      model,
      trace,
      device.match,
      finalState,
      active.peakEventIndex,
    ).slice(0, options.top);
    if (live.length > 0) {
      lines.push(`  largest allocations alive at the active peak:`);
      const table = live.map((allocation) => [
        size(allocation.bytes),
        `0x${allocation.address.toString(16)}`,
        allocation.allocEventIndex === null
          ? 'before trace'
          : `event ${allocation.allocEventIndex}`,
        // The innermost frame for framework-only stacks, as this summary has always listed them.
        describeFrame(
          model,
          topUserFrameId(model, allocation.stackId, { allFramework: 'innermost' }),
        ),
      ]);
      lines.push(...alignColumns(table).map((row) => `    ${row}`));
    }
  }
  return lines.join('\n');
}
