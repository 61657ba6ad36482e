// The OOM view (key 4) in the registry of lower views: why the allocation failed (or, without an
// OOM, what the peak left free).

import type { JSX } from 'react';
import { clampMoment } from '@shared/analyzed/moments';
import type { LowerViewEntry, LowerViewProps } from '../export/lower-view-entry';
import { ALLOCATIONS_CSV, chartPicture, REPORT_JSON } from '../export/view-exports';
import { useTabStore } from '../state/tab-store-context';
import { OomExplainerPanel } from './oom-explainer-panel';

function Oom({ snapshot, device, stateIndex }: LowerViewProps): JSX.Element {
  const actions = useTabStore().getState();
  if (stateIndex === null)
    return <p className="lower-pending">Reconstructing the allocator state…</p>;
  return (
    <div className="lower-scroll">
      <OomExplainerPanel
        snapshot={snapshot}
        deviceIndex={snapshot.devices.indexOf(device)}
        stateIndex={stateIndex}
        onGoToEvent={(event) => actions.setMoment(clampMoment(device, event))}
        onSelectRow={actions.selectRow}
      />
    </div>
  );
}

export const OOM_VIEW: LowerViewEntry = {
  id: 'oom',
  key: '4',
  label: 'OOM',
  title: 'Why the allocation failed (or, without an OOM, what the peak left free)',
  help: 'OOM',
  clickHint: 'Click to select this moment (the other views show it).',
  component: Oom,
  needsSegments: true,
  exports: {
    picture: chartPicture('oom', 'the OOM explainer', '[data-testid="oom-explainer"]'),
    json: REPORT_JSON,
    csv: ALLOCATIONS_CSV,
  },
};
