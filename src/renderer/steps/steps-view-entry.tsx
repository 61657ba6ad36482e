// The Steps view (key 6) in the registry of lower views: per-step figures, growth and leak
// suspects; its picture is the one the view hands over (the store's viewPicture), as shown.

import { useMemo, type JSX } from 'react';
import { clampMoment } from '@shared/analyzed/moments';
import { stepsOf } from '@shared/steps/find-steps';
import type { LowerViewEntry, LowerViewProps } from '../export/lower-view-entry';
import { ALLOCATIONS_CSV, chartPicture, REPORT_JSON } from '../export/view-exports';
import { useHolderFilter } from '../holders/use-holder-filter';
import { useTabStore } from '../state/tab-store-context';
import { StepsView } from './steps-view';

function Steps({ snapshot, device, moment }: LowerViewProps): JSX.Element {
  const actions = useTabStore().getState();
  const steps = useMemo(() => stepsOf(snapshot, device), [snapshot, device]);
  const filter = useHolderFilter(snapshot, device);
  return (
    <StepsView
      snapshot={snapshot}
      device={device}
      found={steps}
      moment={moment}
      onMoment={(event) => actions.setMoment(clampMoment(device, event))}
      filter={filter}
      onPicture={actions.setViewPicture}
    />
  );
}

export const STEPS_VIEW: LowerViewEntry = {
  id: 'steps',
  key: '6',
  label: 'Steps',
  title:
    'The training steps: each one’s peak and what it leaves behind, growth from step to step, leak suspects',
  help: 'Steps (per-step figures, growth, leak suspects)',
  clickHint: 'Click to select this moment (the step ruler along the bottom marks the steps).',
  component: Steps,
  exports: {
    picture: chartPicture('steps', 'the steps', '[data-testid="steps-view"]'),
    json: REPORT_JSON,
    csv: ALLOCATIONS_CSV,
  },
};
