// The CLI commands that draw or explain (report, render, segments) work on the same view model
// as the app, so their figures and pictures are the app's.

import {
  buildAnalyzedSnapshot,
  type AnalyzedDevice,
  type AnalyzedSnapshot,
} from '@shared/analyzed/analyzed-snapshot';
import { defaultDeviceIndex } from '@shared/analyzed/moments';
import { CPU_DEVICE, HOST_DEVICE } from '@shared/snapshot/model';
import { deviceLabel } from '@shared/format/words';
import { readSnapshotFile, type ReadSnapshotOptions } from './read-snapshot-file';
import { UsageError } from './cli-options';
import { NoDevicesNotice, requireDevices } from './no-devices';

/** How a command gets its analysed snapshot: read now (the CLI), or kept between calls (mcp). */
export type SnapshotLoader = (
  path: string,
  options: ReadSnapshotOptions,
) => Promise<AnalyzedSnapshot>;

export async function loadAnalyzedSnapshot(
  path: string,
  options: ReadSnapshotOptions = {},
): Promise<AnalyzedSnapshot> {
  const { model, fileName, fileBytes } = await readSnapshotFile(path, options);
  return buildAnalyzedSnapshot(model, { fileName, fileBytes });
}

/** Index into snapshot.devices of device N, or a usage error naming the devices there are. */
export function deviceIndexOf(snapshot: AnalyzedSnapshot, device: number | null): number {
  requireDevices(snapshot);
  if (device === null) return 0;
  const index = snapshot.devices.findIndex((d) => d.device === device);
  if (index < 0) {
    throw new UsageError(
      missingDeviceMessage(
        device,
        snapshot.fileName,
        snapshot.devices.map((d) => d.device),
      ),
    );
  }
  return index;
}

/** "device 3 is not in run.pickle (devices: 0, 1, host)": the devices as --device names them. */
export function missingDeviceMessage(
  device: number,
  fileName: string,
  known: readonly number[],
): string {
  const name = (d: number): string =>
    d === HOST_DEVICE ? 'host' : d === CPU_DEVICE ? 'cpu' : String(d);
  const what =
    device === HOST_DEVICE
      ? 'pinned host memory (host_segments / host_traces)'
      : device === CPU_DEVICE
        ? "CPU memory (a profiler trace's [memory] events of Device Type 0)"
        : `device ${device}`;
  return `${what} is not in ${fileName} (devices: ${known.length > 0 ? known.map(name).join(', ') : 'none'})`;
}

/** How CLI text names a device: as the app does ("cuda:0", "host (pinned)"). */
export function cliDeviceName(device: number): string {
  return deviceLabel(device);
}

/** The device a command reads: --device N, else the default one (first OOM, else largest peak). */
export function chosenDevice(snapshot: AnalyzedSnapshot, device: number | null): AnalyzedDevice {
  requireDevices(snapshot);
  const index =
    device === null ? defaultDeviceIndex(snapshot.devices) : deviceIndexOf(snapshot, device);
  const chosen = snapshot.devices[index];
  if (chosen === undefined) throw new NoDevicesNotice(snapshot.fileName);
  return chosen;
}
