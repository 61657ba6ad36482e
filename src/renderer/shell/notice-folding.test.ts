import { describe, expect, it } from 'vitest';
import { foldNotices, foldedLabel } from './notice-folding';

describe('foldNotices', () => {
  it('shows every notice that fits', () => {
    expect(foldNotices(0, 2, false)).toEqual({ shown: 0, folded: 0 });
    expect(foldNotices(2, 2, false)).toEqual({ shown: 2, folded: 0 });
  });

  it('keeps the first line and folds the rest behind one more line', () => {
    expect(foldNotices(3, 2, false)).toEqual({ shown: 1, folded: 2 });
    expect(foldNotices(5, 2, false)).toEqual({ shown: 1, folded: 4 });
    expect(foldNotices(2, 1, false)).toEqual({ shown: 0, folded: 2 });
  });

  it('shows them all once unfolded', () => {
    expect(foldNotices(5, 2, true)).toEqual({ shown: 5, folded: 0 });
  });

  it('says how many are folded', () => {
    expect(foldedLabel(foldNotices(3, 2, false))).toBe('2 more notices');
    expect(foldedLabel({ shown: 1, folded: 1 })).toBe('1 more notice');
    expect(foldedLabel(foldNotices(2, 1, false))).toBe('2 notices');
  });
});
