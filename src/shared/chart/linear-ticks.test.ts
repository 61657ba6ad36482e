import { describe, expect, it } from 'vitest';
import { linearTicks } from './linear-ticks';

describe('linearTicks', () => {
  it('steps by 1, 2 or 5 times a power of ten, about `count` ticks', () => {
    expect(linearTicks(0, 10_327, 14)).toEqual([
      0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10_000,
    ]);
  });

  it('writes fractional ticks exactly', () => {
    expect(linearTicks(0, 0.3, 3)).toEqual([0, 0.1, 0.2, 0.3]);
  });
});
