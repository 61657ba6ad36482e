// The memory of one moment grouped (shared/holders/group-by.ts): bytes, share of the moment's
// active bytes, allocations, the group's key; sortable by each column.

import { useMemo, useState, type JSX } from 'react';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import { shownText } from '@shared/format/shown-text';
import { GROUP_BY_NAMES, type GroupBy, type HolderGroup } from '@shared/holders/group-by';
import { Sparkline } from '../ui/sparkline';
import { FrameKeyText } from '../ui/frame-key-text';

type SortKey = 'bytes' | 'allocations' | 'key';

export interface HolderGroupsTableProps {
  groups: readonly HolderGroup[];
  by: GroupBy;
  totalBytes: number;
  /** Each listed group's bytes over the trace (sampled), by key; groups without one show none. */
  sparks: ReadonlyMap<string, Float64Array>;
  /** Index of the selected moment among the samples (-1: none). */
  momentIndex: number;
  /** What an empty table says (nothing alive, or nothing alive that the search keeps). */
  emptyText?: string;
}

export function HolderGroupsTable(props: HolderGroupsTableProps): JSX.Element {
  const { groups, by, totalBytes, sparks, momentIndex } = props;
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({
    key: 'bytes',
    descending: true,
  });
  const sorted = useMemo(() => {
    const list = [...groups];
    const sign = sort.descending ? -1 : 1;
    list.sort((a, b) =>
      sort.key === 'key'
        ? sign * a.title.localeCompare(b.title)
        : sign * (a[sort.key] - b[sort.key]) || b.bytes - a.bytes,
    );
    return list;
  }, [groups, sort]);
  const header = (key: SortKey, label: string, numeric: boolean): JSX.Element => (
    <th
      className={numeric ? 'numeric' : undefined}
      aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}
    >
      <button
        type="button"
        onClick={() =>
          setSort((current) =>
            current.key === key
              ? { key, descending: !current.descending }
              : { key, descending: key !== 'key' },
          )
        }
      >
        {label}
      </button>
    </th>
  );
  const share = (bytes: number): string =>
    totalBytes > 0 ? `${((100 * bytes) / totalBytes).toFixed(1)}%` : '–';
  return (
    <div className="holders-table largest-table">
      <div className="largest-table-scroll">
        <table data-testid="holders-table">
          <thead>
            <tr>
              {header('bytes', 'Bytes', true)}
              <th className="numeric">Share</th>
              {header('allocations', 'Allocations', true)}
              <th className="holders-spark-heading">Over time</th>
              {header(
                'key',
                GROUP_BY_NAMES[by].replace(/^./, (c) => c.toUpperCase()),
                false,
              )}
            </tr>
          </thead>
          <tbody>
            {sorted.map((group) => (
              <tr key={group.key} data-bytes={group.bytes}>
                <td className="numeric" title={`${formatExactBytes(group.bytes)} bytes`}>
                  {formatBytes(group.bytes)}
                </td>
                <td className="numeric">{share(group.bytes)}</td>
                <td className="numeric">{group.allocations.toLocaleString('en-US')}</td>
                <td className="holders-spark">
                  <Sparkline values={sparks.get(group.key)} momentIndex={momentIndex} />
                </td>
                <td
                  className="holders-key"
                  title={
                    group.topFrames.length > 0 && group.topFrames[0] !== group.title
                      ? `${shownText(group.title)}\nlargest stacks: ${group.topFrames.join(', ')}`
                      : shownText(group.title)
                  }
                >
                  {/* A key may be the user's metadata or a frame: megabytes long. */}
                  <FrameKeyText text={shownText(group.title)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {groups.length === 0 && (
          <p className="holders-empty" data-testid="holders-empty">
            {props.emptyText ?? 'Nothing is alive at this moment.'}
          </p>
        )}
      </div>
    </div>
  );
}
