// ← → step the moment by an event, Shift by 1% of the trace, Home End go to the ends, wherever
// the keys are not someone else's (text fields, the focused timeline's own panning).

import { useLayoutEffect } from 'react';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { isEditingTarget, momentStepAt, stepMoment } from './moment';

export function useMomentKeys(
  device: AnalyzedDevice,
  moment: number,
  onMoment: (moment: number) => void,
): void {
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || isEditingTarget(event.target)) return;
      const inTimeline =
        event.target instanceof Element &&
        event.target.closest('[data-testid="timeline"]') !== null;
      const step = momentStepAt(event, inTimeline);
      if (step === null) return;
      event.preventDefault();
      onMoment(stepMoment(device, moment, step));
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [device, moment, onMoment]);
}
