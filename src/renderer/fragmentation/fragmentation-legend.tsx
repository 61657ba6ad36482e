// The fragmentation chart's legend: what each curve is, with how it is measured on hover.

import type { JSX } from 'react';
import { formatBytes, formatExactBytes } from '@shared/format/units';

export function FragmentationLegend(props: { smallHoleThresholdBytes: number }): JSX.Element {
  const threshold = props.smallHoleThresholdBytes;
  return (
    <ul className="view-legend" aria-label="Legend">
      <li title="Reserved minus active bytes after every event (exact)">
        <span className="frag-swatch frag-swatch-cached" aria-hidden="true" />
        reserved − active
      </li>
      <li title="The largest free block of any segment (sampled moments)">
        <span className="frag-swatch frag-swatch-largest" aria-hidden="true" />
        largest free block
      </li>
      <li title="Σ (block size − requested size) of live blocks (sampled moments)">
        <span className="frag-swatch frag-swatch-waste" aria-hidden="true" />
        internal waste
      </li>
      <li
        title={`Share of reserved bytes in free blocks smaller than ${formatBytes(threshold)} (${formatExactBytes(threshold)} B), the size half of all requested bytes come in (lower pane)`}
      >
        <span className="frag-swatch frag-swatch-small" aria-hidden="true" />
        small holes (&lt; {formatBytes(threshold)}) % of reserved
      </li>
    </ul>
  );
}
