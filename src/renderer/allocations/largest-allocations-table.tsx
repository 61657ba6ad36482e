// The allocations alive at one moment (the clicked one, or the active peak), largest first:
// what filled the memory then. Selecting a row selects the same allocation in the chart.

import { useEffect, useMemo, useRef, useState, type JSX, type KeyboardEvent } from 'react';
import { allocationsAliveAt } from '@shared/analysis/allocation-table';
import { bytesOfRows } from '@shared/holders/alive-rows';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { deviceTimesUsable } from '@shared/analyzed/device-times';
import { describeEvent } from './allocation-facts';
import { largestTableRow, type LargestTableRow } from './largest-table-rows';
import { bandColorCss } from '../timeline/band-color-css';
import { LARGEST_TABLE_ROWS, tableEvent } from '../export/allocations-csv';
import type { HolderFilter } from '../holders/use-holder-filter';
import '../timeline/timeline.css';

export interface LargestAllocationsTableProps {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  /** An event index: the allocations alive then; null for the active peak. */
  moment: number | null;
  selectedRow: number | null;
  onSelectRow: (row: number | null) => void;
  /** The search or flame graph node of "Who holds it": only the allocations it keeps are listed. */
  filter?: Pick<HolderFilter, 'mask' | 'description' | 'clear'>;
}

type SortKey = 'size' | 'lifetime' | 'alloc' | 'frame';

interface SortOrder {
  key: SortKey;
  descending: boolean;
}

type TableRow = LargestTableRow;

const COLUMNS: { key: SortKey; label: string; numeric: boolean; firstDescending: boolean }[] = [
  { key: 'size', label: 'Size', numeric: true, firstDescending: true },
  { key: 'lifetime', label: 'Lifetime', numeric: true, firstDescending: true },
  { key: 'alloc', label: 'Allocated', numeric: false, firstDescending: false },
  { key: 'frame', label: 'Top user frame', numeric: false, firstDescending: false },
];

export function LargestAllocationsTable(props: LargestAllocationsTableProps): JSX.Element {
  const { snapshot, device, moment, selectedRow, onSelectRow, filter } = props;
  const mask = filter?.mask ?? null;
  const event = tableEvent(device, moment);
  const [order, setOrder] = useState<SortOrder>({ key: 'size', descending: true });
  const bodyRef = useRef<HTMLTableSectionElement>(null);

  const alive = useMemo(() => {
    const all = allocationsAliveAt(device.allocations, event);
    return mask === null ? all : all.filter((row) => mask[row] === 1);
  }, [device, event, mask]);
  const aliveBytes = useMemo(() => bytesOfRows(device, alive), [alive, device]);

  const rows = useMemo((): TableRow[] => {
    const useTimes = deviceTimesUsable(device);
    return Array.from(alive.subarray(0, LARGEST_TABLE_ROWS), (row) =>
      largestTableRow(snapshot, device, row, useTimes),
    );
  }, [alive, snapshot, device]);

  const sorted = useMemo(() => {
    const sign = order.descending ? -1 : 1;
    const compare = (a: TableRow, b: TableRow): number => {
      switch (order.key) {
        case 'size':
          return a.sizeBytes - b.sizeBytes;
        case 'lifetime':
          return a.lifetimeSort - b.lifetimeSort;
        case 'alloc':
          return a.allocEvent - b.allocEvent;
        case 'frame':
          return a.frameLabel < b.frameLabel ? -1 : a.frameLabel > b.frameLabel ? 1 : 0;
      }
    };
    // Ties keep the largest-first order the rows came in.
    return rows
      .map((row, index) => ({ row, index }))
      .sort((a, b) => sign * compare(a.row, b.row) || a.index - b.index)
      .map(({ row }) => row);
  }, [rows, order]);

  // A selection made in the chart scrolls its row into view.
  useEffect(() => {
    if (selectedRow === null) return;
    const element = bodyRef.current?.querySelector<HTMLElement>(`tr[data-row="${selectedRow}"]`);
    element?.scrollIntoView({ block: 'nearest' });
  }, [selectedRow, sorted]);

  const sortBy = (key: SortKey): void => {
    const column = COLUMNS.find((candidate) => candidate.key === key)!;
    setOrder((current) =>
      current.key === key
        ? { key, descending: !current.descending }
        : { key, descending: column.firstDescending },
    );
  };

  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, row: number): void => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelectRow(row);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next =
        event.key === 'ArrowDown'
          ? event.currentTarget.nextElementSibling
          : event.currentTarget.previousElementSibling;
      if (next instanceof HTMLElement) next.focus();
    }
  };

  const where = moment === null ? 'at the active peak' : 'at the selected moment';
  return (
    <section className="largest-table" data-testid="largest-table" aria-label="Largest allocations">
      <h3 className="largest-table-heading">
        Largest allocations {where}{' '}
        <span className="tl-exact">
          ({describeEvent(device, event)} · {formatExactBytes(alive.length)} alive,{' '}
          {formatBytes(aliveBytes)}
          {alive.length > LARGEST_TABLE_ROWS ? ` · top ${LARGEST_TABLE_ROWS}` : ''})
        </span>
      </h3>
      {filter !== undefined && mask !== null && (
        <p className="largest-table-filter" data-testid="largest-filter">
          Only the allocations {filter.description}.{' '}
          <button type="button" onClick={filter.clear}>
            Show all
          </button>
        </p>
      )}
      <div className="largest-table-scroll">
        <table role="grid" aria-label={`Largest allocations ${where}`}>
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  className={column.numeric ? 'numeric' : undefined}
                  aria-sort={
                    order.key === column.key
                      ? order.descending
                        ? 'descending'
                        : 'ascending'
                      : undefined
                  }
                >
                  <button type="button" onClick={() => sortBy(column.key)}>
                    {column.label}
                    {order.key === column.key ? (order.descending ? ' ↓' : ' ↑') : ''}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody ref={bodyRef}>
            {sorted.map((entry) => {
              const selected = entry.row === selectedRow;
              return (
                <tr
                  key={entry.row}
                  data-testid="largest-row"
                  data-row={entry.row}
                  aria-selected={selected}
                  className={selected ? 'is-selected' : undefined}
                  tabIndex={0}
                  onClick={() => onSelectRow(entry.row)}
                  onKeyDown={(event) => onRowKey(event, entry.row)}
                >
                  <td className="numeric" title={`${formatExactBytes(entry.sizeBytes)} B`}>
                    <span
                      className="tl-color-dot"
                      style={{ background: bandColorCss(entry.stackId) }}
                      aria-hidden="true"
                    />
                    {formatBytes(entry.sizeBytes)}
                  </td>
                  <td className="numeric">{entry.lifetimeText}</td>
                  <td>{entry.allocText}</td>
                  <td className="frame" title={entry.frameTitle}>
                    {entry.frameLabel}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {sorted.length === 0 && (
          <div className="largest-table-empty">No allocations are alive at this moment.</div>
        )}
      </div>
    </section>
  );
}
