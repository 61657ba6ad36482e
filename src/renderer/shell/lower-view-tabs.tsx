// The tab strip of the views under the timeline; the OOM tab is marked, with the count, on a
// device that ran out of memory.

import type { JSX } from 'react';
import type { LowerViewId as LowerView } from '../state/tab-store';
import { keysOf } from '../state/keyboard-shortcuts';
import { LOWER_VIEWS } from './lower-views';

export function LowerViewTabs(props: {
  selected: LowerView;
  /** OOMs of the device; 0 when it did not run out of memory. */
  oomCount: number;
  onSelect: (view: LowerView) => void;
}): JSX.Element {
  const { selected, oomCount, onSelect } = props;
  return (
    <div className="lower-tabs" role="tablist" aria-label="Views of the selected moment">
      {LOWER_VIEWS.map((entry) => {
        const alarm = entry.id === 'oom' && oomCount > 0;
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
            title={`${alarm ? `${entry.title} — this device ran out of memory` : entry.title} (${keysOf(entry.command)})`}
            aria-keyshortcuts={keysOf(entry.command)}
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
