import { describe, expect, it } from 'vitest';
import { mergedRectsPath } from './timeline-svg-spans';

describe('mergedRectsPath', () => {
  it('merges ranges that overlap or nearly touch, in x order', () => {
    expect(
      mergedRectsPath(
        [
          [30, 40],
          [0, 10],
          [10.4, 12],
          [5, 8],
        ],
        2,
        3,
      ),
    ).toBe('M0 2h12v3h-12zM30 2h10v3h-10z');
  });

  it('is empty without ranges', () => {
    expect(mergedRectsPath([], 0, 2)).toBe('');
  });
});
