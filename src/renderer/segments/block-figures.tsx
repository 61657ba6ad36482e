// A block's address, size, request and rounding waste: the first rows of both the segments view's
// tooltip and its details panel (a fragment of a <dl>).

import type { JSX } from 'react';
import { bytesWithExact } from '../allocations/allocation-facts';
import type { BlockFacts } from './block-facts';
import { blockSizeText } from './block-labels';

export function BlockFigures(props: { facts: BlockFacts }): JSX.Element {
  const { facts } = props;
  return (
    <>
      <dt>address</dt>
      <dd className="tl-mono">{facts.address}</dd>
      <dt>size</dt>
      <dd
        data-testid="block-size"
        data-bytes={String(facts.sizeBytes)}
        title={
          facts.sizeIsEstimate
            ? 'Estimated: the allocator’s rounding of the request (the block was gone by the time of the snapshot)'
            : undefined
        }
      >
        {blockSizeText(facts)}
      </dd>
      {facts.requestedBytes !== null && (
        <>
          <dt>requested</dt>
          <dd data-testid="block-requested" data-bytes={String(facts.requestedBytes)}>
            {bytesWithExact(facts.requestedBytes)}
          </dd>
          <dt>rounding waste</dt>
          <dd data-testid="block-waste" data-bytes={String(facts.wasteBytes)}>
            {bytesWithExact(facts.wasteBytes!)}
            {facts.sizeIsEstimate ? ' · estimated' : ''}
          </dd>
        </>
      )}
    </>
  );
}
