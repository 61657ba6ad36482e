// Under the fragmentation chart: the figures at the selected moment and at the active peak, in
// total and per pool, stream and size class.

import type { JSX } from 'react';
import type { GroupFigures, MemoryFigures } from '@shared/state/memory-figures';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { describeEvent } from '../allocations/allocation-facts';
import { groupKey, groupLabel } from '../segments/segment-groups';
import { GROUP_METRICS, METRICS, type Metric } from './fragmentation-metrics';

export function FragmentationFigures(props: {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  moment: number;
  peak: number;
  momentFigures: MemoryFigures | null;
  peakFigures: MemoryFigures | null;
  momentGroups: GroupFigures[];
  peakGroups: GroupFigures[];
}): JSX.Element {
  const { snapshot, device, moment, peak, momentFigures, peakFigures, momentGroups, peakGroups } =
    props;
  return (
    <div
      className="frag-figures"
      data-testid="fragmentation-figures"
      data-moment={String(moment)}
      data-peak={String(peak)}
    >
      <table className="frag-table frag-totals">
        <thead>
          <tr>
            <th scope="col">Total</th>
            <th scope="col" className="numeric" title={describeEvent(device, moment)}>
              Selected moment
              <span className="frag-sub">{describeEvent(device, moment)}</span>
            </th>
            <th scope="col" className="numeric" title={describeEvent(device, peak)}>
              Active peak
              <span className="frag-sub">{describeEvent(device, peak)}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {METRICS.map((metric) => (
            <tr key={metric.key}>
              <th scope="row" title={metric.title}>
                {metric.label}
              </th>
              <FigureCell
                figures={momentFigures}
                metric={metric}
                testId={`frag-moment-${metric.key}`}
              />
              <FigureCell
                figures={peakFigures}
                metric={metric}
                testId={`frag-peak-${metric.key}`}
              />
            </tr>
          ))}
        </tbody>
      </table>
      <GroupTable
        snapshot={snapshot}
        when="moment"
        title="By pool, stream and size class — selected moment"
        groups={momentGroups}
      />
      <GroupTable
        snapshot={snapshot}
        when="peak"
        title="By pool, stream and size class — active peak"
        groups={peakGroups}
      />
    </div>
  );
}

function GroupTable(props: {
  snapshot: AnalyzedSnapshot;
  when: 'moment' | 'peak';
  title: string;
  groups: GroupFigures[];
}): JSX.Element {
  const { snapshot, when, title, groups } = props;
  return (
    <table className="frag-table frag-groups" data-testid={`frag-groups-${when}`}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">Group</th>
          {GROUP_METRICS.map((metric) => (
            <th key={metric.key} scope="col" className="numeric" title={metric.title}>
              {metric.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {groups.length === 0 && (
          <tr>
            <td colSpan={GROUP_METRICS.length + 1} className="frag-muted">
              No segments at this moment.
            </td>
          </tr>
        )}
        {groups.map((group) => {
          const key = groupKey(group.poolIndex, group.streamId, group.segmentType);
          return (
            <tr key={key} data-testid="frag-group-row" data-when={when} data-group={key}>
              <th scope="row">{groupLabel(snapshot, group)}</th>
              {GROUP_METRICS.map((metric) => (
                <FigureCell key={metric.key} figures={group} metric={metric} />
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function FigureCell(props: {
  figures: MemoryFigures | null;
  metric: Metric;
  testId?: string;
}): JSX.Element {
  const { figures, metric, testId } = props;
  if (figures === null) return <td className="numeric frag-muted">…</td>;
  const value = metric.value(figures);
  if (metric.count) {
    return (
      <td className="numeric" data-testid={testId} data-count={String(value)}>
        {formatExactBytes(value)}
      </td>
    );
  }
  return (
    <td
      className="numeric"
      data-testid={testId}
      data-bytes={String(value)}
      title={`${formatExactBytes(value)} bytes`}
    >
      {formatBytes(value)}
    </td>
  );
}
