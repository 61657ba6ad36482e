// The CLI commands that draw or explain (report, render, segments) work on the same view model
// as the app, so their figures and pictures are the app's.

import { buildAnalyzedSnapshot, type AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { readSnapshotFile } from './read-snapshot-file';
import { UsageError } from './cli-options';

export async function loadAnalyzedSnapshot(path: string): Promise<AnalyzedSnapshot> {
  const { model, fileName, fileBytes } = await readSnapshotFile(path);
  return buildAnalyzedSnapshot(model, { fileName, fileBytes });
}

/** Index into view.devices of device N, or a usage error naming the devices there are. */
export function deviceIndexOf(view: AnalyzedSnapshot, device: number | null): number {
  if (view.devices.length === 0) throw new UsageError(`${view.fileName} has no devices`);
  if (device === null) return 0;
  const index = view.devices.findIndex((d) => d.device === device);
  if (index < 0) {
    throw new UsageError(
      `device ${device} is not in ${view.fileName} (devices: ${view.devices.map((d) => d.device).join(', ')})`,
    );
  }
  return index;
}
