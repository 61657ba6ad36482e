// The segments view's tooltip over a hovered block: its figures, its segment and, for an
// allocation, the top of its stack.

import { useRef, type JSX } from 'react';
import { formatBytes } from '@shared/format/units';
import { EXPANDABLE } from '@shared/format/words';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import type { BlockFacts } from './block-facts';
import type { SegmentsHover } from './segments-chart';
import { BlockFigures } from './block-figures';
import { StackLines } from '../allocations/stack-lines';
import { usePlacedTooltip } from '../ui/use-placed-tooltip';

/** Frames listed under the top user frame; the details panel lists more. */
const TOOLTIP_FRAMES = 5;

export function BlockTooltip(props: {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  facts: BlockFacts;
  hover: SegmentsHover;
}): JSX.Element {
  const { snapshot, device, facts, hover } = props;
  const ref = useRef<HTMLDivElement>(null);
  usePlacedTooltip(ref, hover.x, hover.y);

  const stackId =
    facts.allocationRow === null ? null : device.allocations.stackId[facts.allocationRow]!;
  return (
    <div
      ref={ref}
      className="tl-tooltip seg-tooltip"
      role="tooltip"
      data-testid="segments-tooltip"
      data-block={String(facts.block)}
      data-row={facts.allocationRow === null ? undefined : String(facts.allocationRow)}
    >
      <div className="tl-tooltip-title">
        <span>{formatBytes(facts.sizeBytes)}</span>
        <span className="tl-exact">{facts.kind} block</span>
      </div>
      <dl className="tl-facts">
        <BlockFigures facts={facts} />
        <dt>segment</dt>
        <dd>
          {facts.segment.address} · {formatBytes(facts.segment.sizeBytes)}
          {facts.segment.expandable ? ` · ${EXPANDABLE}` : ''}
        </dd>
      </dl>
      {stackId !== null && (
        <StackLines
          snapshot={snapshot}
          stackId={stackId}
          limit={TOOLTIP_FRAMES}
          testId="segments-frame"
        />
      )}
      <div className="tl-tooltip-muted">
        {facts.allocationRow === null ? 'Click to keep it in the details.' : 'Click for details.'}
      </div>
    </div>
  );
}
