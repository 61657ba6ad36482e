// The snapshot toolbar's switch for the timeline's horizontal axis: time stamps or event order
// (time disabled when the device records none).

import { deviceTimesUsable } from '@shared/analyzed/device-times';
import type { JSX } from 'react';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import type { XMode } from '../state/app-state';

export function XModeToggle(props: {
  device: AnalyzedDevice;
  xMode: XMode;
  onChange: (xMode: XMode) => void;
}): JSX.Element {
  const { device, xMode, onChange } = props;
  const hasTimes = deviceTimesUsable(device);
  const option = (value: XMode, label: string, title: string, disabled = false) => (
    <button
      type="button"
      role="radio"
      aria-checked={xMode === value}
      data-value={value}
      disabled={disabled}
      title={title}
      onClick={() => onChange(value)}
    >
      {label}
    </button>
  );
  return (
    <div
      className="segmented x-mode"
      role="radiogroup"
      aria-label="Horizontal axis"
      data-testid="x-mode"
      data-value={xMode}
    >
      {option(
        'time',
        'Time',
        hasTimes ? 'Events placed by their time stamps' : 'This device records no times (time_us)',
        !hasTimes,
      )}
      {option('event', 'Event #', 'Events evenly spaced, in trace order')}
    </div>
  );
}
