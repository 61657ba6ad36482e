// A group's header over its rows in the segments picture: pool, stream and size class, with the
// group's figures. Placed by the chart's layout (top, left in the scrolled content).

import { FIGURE } from '@shared/format/glossary';
import type { JSX } from 'react';
import type { MemoryFigures } from '@shared/state/memory-figures';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { countText } from './block-labels';
import { groupLabel, type SegmentGroup } from './segment-groups';
import { BytesFigure } from '../ui/bytes-figure';

export function SegmentsGroupHeader(props: {
  snapshot: AnalyzedSnapshot;
  group: SegmentGroup;
  figures: MemoryFigures | null;
  top: number;
  left: number;
}): JSX.Element {
  const { snapshot, group, figures, top, left } = props;
  return (
    <div
      className="seg-group-header"
      style={{ top, left }}
      data-testid="segments-group"
      data-group={group.key}
      data-segments={String(group.segments.length)}
      data-reserved-bytes={figures === null ? undefined : String(figures.reservedBytes)}
      data-free-bytes={figures === null ? undefined : String(figures.cachedFreeBytes)}
    >
      <span className="seg-group-name">{groupLabel(snapshot, group)}</span>
      {figures !== null && (
        <span className="seg-group-figures">
          <span>{countText(figures.segmentCount, 'segment', 'segments')}</span>
          <BytesFigure label={FIGURE.reserved} bytes={figures.reservedBytes} />
          <BytesFigure label={FIGURE.inUse} bytes={figures.blockBytes} />
          <BytesFigure label={FIGURE.cachedFree} bytes={figures.cachedFreeBytes} />
          <BytesFigure label={FIGURE.largestFree} bytes={figures.largestFreeBytes} />
          <span data-count={String(figures.freeBlockCount)}>
            {countText(figures.freeBlockCount, 'free block', 'free blocks')}
          </span>
        </span>
      )}
    </div>
  );
}
