// The banner of a snapshot with an OOM: which device ran out of memory, when and asking for what,
// with a button to explain it (or to show that device when another one is selected).

import type { JSX } from 'react';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { describeOom } from './oom-notice-text';
import { deviceLabel } from '@shared/format/words';

export function OomNotice(props: {
  oomDevice: AnalyzedDevice;
  /** The selected device. */
  device: AnalyzedDevice;
  onExplain: () => void;
  onShowDevice: (device: AnalyzedDevice) => void;
}): JSX.Element {
  const { oomDevice, device, onExplain, onShowDevice } = props;
  return (
    <div className="oom-notice" role="note" data-testid="oom-notice">
      <span>
        <strong>{deviceLabel(oomDevice.device)} ran out of memory</strong> {describeOom(oomDevice)}
      </span>
      {oomDevice === device ? (
        <button
          type="button"
          className="button button-compact"
          data-testid="oom-go"
          onClick={onExplain}
        >
          Explain it
        </button>
      ) : (
        <button
          type="button"
          className="button button-compact"
          data-testid="oom-device-link"
          onClick={() => onShowDevice(oomDevice)}
        >
          Show {deviceLabel(oomDevice.device)}
        </button>
      )}
    </div>
  );
}
