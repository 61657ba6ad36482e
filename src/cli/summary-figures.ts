// The figures `summary` prints, of every device or of one (`--device N`): one function for the
// command and for the mcp server's summary tool, so both say the same.

import { analyzeSnapshot } from '@shared/analysis/snapshot-analysis';
import { snapshotFiguresOf, type SnapshotFigures } from '@shared/analyzed/device-figures';
import { UsageError } from './cli-options';
import { missingDeviceMessage } from './load-analyzed-snapshot';
import type { SnapshotFile } from './read-snapshot-file';

export function summaryFiguresOf(
  read: SnapshotFile,
  options: { device: number | null; top: number },
): SnapshotFigures {
  const { model, fileName, fileBytes } = read;
  const analysis = analyzeSnapshot(model);
  if (options.device !== null) {
    const known = analysis.devices.map((device) => device.device);
    // No devices: the summary says so (./no-devices.ts), whichever device was asked for.
    if (known.length > 0 && !known.includes(options.device)) {
      throw new UsageError(missingDeviceMessage(options.device, fileName, known));
    }
    analysis.devices = analysis.devices.filter((device) => device.device === options.device);
  }
  return snapshotFiguresOf(model, analysis, { fileName, fileBytes, top: options.top });
}
