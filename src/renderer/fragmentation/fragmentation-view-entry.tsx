// The Fragmentation view (key 3) in the registry of lower views: cached-but-unused memory over
// the timeline's window, and the figures at the moment and the peak.

import { useDeferredValue, useMemo, type JSX } from 'react';
import { clampMoment } from '@shared/analyzed/moments';
import { smallHoleThreshold } from '@shared/state/memory-figures';
import type { LowerViewEntry, LowerViewProps } from '../export/lower-view-entry';
import { ALLOCATIONS_CSV, chartPicture, REPORT_JSON } from '../export/view-exports';
import { effectiveXMode } from '../state/app-state';
import { useTab, useTabStore } from '../state/tab-store-context';
import { FragmentationPanel } from './fragmentation-panel';

function Fragmentation({ device, snapshot, stateIndex, moment }: LowerViewProps): JSX.Element {
  const store = useTabStore();
  const xMode = effectiveXMode({ xMode: useTab((state) => state.xMode) }, device);
  // The view follows the timeline's window; zooming stays smooth while the series is redone.
  const timelineWindow = useDeferredValue(useTab((state) => state.timelineWindow));
  const threshold = useMemo(
    () => (stateIndex === null ? 0 : smallHoleThreshold(device)),
    [device, stateIndex],
  );
  return (
    <FragmentationPanel
      snapshot={snapshot}
      device={device}
      stateIndex={stateIndex}
      moment={moment}
      smallHoleThresholdBytes={threshold}
      xMode={xMode}
      timelineWindow={timelineWindow}
      onMoment={(event) => store.getState().setMoment(clampMoment(device, event))}
    />
  );
}

export const FRAGMENTATION_VIEW: LowerViewEntry = {
  id: 'fragmentation',
  key: '3',
  label: 'Fragmentation',
  title: 'Cached-but-unused memory over time, and the figures at the moment and the peak',
  help: 'Fragmentation',
  clickHint: 'Click to show the fragmentation figures at this moment.',
  component: Fragmentation,
  needsSegments: true,
  exports: {
    picture: chartPicture(
      'fragmentation',
      'fragmentation',
      '[data-testid="fragmentation-panel"] .frag-stage',
    ),
    json: REPORT_JSON,
    csv: ALLOCATIONS_CSV,
  },
};
