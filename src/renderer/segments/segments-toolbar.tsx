// Above the segments picture: the legend of block states, the Fit/Detail scale switch and the
// moment's totals.

import { FIGURE } from '@shared/format/glossary';
import type { JSX } from 'react';
import type { AllocatorState } from '@shared/state/allocator-state';
import type { MemoryFigures } from '@shared/state/memory-figures';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { describeEvent } from '../allocations/allocation-facts';
import { countText } from './block-labels';
import type { SegmentsScale } from '@shared/chart/segments-scene';
import { BytesFigure } from '../ui/bytes-figure';

export function SegmentsToolbar(props: {
  device: AnalyzedDevice;
  /** Null while the state is being reconstructed. */
  state: AllocatorState | null;
  totals: MemoryFigures | null;
  scale: SegmentsScale;
  onScale: (scale: SegmentsScale) => void;
}): JSX.Element {
  const { device, state, totals, scale, onScale } = props;
  return (
    <div className="view-toolbar seg-toolbar">
      <SegmentsLegend />
      <div
        className="segmented seg-scale"
        role="radiogroup"
        aria-label="Scale"
        data-testid="segments-scale"
        data-value={scale}
      >
        <button
          type="button"
          role="radio"
          aria-checked={scale === 'fit'}
          title="Everything in view: thin segments are drawn a pixel wide"
          onClick={() => onScale('fit')}
        >
          Fit
        </button>
        <button
          type="button"
          role="radio"
          aria-checked={scale === 'detail'}
          title="Room for small segments and blocks; scroll for the rest"
          onClick={() => onScale('detail')}
        >
          Detail
        </button>
      </div>
      <div className="seg-totals" aria-live="polite">
        {state === null ? (
          <span className="seg-muted">Reconstructing the allocator state…</span>
        ) : (
          <>
            <span>{describeEvent(device, state.event)}</span>
            {totals !== null && (
              <>
                <span>{countText(totals.segmentCount, 'segment', 'segments')}</span>
                <BytesFigure label={FIGURE.reserved} bytes={totals.reservedBytes} />
                <BytesFigure label={FIGURE.inUse} bytes={totals.blockBytes} />
                <BytesFigure label={FIGURE.cachedFree} bytes={totals.cachedFreeBytes} />
                <BytesFigure label={FIGURE.largestFree} bytes={totals.largestFreeBytes} />
              </>
            )}
          </>
        )}
      </div>
    </div>
  );
}

function SegmentsLegend(): JSX.Element {
  return (
    <ul className="view-legend" aria-label="Legend">
      <li>
        <span className="seg-swatch seg-swatch-allocated" aria-hidden="true" />
        allocated
      </li>
      <li title="Freed by the program, not yet reusable: the allocator waits for the streams that used it">
        <span className="seg-swatch seg-swatch-pending" aria-hidden="true" />
        pending free
      </li>
      <li title="Free blocks the allocator keeps (reserved but unused)">
        <span className="seg-swatch seg-swatch-free" aria-hidden="true" />
        cached free
      </li>
      <li title="Expandable segments (expandable_segments:True): the bar is the extent mapped at this moment">
        <span className="seg-swatch seg-swatch-expandable" aria-hidden="true" />
        expandable (mapped extent)
      </li>
      <li title="The largest free block: the largest request that fits without a new segment">
        <span className="seg-swatch seg-swatch-hole" aria-hidden="true" />
        largest hole
      </li>
    </ul>
  );
}
