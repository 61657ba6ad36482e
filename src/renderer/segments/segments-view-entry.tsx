// The Segments view (key 2) in the registry of lower views: the allocator's segments and blocks
// at the moment; its picture is the page's segments scene, laid out in the page's box.

import { useMemo, type JSX } from 'react';
import { smallHoleThreshold } from '@shared/state/memory-figures';
import type { LowerViewEntry, LowerViewProps } from '../export/lower-view-entry';
import { ALLOCATIONS_CSV, chartPicture, REPORT_JSON } from '../export/view-exports';
import { useTab, useTabStore } from '../state/tab-store-context';
import { SegmentsView } from './segments-view';

function Segments({ snapshot, device, stateIndex, moment }: LowerViewProps): JSX.Element {
  const selectedRow = useTab((state) => state.selectedRow);
  const selectRow = useTabStore().getState().selectRow;
  // Sorting every allocation's size: only once the state index exists (after the first paint).
  const threshold = useMemo(
    () => (stateIndex === null ? 0 : smallHoleThreshold(device)),
    [device, stateIndex],
  );
  return (
    <SegmentsView
      snapshot={snapshot}
      device={device}
      stateIndex={stateIndex}
      moment={moment}
      smallHoleThresholdBytes={threshold}
      selectedRow={selectedRow}
      onSelectRow={selectRow}
    />
  );
}

export const SEGMENTS_VIEW: LowerViewEntry = {
  id: 'segments',
  key: '2',
  label: 'Segments',
  title: 'The allocator’s segments and blocks at the selected moment',
  help: 'Segments',
  clickHint: 'Click to show the segments at this moment.',
  component: Segments,
  needsSegments: true,
  exports: {
    picture: chartPicture('segments', 'the segments', '[data-testid="segments-view"]'),
    json: REPORT_JSON,
    csv: ALLOCATIONS_CSV,
  },
};
