// The selected moment in words, with buttons to step it and to jump to the peak or the OOM.

import type { JSX } from 'react';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { activePeakMoment, firstOomEvent } from '@shared/analyzed/moments';
import { keysOf } from '../state/keyboard-shortcuts';
import { describeMoment, describeMomentParts, stepMoment } from './moment';

export function MomentBar(props: {
  device: AnalyzedDevice;
  moment: number;
  onMoment: (event: number) => void;
}): JSX.Element {
  const { device, moment, onMoment } = props;
  const peak = activePeakMoment(device);
  const oom = firstOomEvent(device);
  return (
    <div className="moment-bar" role="group" aria-label="Selected moment">
      <span className="toolbar-label">Moment</span>
      <span className="tl-button-group">
        <button
          type="button"
          className="tl-button"
          aria-label="Previous event"
          title={`Previous event (${keysOf('moment-previous')}; ${keysOf('moment-back')}: 1% of the trace; ${keysOf('moment-first')}: the start)`}
          onClick={() => onMoment(stepMoment(device, moment, 'previous'))}
        >
          ‹
        </button>
        <button
          type="button"
          className="tl-button"
          aria-label="Next event"
          title={`Next event (${keysOf('moment-next')}; ${keysOf('moment-forward')}: 1% of the trace; ${keysOf('moment-last')}: the end)`}
          onClick={() => onMoment(stepMoment(device, moment, 'next'))}
        >
          ›
        </button>
      </span>
      <span
        className="moment-label"
        data-testid="moment-label"
        data-moment={String(moment)}
        aria-live="polite"
        title={`${describeMoment(device, moment)}\nClick the timeline to choose another moment; ${keysOf('moment-previous')} ${keysOf('moment-next')} step through events`}
      >
        {/* Never cut: a narrow bar drops the later parts whole (snapshot-page.css); the title
            has all of it. */}
        {describeMomentParts(device, moment).map((part, index) => (
          <span key={index} className={`moment-part moment-part-${index}`}>
            {index > 0 ? ` · ${part}` : part}
          </span>
        ))}
      </span>
      <span className="tl-button-group">
        <button
          type="button"
          className="tl-button"
          data-testid="moment-peak"
          aria-pressed={moment === peak}
          title={`The active peak (${keysOf('moment-peak')})`}
          onClick={() => onMoment(peak)}
        >
          Peak
        </button>
        {oom !== null && (
          <button
            type="button"
            className="tl-button moment-oom"
            data-testid="moment-oom"
            aria-pressed={moment === oom}
            title={`The first out-of-memory event (${keysOf('moment-oom')})`}
            onClick={() => onMoment(oom)}
          >
            OOM
          </button>
        )}
      </span>
    </div>
  );
}
