import { describe, expect, it } from 'vitest';
import type { BlockFacts } from './block-facts';
import { blockHeading, blockSizeText, blockSwatch, countText } from './block-labels';

describe('block labels', () => {
  it('counts with the right noun', () => {
    expect(countText(1, 'segment', 'segments')).toBe('1 segment');
    expect(countText(1234, 'free block', 'free blocks')).toBe('1,234 free blocks');
    expect(countText(0, 'segment', 'segments')).toBe('0 segments');
  });

  it('names and colours each block state', () => {
    expect(blockHeading({ kind: 'allocated' })).toBe('Allocated block');
    expect(blockHeading({ kind: 'pending free' })).toBe('Pending free block');
    expect(blockHeading({ kind: 'cached free' })).toBe('Cached free block');
    expect(blockSwatch({ kind: 'allocated' })).toBe('allocated');
    expect(blockSwatch({ kind: 'pending free' })).toBe('pending');
    expect(blockSwatch({ kind: 'cached free' })).toBe('free');
  });

  it('marks an estimated size', () => {
    const facts = { sizeBytes: 2048, sizeIsEstimate: true } as BlockFacts;
    expect(blockSizeText(facts)).toBe('2.0 KiB (2,048 B) · estimated');
    expect(blockSizeText({ ...facts, sizeIsEstimate: false })).toBe('2.0 KiB (2,048 B)');
  });
});
