// The keys that move the selected moment (the table is state/keyboard-shortcuts.ts): ← → one
// event, Shift by 1% of the trace, Home End the ends, P the active peak, O the first OOM. They
// work wherever the page has the focus, the timeline included (its keys zoom and pan).

import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { activePeakMoment, firstOomEvent } from '@shared/analyzed/moments';
import { useShortcuts } from '../state/use-shortcuts';
import { momentStepOfCommand, stepMoment } from './moment';

export function useMomentKeys(
  device: AnalyzedDevice,
  moment: number,
  onMoment: (moment: number) => void,
): void {
  useShortcuts('page', (command) => {
    if (command === 'moment-peak') {
      onMoment(activePeakMoment(device));
      return true;
    }
    if (command === 'moment-oom') {
      const oom = firstOomEvent(device);
      if (oom === null) return false;
      onMoment(oom);
      return true;
    }
    const step = momentStepOfCommand(command);
    if (step === null) return false;
    onMoment(stepMoment(device, moment, step));
    return true;
  });
}
