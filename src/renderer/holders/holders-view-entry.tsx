// The Who holds it view (key 5) in the registry of lower views: the memory alive at the moment as
// a flame graph and grouped; it exports its own flame graph (PNG, SVG) and its grouped table (CSV).

import type { JSX } from 'react';
import type { LowerViewEntry, LowerViewProps } from '../export/lower-view-entry';
import { REPORT_JSON } from '../export/view-exports';
import { useTab } from '../state/tab-store-context';
import { FLAME_PICTURE, HOLDER_GROUPS_CSV } from './holders-export';
import { HoldersView } from './holders-view';
import { useHolderFilter } from './use-holder-filter';

function Holders({ snapshot, device, moment }: LowerViewProps): JSX.Element {
  const findRequest = useTab((state) => state.findRequest);
  const filter = useHolderFilter(snapshot, device);
  return (
    <HoldersView
      snapshot={snapshot}
      device={device}
      moment={moment}
      findRequest={findRequest}
      filter={filter}
    />
  );
}

export const HOLDERS_VIEW: LowerViewEntry = {
  id: 'holders',
  key: '5',
  label: 'Who holds it',
  title:
    'The memory alive at the selected moment as a flame graph, and grouped by frame, file, category…',
  help: 'Who holds it (flame graph, group by)',
  clickHint: 'Click to show who holds the memory at this moment.',
  component: Holders,
  exports: { picture: FLAME_PICTURE, json: REPORT_JSON, csv: HOLDER_GROUPS_CSV },
};
