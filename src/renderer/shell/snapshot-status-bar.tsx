// The snapshot page's footer: file, size, form (pickle protocol or JSON), devices and the device's allocations.

import type { JSX } from 'react';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import { snapshotFormName } from '@shared/format/words';
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
      <span>{snapshotFormName(view.pickleProtocol)}</span>
      <span>
        {view.devices.length} {view.devices.length === 1 ? 'device' : 'devices'}
      </span>
      {device && (
        <span>{new Intl.NumberFormat('en-US').format(device.allocations.count)} allocations</span>
      )}
    </footer>
  );
}
