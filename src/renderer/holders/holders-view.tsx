// Who holds the memory at the selected moment: a flame graph (icicle) of the live allocations,
// outermost frames on top, width = bytes, and beside it the same memory grouped by the top user
// frame, file, category, annotation span, stream, pool or user metadata. Both read the shared
// holders layer that `allocscope top` reads, so the app and the CLI give the same answer.

import { useMemo, useState, type JSX } from 'react';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import { aliveRowsAt } from '@shared/holders/alive-rows';
import { flameTree } from '@shared/holders/flame-tree';
import { GROUP_BY_NAMES, GROUP_BYS, groupRows, type GroupBy } from '@shared/holders/group-by';
import { activeBytesAt } from '@shared/report/top-document';
import { FlameGraph } from './flame-graph';
import { HolderGroupsTable } from './holder-groups-table';
import './holders.css';

export interface HoldersViewProps {
  view: AnalyzedSnapshot;
  device: AnalyzedDevice;
  moment: number;
}

export function HoldersView({ view, device, moment }: HoldersViewProps): JSX.Element {
  const [by, setBy] = useState<GroupBy>('frame');
  const [showFramework, setShowFramework] = useState(false);
  const rows = useMemo(() => aliveRowsAt(device, moment), [device, moment]);
  const activeBytes = activeBytesAt(device, moment);
  const groups = useMemo(() => groupRows(view, device, rows, by), [view, device, rows, by]);
  const tree = useMemo(
    () => flameTree(view, device, rows, { showFramework }),
    [view, device, rows, showFramework],
  );
  return (
    <div className="holders" data-testid="holders-view" data-moment={moment}>
      <div className="holders-bar">
        <span className="holders-total" title={`${formatExactBytes(activeBytes)} bytes`}>
          {formatBytes(activeBytes)} active in {rows.length.toLocaleString('en-US')} allocations at
          event {moment}
        </span>
        <label className="holders-control">
          Group by{' '}
          <select
            value={by}
            onChange={(event) => setBy(event.currentTarget.value as GroupBy)}
            data-testid="holders-group-by"
          >
            {GROUP_BYS.map((option) => (
              <option key={option} value={option}>
                {GROUP_BY_NAMES[option]}
              </option>
            ))}
          </select>
        </label>
        <label className="holders-control">
          <input
            type="checkbox"
            checked={showFramework}
            onChange={(event) => setShowFramework(event.currentTarget.checked)}
          />{' '}
          framework frames in the flame graph
        </label>
      </div>
      <div className="holders-body">
        <HolderGroupsTable groups={groups} by={by} totalBytes={activeBytes} />
        <FlameGraph tree={tree} totalBytes={activeBytes} />
      </div>
    </div>
  );
}
