// The open snapshots as the ranks of one job (shown from the "Ranks" button once two or more are
// open: open every rank's file at once, from a folder, or drop them on the window): which file is
// which rank (from the names), each rank's peaks, first OOM and steps, the skew and the ranks that
// stand out (shared/compare/ranks.ts, as `allocscope ranks`), small multiples of the active curves
// with one cursor shared by all, and any two ranks one click from the Compare view.

import { useMemo, useState, type Dispatch, type JSX } from 'react';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { defaultDeviceIndex } from '@shared/analyzed/moments';
import { RESERVED_NOT_RECORDED, whyReservedNotRecorded } from '@shared/analyzed/reserved-recorded';
import {
  orderRanks,
  rankDetailOf,
  rankFiguresOf,
  ranksFinding,
  type RankDetail,
  type RanksFinding,
} from '@shared/compare/ranks';
import { formatBytes, formatExactBytes, formatSignedBytes } from '@shared/format/units';
import { deviceLabel } from '@shared/format/words';
import type { AppAction, SnapshotTab } from '../state/app-state';
import { compareCandidateId } from '../compare/compare-candidates';
import './ranks.css';
import { BytesCell } from '../ui/bytes-cell';

interface RankRow {
  rank: number;
  tab: SnapshotTab;
  device: AnalyzedDevice;
  /** The allocator's state at the active peak (what is cached but free, the largest hole), steps. */
  detail: RankDetail;
}

export function RanksPage(props: {
  tabs: readonly SnapshotTab[];
  /** Files still decoding (or waiting to): they join the table once decoded. */
  opening: number;
  dispatch: Dispatch<AppAction>;
}): JSX.Element {
  const { tabs, opening, dispatch } = props;
  const rows = useMemo((): RankRow[] => {
    const byName = new Map(tabs.map((tab) => [tab.fileName, tab]));
    const unique = byName.size === tabs.length;
    const ordered = orderRanks(tabs.map((tab, i) => (unique ? tab.fileName : `${i}`)));
    return ordered.flatMap(({ name, rank }) => {
      const tab = unique ? byName.get(name)! : tabs[Number(name)]!;
      const device = tab.snapshot.devices[defaultDeviceIndex(tab.snapshot.devices)];
      if (device === undefined) return [];
      return [{ rank, tab, device, detail: rankDetailOf(tab.snapshot, device) }];
    });
  }, [tabs]);
  const finding = useMemo(
    () =>
      ranksFinding(
        rows.map((row) => ({
          rank: row.rank,
          figures: rankFiguresOf([row.device.figures])!,
          detail: row.detail,
        })),
      ),
    [rows],
  );
  /** The shared cursor: a fraction of each trace, or null. */
  const [cursor, setCursor] = useState<number | null>(null);
  const [picked, setPicked] = useState<readonly number[]>([]);
  const pick = (rank: number): void =>
    setPicked((current) =>
      current.includes(rank) ? current.filter((r) => r !== rank) : [...current, rank].slice(-2),
    );
  const pair = picked.map((rank) => rows.find((row) => row.rank === rank)!);
  const rankList = (list: readonly number[]): string =>
    list.length === 0 ? 'none' : list.map((rank) => `rank ${rank}`).join(', ');
  return (
    <div className="ranks" data-testid="ranks-page">
      <div className="ranks-bar">
        <strong data-testid="ranks-finding">
          {rows.length} ranks · skew {finding.skew.toFixed(2)} (the highest peak active over the
          median, {formatBytes(finding.medianPeakActiveBytes)}) · outliers:{' '}
          {rankList(finding.outliers)} · out of memory: {rankList(finding.oomRanks)}
        </strong>
        <span data-testid="ranks-growth">{growthText(rows, finding)}</span>
        {opening > 0 && (
          <span className="ranks-opening" data-testid="ranks-opening">
            {opening} more opening…
          </span>
        )}
        <button
          type="button"
          className="button button-compact"
          data-testid="ranks-compare"
          disabled={pair.length !== 2}
          title="Tick two ranks, then compare them (the Compare view of the first)"
          onClick={() => {
            const [a, b] = pair;
            if (a === undefined || b === undefined) return;
            a.tab.store.getState().chooseComparison(compareCandidateId(b.tab.id, b.device.device));
            dispatch({ type: 'select-tab', tabId: a.tab.id });
          }}
        >
          {pair.length === 2
            ? `Compare rank ${pair[0]!.rank} with rank ${pair[1]!.rank}`
            : 'Compare two ranks'}
        </button>
      </div>
      <div className="largest-table ranks-table">
        <div className="largest-table-scroll">
          <table data-testid="ranks-table" aria-label="Ranks">
            <thead>
              <tr>
                <th aria-label="Pick for comparison" />
                <th className="numeric">Rank</th>
                <th className="numeric">Peak active</th>
                <th className="numeric">Peak reserved</th>
                <th
                  className="numeric"
                  title="At the active peak: reserved but not allocated (external fragmentation), and the largest free block"
                >
                  Cached free at peak
                </th>
                <th className="numeric">OOM at</th>
                <th className="numeric">Steps</th>
                <th
                  className="numeric"
                  title="Growth of the active bytes at the steps' ends per step (as the Steps view fits it); — with fewer than three steps"
                >
                  Growth / step
                </th>
                <th>Device</th>
                <th />
                <th>File</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const marks = [
                  finding.oomRanks.includes(row.rank) ? 'OOM' : '',
                  row.rank === finding.highestRank && !finding.highestShared ? 'highest' : '',
                  finding.peakOutliers.includes(row.rank) ? 'outlier' : '',
                  finding.growthOutliers.includes(row.rank) ? 'grows' : '',
                ].filter((mark) => mark !== '');
                const oom = row.device.ooms[0]?.eventIndex;
                return (
                  <tr
                    key={row.tab.id}
                    data-rank={row.rank}
                    data-peak={row.device.figures.active.peakBytes}
                    data-marks={marks.join(',')}
                    data-growth={row.detail.growthBytesPerStep ?? ''}
                    className={finding.outliers.includes(row.rank) ? 'ranks-outlier' : undefined}
                  >
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Pick rank ${row.rank}`}
                        checked={picked.includes(row.rank)}
                        onChange={() => pick(row.rank)}
                      />
                    </td>
                    <td className="numeric">{row.rank}</td>
                    <BytesCell bytes={row.device.figures.active.peakBytes} />
                    {row.device.figures.reservedRecorded ? (
                      <BytesCell bytes={row.device.figures.reserved.peakBytes} />
                    ) : (
                      // A CPU profiler trace records no reserved bytes: words, not 0 B.
                      <td className="numeric" data-testid="rank-reserved-not-recorded">
                        {RESERVED_NOT_RECORDED}
                      </td>
                    )}
                    <CachedFreeCell detail={row.detail} snapshot={row.tab.snapshot} />
                    <td className="numeric">{oom === undefined ? '—' : `event ${oom}`}</td>
                    <td className="numeric">{row.detail.steps}</td>
                    <td className="numeric">
                      {row.detail.growthBytesPerStep === null
                        ? '—'
                        : formatSignedBytes(row.detail.growthBytesPerStep)}
                    </td>
                    <td>{deviceLabel(row.device.device)}</td>
                    <td className="ranks-marks">{marks.join(', ')}</td>
                    <td className="holders-key" title={row.tab.fileName}>
                      <button
                        type="button"
                        className="ranks-open"
                        onClick={() => dispatch({ type: 'select-tab', tabId: row.tab.id })}
                      >
                        {row.tab.fileName}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </div>
      <div
        className="ranks-multiples"
        data-testid="ranks-multiples"
        data-cursor={cursor === null ? '' : cursor.toFixed(3)}
        onMouseLeave={() => setCursor(null)}
      >
        {rows.map((row) => (
          <SmallTimeline
            key={row.tab.id}
            row={row}
            top={Math.max(...rows.map((other) => other.device.figures.active.peakBytes), 1)}
            cursor={cursor}
            onCursor={setCursor}
            outlier={finding.outliers.includes(row.rank)}
          />
        ))}
      </div>
    </div>
  );
}

/** The ranks that grow per step beside the others (shared finding), as `allocscope ranks` says. */
function growthText(rows: readonly RankRow[], finding: RanksFinding): string {
  if (finding.medianGrowthBytesPerStep === null) return 'growth per step: too few steps';
  const median = `median ${formatSignedBytes(finding.medianGrowthBytesPerStep)} per step`;
  if (finding.growthOutliers.length === 0) return `growth per step: no rank stands out (${median})`;
  const named = finding.growthOutliers.map((rank) => {
    const growth = rows.find((row) => row.rank === rank)?.detail.growthBytesPerStep ?? 0;
    return `rank ${rank} (${formatSignedBytes(growth)} per step)`;
  });
  return `growing step after step: ${named.join(', ')} · ${median}`;
}

const WIDTH = 300;
const HEIGHT = 64;
const SAMPLES = 150;

/** A rank's active curve over its trace (0 to 1), on the scale shared by all, with the cursor. */
function SmallTimeline(props: {
  row: RankRow;
  top: number;
  cursor: number | null;
  onCursor: (fraction: number) => void;
  outlier: boolean;
}): JSX.Element {
  const { row, top, cursor, onCursor, outlier } = props;
  const { device } = row;
  const envelope = useMemo(() => {
    const length = device.traceLength;
    return Array.from({ length: SAMPLES }, (_, i) => {
      const start = Math.floor((i / SAMPLES) * length);
      const end = Math.max(start + 1, Math.floor(((i + 1) / SAMPLES) * length));
      let most = length === 0 ? device.figures.active.baselineBytes : 0;
      for (let event = start; event < Math.min(end, length); event++)
        most = Math.max(most, device.activeBytes[event]!);
      return most;
    });
  }, [device]);
  const y = (bytes: number): number => HEIGHT - 2 - (bytes / top) * (HEIGHT - 6);
  const points = envelope
    .map((bytes, i) => `${((i + 0.5) / SAMPLES) * WIDTH},${y(bytes).toFixed(1)}`)
    .join(' ');
  const atCursor =
    cursor === null
      ? null
      : envelope[Math.min(SAMPLES - 1, Math.max(0, Math.floor(cursor * SAMPLES)))]!;
  return (
    <figure
      className={outlier ? 'ranks-small ranks-outlier' : 'ranks-small'}
      data-rank={row.rank}
      data-at-cursor={atCursor ?? ''}
    >
      <figcaption>
        rank {row.rank}
        {atCursor !== null && (
          <span className="ranks-cursor-value" title={`${formatExactBytes(atCursor)} bytes`}>
            {' '}
            {formatBytes(atCursor)}
          </span>
        )}
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Active memory of rank ${row.rank} over its trace`}
        onMouseMove={(event) => {
          const box = event.currentTarget.getBoundingClientRect();
          onCursor(Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)));
        }}
      >
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.2" />
        {cursor !== null && (
          <line
            x1={cursor * WIDTH}
            x2={cursor * WIDTH}
            y1={0}
            y2={HEIGHT}
            className="ranks-cursor"
            strokeWidth="1"
          />
        )}
      </svg>
    </figure>
  );
}

/** What is cached but free at the active peak, and the largest hole; words where not recorded. */
function CachedFreeCell(props: { detail: RankDetail; snapshot: AnalyzedSnapshot }): JSX.Element {
  const { cachedFreeAtPeakBytes: cached, largestFreeAtPeakBytes: largest } = props.detail;
  if (cached === null || largest === null) {
    return (
      <td
        className="numeric"
        data-testid="rank-cached-free-not-recorded"
        title={`No segments: ${whyReservedNotRecorded(props.snapshot.source)}`}
      >
        {RESERVED_NOT_RECORDED}
      </td>
    );
  }
  return (
    <td
      className="numeric"
      data-cached-free={cached}
      title={`${formatExactBytes(cached)} bytes free in ${props.detail.freeBlocksAtPeak} blocks; the largest ${formatBytes(largest)}`}
    >
      {formatBytes(cached)} (largest {formatBytes(largest)})
    </td>
  );
}
