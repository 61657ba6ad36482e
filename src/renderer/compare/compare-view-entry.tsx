// The Compare view (key 7) in the registry of lower views: this device against another open
// snapshot or another device; its picture is the one the view hands over (the store's
// viewPicture), as shown.

import { useMemo, type JSX } from 'react';
import { stepsOf } from '@shared/steps/find-steps';
import type { LowerViewEntry, LowerViewProps } from '../export/lower-view-entry';
import { ALLOCATIONS_CSV, chartPicture, REPORT_JSON } from '../export/view-exports';
import { useTab, useTabStore } from '../state/tab-store-context';
import { compareCandidates } from './compare-candidates';
import { CompareView } from './compare-view';

function Compare({ snapshot, device, tab, openSnapshots }: LowerViewProps): JSX.Element {
  const actions = useTabStore().getState();
  const chosenId = useTab((state) => state.compareWith);
  const steps = useMemo(() => stepsOf(snapshot, device), [snapshot, device]);
  return (
    <CompareView
      snapshot={snapshot}
      device={device}
      steps={steps}
      candidates={compareCandidates(openSnapshots, tab, device)}
      chosenId={chosenId}
      onChoose={actions.chooseComparison}
      onPicture={actions.setViewPicture}
    />
  );
}

export const COMPARE_VIEW: LowerViewEntry = {
  id: 'compare',
  key: '7',
  label: 'Compare',
  title:
    'This device against another open snapshot or another device: both curves on one axis, B − A, what changed at the peaks',
  help: 'Compare with another snapshot or device',
  clickHint: 'Click to select this moment (the comparison is at the two peaks).',
  component: Compare,
  exports: {
    picture: chartPicture('compare', 'the comparison', '[data-testid="compare-view"]'),
    json: REPORT_JSON,
    csv: ALLOCATIONS_CSV,
  },
};
