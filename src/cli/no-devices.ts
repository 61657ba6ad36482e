// One rule for a snapshot without devices (no segments and no trace entries: a dump taken before
// anything was allocated, or with recording off): every command reads it, says so and exits 0;
// it is a snapshot we can read, not bad input. summary, report and segments say it among their
// figures; the commands about one device (top, steps, render, diff) have nothing else to say.

import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';

export const NO_DEVICES_TEXT = 'no devices: the snapshot has no segments and no trace entries';

/** Thrown by a command about one device when the file has none; main prints it and exits 0. */
export class NoDevicesNotice extends Error {
  constructor(readonly fileName: string) {
    super(`${fileName}: ${NO_DEVICES_TEXT}`);
    this.name = 'NoDevicesNotice';
  }
}

/** Throws NoDevicesNotice when the snapshot has no devices. */
export function requireDevices(snapshot: Pick<AnalyzedSnapshot, 'devices' | 'fileName'>): void {
  if (snapshot.devices.length === 0) throw new NoDevicesNotice(snapshot.fileName);
}
