// Size classes (group by size): powers of two, the lower bound included; one class below 512 B.

import { describe, expect, it } from 'vitest';
import { sizeClassKey } from './group-by';

describe('sizeClassKey', () => {
  it('puts a size in the power-of-two class that holds it', () => {
    expect(sizeClassKey(1)).toBe('< 512 B');
    expect(sizeClassKey(511)).toBe('< 512 B');
    for (let power = 9; power < 40; power++) {
      const lower = 2 ** power;
      expect(sizeClassKey(lower), `2^${power}`).toBe(sizeClassKey(lower * 2 - 1));
      expect(sizeClassKey(lower)).not.toBe(sizeClassKey(lower * 2));
      expect(sizeClassKey(lower)).not.toBe(sizeClassKey(lower - 1));
    }
    expect(sizeClassKey(3 * 2 ** 20)).toMatch(/^2(\.0)? MiB – 4(\.0)? MiB$/);
  });
});
