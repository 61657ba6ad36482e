// The Allocations view (key 1) in the registry of lower views: the allocations alive at the
// moment, largest first, filtered by the search; it exports the timeline above it as its picture
// and every allocation as CSV.

import type { JSX } from 'react';
import { useHolderFilter } from '../holders/use-holder-filter';
import type { LowerViewEntry, LowerViewProps } from '../export/lower-view-entry';
import { ALLOCATIONS_CSV, REPORT_JSON, TIMELINE_PICTURE } from '../export/view-exports';
import { useTab, useTabStore } from '../state/tab-store-context';
import { LargestAllocationsTable } from './largest-allocations-table';

/**
 * The moment the table lists: the selected one once the user chose one (or it starts on an OOM);
 * null keeps the table "at the active peak".
 */
export function tableMomentOf(
  chosenMoment: number | null,
  hasOom: boolean,
  moment: number,
): number | null {
  return chosenMoment !== null || hasOom ? moment : null;
}

function AllocationsView({ snapshot, device, moment }: LowerViewProps): JSX.Element {
  const chosenMoment = useTab((state) => state.moment);
  const selectedRow = useTab((state) => state.selectedRow);
  const selectRow = useTabStore().getState().selectRow;
  const filter = useHolderFilter(snapshot, device);
  return (
    <LargestAllocationsTable
      snapshot={snapshot}
      device={device}
      moment={tableMomentOf(chosenMoment, device.ooms.length > 0, moment)}
      filter={filter}
      selectedRow={selectedRow}
      onSelectRow={selectRow}
    />
  );
}

export const ALLOCATIONS_VIEW: LowerViewEntry = {
  id: 'largest',
  key: '1',
  label: 'Allocations',
  title: 'The allocations alive at the selected moment, largest first',
  help: 'Allocations (the largest alive)',
  clickHint: 'Click to list the allocations alive here.',
  component: AllocationsView,
  exports: { picture: TIMELINE_PICTURE, json: REPORT_JSON, csv: ALLOCATIONS_CSV },
};
