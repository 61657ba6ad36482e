// The tab strip of the views under the timeline; the OOM tab is marked, with the count, on a
// device that ran out of memory.

import type { JSX } from 'react';
import { keysOf } from '../state/keyboard-shortcuts';
import { LOWER_VIEWS, PAGE_SHORTCUTS } from '../registry/lower-views';

export function LowerViewTabs(props: {
  /** The id of the view shown. */
  selected: string;
  /** OOMs of the device; 0 when it did not run out of memory. */
  oomCount: number;
  onSelect: (view: string) => void;
}): JSX.Element {
  const { selected, oomCount, onSelect } = props;
  return (
    <div className="lower-tabs" role="tablist" aria-label="Views of the selected moment">
      {LOWER_VIEWS.map((entry) => {
        const alarm = entry.id === 'oom' && oomCount > 0;
        const keys = keysOf(`view-${entry.id}`, 'other', PAGE_SHORTCUTS);
        return (
          <button
            key={entry.id}
            type="button"
            role="tab"
            id={`lower-tab-${entry.id}`}
            aria-selected={entry.id === selected}
            aria-controls="lower-view"
            className={alarm ? 'lower-tab lower-tab-alarm' : 'lower-tab'}
            data-testid={`view-tab-${entry.id}`}
            title={`${alarm ? `${entry.title} — this device ran out of memory` : entry.title} (${keys})`}
            aria-keyshortcuts={keys}
            onClick={() => onSelect(entry.id)}
          >
            {entry.label}
            {alarm && (
              <span className="lower-tab-badge" aria-label={`${oomCount} OOM`}>
                {oomCount}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
