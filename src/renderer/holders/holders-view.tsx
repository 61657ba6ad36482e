// Who holds the memory at the selected moment: a flame graph (icicle) of the live allocations,
// outermost frames on top, width = bytes, and beside it the same memory grouped by the top user
// frame, file, category, annotation span, stream, pool or user metadata. Both read the shared
// holders layer that `allocscope top` reads, so the app and the CLI give the same answer.

import { useEffect, useMemo, useRef, useState, type JSX } from 'react';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import { aliveRowsAt, bytesOfRows } from '@shared/holders/alive-rows';
import { flameTree } from '@shared/holders/flame-tree';
import {
  GROUP_BY_NAMES,
  GROUP_BYS,
  groupingApplies,
  groupRows,
  type GroupBy,
} from '@shared/holders/group-by';
import { useTab, useTabStore } from '../state/tab-store-context';
import { activeBytesAt } from '@shared/holders/alive-rows';
import { seriesMoments } from '@shared/holders/category-series';
import { groupSeries } from '@shared/holders/group-series';
import { CategoriesOverTime } from './categories-over-time';
import { loadRulesFile, restoreBuiltInRules, useCategoryRules } from './category-rules-setting';
import { FlameGraph } from './flame-graph';
import { HolderGroupsTable } from './holder-groups-table';
import type { HolderFilter } from './use-holder-filter';
import './holders.css';

/** Points per sparkline, and how many groups get one (the largest). */
const SPARK_SAMPLES = 80;
const SPARK_GROUPS = 200;

export interface HoldersViewProps {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  moment: number;
  /** Bumped when the user asks to search (Ctrl/Cmd+F): the box takes the focus. */
  findRequest?: number;
  /** The search and the flame graph's zoom (held above the tabs: the other views follow it). */
  filter: HolderFilter;
}

export function HoldersView(props: HoldersViewProps): JSX.Element {
  const { snapshot, device, moment, findRequest = 0, filter } = props;
  const { query, setQuery, regex, setRegex, search, searchMask, nodeMask, mask } = filter;
  const { zoomPath, setZoomPath, showFramework, setShowFramework } = filter;
  const chosenBy = useTab((state) => state.holdersGroupBy);
  const by = groupingApplies(device, chosenBy) ? chosenBy : 'frame';
  const overTime = useTab((state) => state.holdersOverTime);
  const { setHoldersGroupBy: setBy, setHoldersOverTime: setOverTime } = useTabStore().getState();
  const searchRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (findRequest > 0) searchRef.current?.select();
  }, [findRequest]);

  const alive = useMemo(() => aliveRowsAt(device, moment), [device, moment]);
  const rows = useMemo(
    () => (mask === null ? alive : alive.filter((row) => mask[row] === 1)),
    [alive, mask],
  );
  const matchedBytes = bytesOfRows(device, rows);
  const activeBytes = activeBytesAt(device, moment);
  const { rules, source: rulesSource } = useCategoryRules();
  const [rulesError, setRulesError] = useState<string | null>(null);
  const rulesInputRef = useRef<HTMLInputElement>(null);
  const groups = useMemo(
    () => groupRows(snapshot, device, rows, by, { rules }),
    [snapshot, device, rows, by, rules],
  );
  // Sparklines: the listed groups' bytes over the trace (one pass over the allocations).
  const sparkMoments = useMemo(
    () => seriesMoments(device.traceLength, SPARK_SAMPLES, [moment]),
    [device, moment],
  );
  const sparks = useMemo(() => {
    const keys = groups.slice(0, SPARK_GROUPS).map((group) => group.key);
    const series = groupSeries(snapshot, device, by, keys, sparkMoments, { rules }, mask);
    return new Map(keys.map((key, i) => [key, series[i]!]));
  }, [snapshot, device, by, groups, sparkMoments, rules, mask]);
  // The flame graph shows the searched rows whole, zoomed to its node.
  const searchedRows = useMemo(
    () => (searchMask === null ? alive : alive.filter((row) => searchMask[row] === 1)),
    [alive, searchMask],
  );
  const tree = useMemo(
    () => flameTree(snapshot, device, searchedRows, { showFramework }),
    [snapshot, device, searchedRows, showFramework],
  );
  return (
    <div className="lower-view holders" data-testid="holders-view" data-moment={moment}>
      <div className="holders-bar">
        <span className="holders-total" title={`${formatExactBytes(activeBytes)} bytes`}>
          {formatBytes(activeBytes)} active in {alive.length.toLocaleString('en-US')} allocations at
          event {moment}
        </span>
        <span className="holders-search">
          <input
            ref={searchRef}
            type="search"
            placeholder="Search frames, files, 0x address"
            aria-label="Search frames, files or an address"
            value={query}
            spellCheck={false}
            onChange={(event) => setQuery(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setQuery('');
            }}
            data-testid="holders-search"
          />
          <label title="The search is a regular expression (RE2 syntax: no lookaround or backreferences)">
            <input
              type="checkbox"
              aria-label="Regular expression"
              data-testid="holders-regex"
              checked={regex}
              onChange={(event) => setRegex(event.currentTarget.checked)}
            />
            .*
          </label>
          {search.kind === 'invalid' ? (
            <span className="holders-search-error" role="status">
              {search.message}
            </span>
          ) : searchMask !== null || nodeMask !== null ? (
            <span
              className="holders-search-result"
              role="status"
              data-testid="holders-search-result"
              data-bytes={matchedBytes}
              data-count={rows.length}
              title={`${formatExactBytes(matchedBytes)} bytes`}
            >
              {rows.length.toLocaleString('en-US')} matching here, {formatBytes(matchedBytes)} (
              {activeBytes > 0 ? ((100 * matchedBytes) / activeBytes).toFixed(1) : '0.0'}%), the
              pink line on the timeline
            </span>
          ) : null}
        </span>
        <label className="holders-control">
          Group by{' '}
          <select
            value={by}
            onChange={(event) => setBy(event.currentTarget.value as GroupBy)}
            data-testid="holders-group-by"
          >
            {GROUP_BYS.filter((option) => groupingApplies(device, option)).map((option) => (
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
          framework frames
        </label>
        <label className="holders-control">
          <input
            type="checkbox"
            checked={overTime}
            onChange={(event) => setOverTime(event.currentTarget.checked)}
            data-testid="holders-over-time"
          />{' '}
          by category over time
        </label>
        {(by === 'category' || overTime) && (
          <span className="holders-control holders-rules" data-testid="holders-rules">
            rules: {rulesSource ?? 'built-in'}{' '}
            <button type="button" onClick={() => rulesInputRef.current?.click()}>
              Load rules…
            </button>
            {rulesSource !== null && (
              <button type="button" onClick={restoreBuiltInRules}>
                Built-in
              </button>
            )}
            <input
              ref={rulesInputRef}
              type="file"
              accept=".json,application/json"
              hidden
              data-testid="holders-rules-input"
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                event.currentTarget.value = '';
                if (file === undefined) return;
                void loadRulesFile(file).then(setRulesError);
              }}
            />
            {rulesError !== null && (
              <span className="holders-search-error" role="alert">
                {rulesError}
              </span>
            )}
          </span>
        )}
      </div>
      <div className="holders-body">
        <HolderGroupsTable
          groups={groups}
          by={by}
          totalBytes={activeBytes}
          sparks={sparks}
          momentIndex={sparkMoments.indexOf(moment)}
          emptyText={emptyText(alive.length, rows.length, searchedRows.length === 0)}
        />
        {overTime ? (
          <CategoriesOverTime
            rules={rules}
            snapshot={snapshot}
            deviceIndex={snapshot.devices.indexOf(device)}
            moment={moment}
          />
        ) : (
          <FlameGraph
            tree={tree}
            totalBytes={activeBytes}
            zoomPath={zoomPath}
            onZoom={setZoomPath}
            missingText={
              alive.length > 0 && searchedRows.length === 0
                ? emptyText(alive.length, 0, true)
                : undefined
            }
          />
        )}
      </div>
    </div>
  );
}

/**
 * What an empty list says: nothing alive, or nothing alive that the search (or the flame graph's
 * node) keeps, with how much is alive, so an empty result is not read as an empty moment.
 */
function emptyText(aliveCount: number, shownCount: number, searching: boolean): string {
  if (aliveCount === 0) return 'Nothing is alive at this moment.';
  const alive = `${aliveCount.toLocaleString('en-US')} ${aliveCount === 1 ? 'allocation is' : 'allocations are'} alive`;
  return searching && shownCount === 0
    ? `Nothing alive here matches the search (${alive}).`
    : `Nothing alive here is under the selected flame graph node (${alive}).`;
}
