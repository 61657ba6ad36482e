// Short texts and classes the segments view shows for a block: its heading, its size, the swatch
// of its state, and counts of things. No DOM, so it is unit-tested.

import { formatExactBytes } from '@shared/format/units';
import { bytesWithExact } from '../allocations/allocation-facts';
import type { BlockFacts } from './block-facts';
import { capitalized } from '@shared/format/words';

/** "3 segments", "1 free block": a grouped count and the noun it counts. */
export function countText(count: number, singular: string, plural: string): string {
  return `${formatExactBytes(count)} ${count === 1 ? singular : plural}`;
}

/** The block's size in both forms, marked when it is the allocator's rounding of the request. */
export function blockSizeText(facts: BlockFacts): string {
  return `${bytesWithExact(facts.sizeBytes)}${facts.sizeIsEstimate ? ' · estimated' : ''}`;
}

/** The suffix of the legend's swatch class (seg-swatch-…) for the block's state. */
export function blockSwatch(facts: Pick<BlockFacts, 'kind'>): string {
  if (facts.kind === 'allocated') return 'allocated';
  if (facts.kind === 'pending free') return 'pending';
  return 'free';
}

/** "Allocated block", "Pending free block", "Cached free block". */
export function blockHeading(facts: Pick<BlockFacts, 'kind'>): string {
  return facts.kind === 'cached free' ? 'Cached free block' : `${capitalized(facts.kind)} block`;
}
