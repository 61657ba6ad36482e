import { describe, expect, it } from 'vitest';
import { allocatorStateOf } from '../../../test/support/builders/allocator-state';
import { pickOfBlock, selectedBlockOf } from './segments-selection';

const state = allocatorStateOf([
  {
    address: 0x1000,
    blocks: [
      { sizeBytes: 512, kind: 'allocated', row: 7 },
      { sizeBytes: 512, kind: 'free' },
      { sizeBytes: 1024, kind: 'pending free', row: 3 },
    ],
  },
]);

describe('selectedBlockOf', () => {
  it('finds the selected allocation’s block', () => {
    expect(selectedBlockOf(state, 7, null)).toBe(0);
    expect(selectedBlockOf(state, 3, 0x1000)).toBe(2);
  });

  it('finds the block holding a picked free address when no allocation is selected', () => {
    expect(selectedBlockOf(state, null, 0x1000 + 600)).toBe(1);
  });

  it('is null when nothing is selected or the selection is not alive', () => {
    expect(selectedBlockOf(state, null, null)).toBeNull();
    expect(selectedBlockOf(state, 9, null)).toBeNull();
    expect(selectedBlockOf(state, null, 0x9000)).toBeNull();
  });
});

describe('pickOfBlock', () => {
  it('selects an allocation’s row, or keeps a free block’s address', () => {
    expect(pickOfBlock(state, 0)).toEqual({ row: 7, address: null });
    expect(pickOfBlock(state, 2)).toEqual({ row: 3, address: null });
    expect(pickOfBlock(state, 1)).toEqual({ row: null, address: 0x1000 + 512 });
  });

  it('clears the selection without a block or a state', () => {
    expect(pickOfBlock(state, null)).toEqual({ row: null, address: null });
    expect(pickOfBlock(null, 0)).toEqual({ row: null, address: null });
  });
});
