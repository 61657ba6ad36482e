// The snapshot toolbar's device picker (disabled when the snapshot has one device).

import type { JSX } from 'react';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';

export function DeviceSelect(props: {
  devices: readonly AnalyzedDevice[];
  device: AnalyzedDevice | null;
  onChange: (ordinal: number) => void;
}): JSX.Element {
  const { devices, device, onChange } = props;
  return (
    <label className="device-select">
      <span className="toolbar-label">Device</span>
      <select
        data-testid="device-select"
        value={device === null ? '' : String(device.device)}
        disabled={devices.length < 2}
        title={devices.length < 2 ? 'This snapshot has one device' : 'Show another device'}
        onChange={(event) => onChange(Number(event.target.value))}
      >
        {devices.length === 0 && <option value="">none</option>}
        {devices.map((d) => (
          <option key={d.device} value={String(d.device)}>
            cuda:{d.device}
          </option>
        ))}
      </select>
    </label>
  );
}
