// The snapshot page's footer: file, size, form (pickle protocol or JSON), devices and the device's allocations.

import type { JSX } from 'react';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import { snapshotFormName } from '@shared/format/words';
import { servedFromText, servedHostOf } from './served-from';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';

export function SnapshotStatusBar(props: {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice | null;
  /** Where `allocscope serve` serves the file from, if it does. */
  servedFrom?: string | undefined;
  /** The threads that decoded it, where more than one did. */
  decodeThreads?: number | undefined;
}): JSX.Element {
  const { snapshot, device, servedFrom, decodeThreads } = props;
  return (
    <footer className="status-bar">
      <span title={`${formatExactBytes(snapshot.fileBytes)} bytes`}>
        {snapshot.fileName} · {formatBytes(snapshot.fileBytes)}
      </span>
      {servedFrom !== undefined && (
        <span data-testid="served-from" title={servedFromText(servedFrom)}>
          served from {servedHostOf(servedFrom)}
        </span>
      )}
      <span>{snapshotFormName(snapshot.pickleProtocol, snapshot.source)}</span>
      {decodeThreads !== undefined && (
        <span
          data-testid="decode-threads"
          title="Cut into parts at trace entries, each decoded on a Web Worker of its own"
        >
          decoded on {decodeThreads} threads
        </span>
      )}
      <span>
        {snapshot.devices.length} {snapshot.devices.length === 1 ? 'device' : 'devices'}
      </span>
      {device && (
        <span>{new Intl.NumberFormat('en-US').format(device.allocations.count)} allocations</span>
      )}
    </footer>
  );
}
