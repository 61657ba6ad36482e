// Writes the snapshot's `segments` list from the simulated allocators' final state, with the keys
// in PyTorch's order (segmentInfoToDict: ..., blocks, then frames added last). Block addresses
// tile each segment; the totals are computed the way PyTorch's SegmentInfo does.

import {
  BLOCK_ALLOCATED,
  BLOCK_INACTIVE,
  BLOCK_PENDING_FREE,
  type AllocatorSim,
  type SimBlock,
  type BlockState,
} from './caching-allocator-sim';
import { writeContextFrames } from './context-frames';
import { tuple } from '../pickle/pickle-values';
import type { PickleWriter } from '../pickle/pickle-writer';

const STATE_NAMES: Record<BlockState, string> = {
  [BLOCK_INACTIVE]: 'inactive',
  [BLOCK_ALLOCATED]: 'active_allocated',
  [BLOCK_PENDING_FREE]: 'active_pending_free',
};

export interface SegmentsWritten {
  segments: number;
  blocks: number;
}

/** `written[i]` collects, for allocators[i], the memo index of each context's frames list. */
export function writeSegments(
  w: PickleWriter,
  allocators: readonly AllocatorSim[],
  written: readonly Map<number, number>[],
): SegmentsWritten {
  let segmentCount = 0;
  let blockCount = 0;
  w.beginList();
  allocators.forEach((allocator, i) => {
    const memo = written[i]!;
    const remember = (block: { ctx: SimBlock['ctx'] }): void => {
      writeContextFrames(w, block.ctx, memo);
      if (block.ctx !== null && !block.ctx.shared) memo.set(block.ctx.id, block.ctx.memoIndex);
    };
    for (const segment of allocator.listSegments()) {
      const blocks: SimBlock[] = [];
      let allocated = 0;
      let active = 0;
      let requested = 0;
      for (let b: SimBlock | null = segment.head; b !== null; b = b.next) {
        blocks.push(b);
        if (b.state === BLOCK_ALLOCATED) allocated += b.size;
        if (b.state !== BLOCK_INACTIVE) {
          active += b.size;
          requested += b.requested;
        }
      }
      w.beginDict();
      w.setItem('device', allocator.device);
      w.setItem('address', segment.addr);
      w.setItem('total_size', segment.size);
      w.setItem('allocated_size', allocated);
      w.setItem('active_size', active);
      w.setItem('requested_size', requested);
      w.setItem('stream', segment.stream);
      w.setItem('segment_type', segment.large ? 'large' : 'small');
      w.setItem('segment_pool_id', tuple(0, 0));
      w.setItem('is_expandable', false);
      w.key('blocks');
      w.beginList(blocks.length);
      for (const b of blocks) {
        w.beginDict();
        w.setItem('address', b.addr);
        w.setItem('size', b.size);
        w.setItem('requested_size', b.requested);
        w.setItem('state', STATE_NAMES[b.state]);
        w.key('frames');
        remember(b);
        w.endDict();
      }
      w.endList();
      w.key('frames');
      remember(segment);
      w.endDict();
      segmentCount++;
      blockCount += blocks.length;
    }
  });
  w.endList();
  return { segments: segmentCount, blocks: blockCount };
}
