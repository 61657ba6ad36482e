// Beside the segments picture: the clicked block's figures, its allocation's times and stream,
// its segment and group, and the allocation's stack; a hint while nothing is selected.

import type { JSX } from 'react';
import { formatExactBytes } from '@shared/format/units';
import { EXPANDABLE } from '@shared/format/words';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { allocationFacts, bytesWithExact } from '../allocations/allocation-facts';
import type { BlockFacts } from './block-facts';
import { blockHeading, blockSwatch } from './block-labels';
import { BlockFigures } from './block-figures';
import { StackLines } from '../allocations/stack-lines';

/** Frames listed under the top user frame; the allocation panel lists them all. */
const DETAIL_FRAMES = 12;

export function BlockDetails(props: {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  facts: BlockFacts | null;
  onClose: () => void;
}): JSX.Element {
  const { snapshot, device, facts, onClose } = props;
  const allocation =
    facts?.allocationRow === null || facts === null
      ? null
      : allocationFacts(snapshot, device, facts.allocationRow);
  return (
    <aside
      className="seg-details"
      data-testid="segment-block-details"
      aria-label="Selected block"
      data-block={facts === null ? undefined : String(facts.block)}
      data-row={facts?.allocationRow == null ? undefined : String(facts.allocationRow)}
      data-kind={facts?.kind}
    >
      {facts === null ? (
        <p className="seg-muted seg-details-empty">
          Click a block for its size, request, rounding waste and stack. Clicking an allocation’s
          block also selects it on the timeline.
        </p>
      ) : (
        <>
          <div className="seg-details-header">
            <h3>
              <span className={`seg-swatch seg-swatch-${blockSwatch(facts)}`} aria-hidden="true" />
              {blockHeading(facts)}
            </h3>
            <button
              type="button"
              className="tl-button"
              onClick={onClose}
              aria-label="Clear the selection"
              title="Clear the selection"
            >
              ✕
            </button>
          </div>
          <dl className="tl-facts seg-details-facts">
            <BlockFigures facts={facts} />
            {allocation !== null && (
              <>
                <dt>allocated</dt>
                <dd>{allocation.allocText}</dd>
                <dt>freed</dt>
                <dd>{allocation.freeText}</dd>
                <dt>stream</dt>
                <dd>{allocation.stream}</dd>
              </>
            )}
            <dt>segment</dt>
            <dd>
              <span className="tl-mono">{facts.segment.address}</span> ·{' '}
              {bytesWithExact(facts.segment.sizeBytes)}
            </dd>
            <dt>at offset</dt>
            <dd>{bytesWithExact(facts.offsetBytes)}</dd>
            <dt>group</dt>
            <dd>
              {facts.segment.group}
              {facts.segment.expandable ? ` · ${EXPANDABLE}` : ''}
            </dd>
            <dt>in segment</dt>
            <dd>
              {formatExactBytes(facts.segment.blockCount)} blocks,{' '}
              {formatExactBytes(facts.segment.freeBlockCount)} free
            </dd>
          </dl>
          {allocation !== null && (
            <>
              <h4 className="seg-details-subheading">Stack</h4>
              <StackLines
                snapshot={snapshot}
                stackId={allocation.stackId}
                limit={DETAIL_FRAMES}
                testId="segment-detail-frame"
              />
              <p className="seg-muted">Selected on the timeline; its panel lists the full stack.</p>
            </>
          )}
        </>
      )}
    </aside>
  );
}
