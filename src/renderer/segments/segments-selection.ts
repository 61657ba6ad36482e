// What the segments view shows selected. An allocation's block is selected through its row (so
// the timeline and the table agree); a free block has no row, so the view keeps its address and
// shows whichever block holds that address at the moment shown. Pure, so it is unit-tested.

import type { AllocatorState } from '@shared/state/allocator-state';
import { blockAtStateAddress, blockOfRow } from './block-facts';

/** The selected block of the state; null when nothing is selected or it is not in this state. */
export function selectedBlockOf(
  state: AllocatorState,
  selectedRow: number | null,
  pickedAddress: number | null,
): number | null {
  const block =
    selectedRow !== null
      ? blockOfRow(state, selectedRow)
      : pickedAddress !== null
        ? blockAtStateAddress(state, pickedAddress)
        : -1;
  return block < 0 ? null : block;
}

export interface BlockPick {
  /** The allocation row to select; null for a free block or no block. */
  row: number | null;
  /** The free block's address to keep; null otherwise. */
  address: number | null;
}

/** What picking a block selects (null: clear the selection). */
export function pickOfBlock(state: AllocatorState | null, block: number | null): BlockPick {
  if (state === null || block === null) return { row: null, address: null };
  const row = state.blocks.allocationRow[block]!;
  return row >= 0 ? { row, address: null } : { row: null, address: state.blocks.address[block]! };
}
