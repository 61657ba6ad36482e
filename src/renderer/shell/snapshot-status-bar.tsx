// The snapshot page's footer: file, size, pickle protocol, devices and the device's allocations.

import type { JSX } from 'react';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';

export function SnapshotStatusBar(props: {
  view: AnalyzedSnapshot;
  device: AnalyzedDevice | null;
}): JSX.Element {
  const { view, device } = props;
  return (
    <footer className="status-bar">
      <span title={`${formatExactBytes(view.fileBytes)} bytes`}>
        {view.fileName} · {formatBytes(view.fileBytes)}
      </span>
      <span>pickle protocol {view.pickleProtocol}</span>
      <span>
        {view.devices.length} {view.devices.length === 1 ? 'device' : 'devices'}
      </span>
      {device && (
        <span>{new Intl.NumberFormat('en-US').format(device.allocations.count)} allocations</span>
      )}
    </footer>
  );
}
