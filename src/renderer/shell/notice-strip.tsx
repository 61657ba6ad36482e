// A list of notices in little room (notice-folding.ts): up to `room` one-line notices side by
// side (a row) or one above the other (a stack); beyond that the first one and an "N more
// notices" button that unfolds them all.

import { useState, type JSX, type ReactNode } from 'react';
import { foldNotices, foldedLabel } from './notice-folding';

export interface NoticeItem {
  readonly key: string;
  readonly node: ReactNode;
}

export function NoticeStrip(props: {
  items: readonly NoticeItem[];
  room: number;
  layout: 'row' | 'stack';
  className: string;
  label: string;
  testId: string;
}): JSX.Element | null {
  const { items, room } = props;
  const [unfolded, setUnfolded] = useState(false);
  if (items.length === 0) return null;
  const folded = foldNotices(items.length, room, unfolded);
  const canFold = unfolded && items.length > room;
  return (
    <section
      className={`notice-strip notice-strip-${unfolded ? 'stack' : props.layout} ${props.className}`}
      aria-label={props.label}
      data-testid={props.testId}
      data-count={items.length}
      data-folded={folded.folded}
    >
      {items.map((item, index) => (
        // Folded notices stay in the DOM (hidden), so what they say is still there to find.
        <div key={item.key} className="notice-slot" hidden={index >= folded.shown}>
          {item.node}
        </div>
      ))}
      {(folded.folded > 0 || canFold) && (
        <button
          type="button"
          className="notice-more"
          data-testid="notices-more"
          aria-expanded={unfolded}
          onClick={() => setUnfolded(!unfolded)}
        >
          {unfolded ? 'Fold the notices ▴' : `${foldedLabel(folded)} ▾`}
        </button>
      )}
    </section>
  );
}
