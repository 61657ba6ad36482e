// What each colour means when the timeline's bands are coloured by a grouping (category, top user
// frame, file, ...): one row under the toolbar, a swatch and the group's name each, in the
// colouring's order (categories in their fixed order, other groupings largest at the peak first).

import type { JSX } from 'react';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import { legendName, type ColorLegendEntry } from '@shared/holders/band-coloring';
import { paletteColorCss } from './band-color-css';

export function ColorLegend(props: {
  /** The grouping's name ("category", "top user frame"). */
  name: string;
  entries: readonly ColorLegendEntry[];
}): JSX.Element {
  const { name, entries } = props;
  return (
    <ul className="tl-color-legend" aria-label={`Colours: ${name}`} data-testid="color-legend">
      {entries.map((entry) => (
        <li
          key={entry.name}
          data-group={entry.name}
          data-color={entry.color}
          title={`${entry.name}: ${formatBytes(entry.peakBytes)} (${formatExactBytes(entry.peakBytes)} B) alive at the active peak`}
        >
          <span
            className="tl-swatch"
            style={{ background: paletteColorCss(entry.color) }}
            aria-hidden="true"
          />
          <span className="tl-color-legend-name">{legendName(entry.name)}</span>
        </li>
      ))}
    </ul>
  );
}
