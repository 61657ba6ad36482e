// The snapshot toolbar's device picker (disabled when the snapshot has one device): each device
// with its active peak and whether it ran out of memory, so the one that matters is found without
// visiting each.

import type { JSX } from 'react';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { formatBytes } from '@shared/format/units';
import { deviceLabel } from '@shared/format/words';

/** "cuda:1 · 10.5 GiB · OOM": what the picker lists for a device (its active peak). */
export function deviceOptionLabel(
  device: Pick<AnalyzedDevice, 'device' | 'ooms' | 'figures'>,
): string {
  const oom = device.ooms.length > 0 ? ' · OOM' : '';
  return `${deviceLabel(device.device)} · ${formatBytes(device.figures.active.peakBytes)}${oom}`;
}

export function DeviceSelect(props: {
  devices: readonly AnalyzedDevice[];
  device: AnalyzedDevice | null;
  onChange: (device: AnalyzedDevice) => void;
}): JSX.Element {
  const { devices, device, onChange } = props;
  return (
    <label className="device-select">
      <span className="toolbar-label">Device</span>
      <select
        data-testid="device-select"
        value={device === null ? '' : String(device.device)}
        disabled={devices.length < 2}
        title={
          devices.length < 2
            ? 'This snapshot has one device'
            : 'Show another device (each listed with its active peak; OOM: it ran out of memory)'
        }
        onChange={(event) => {
          const chosen = devices.find((d) => String(d.device) === event.target.value);
          if (chosen !== undefined) onChange(chosen);
        }}
      >
        {devices.length === 0 && <option value="">none</option>}
        {devices.map((d) => (
          <option key={d.device} value={String(d.device)}>
            {deviceOptionLabel(d)}
          </option>
        ))}
      </select>
    </label>
  );
}
