import { describe, expect, it } from 'vitest';
import { AddressMap } from './address-map';

describe('AddressMap', () => {
  it('behaves like a Map under random set/get/delete with reused addresses', () => {
    const ours = new AddressMap(4);
    const reference = new Map<number, number>();
    let seed = 7;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed % n;
    };
    for (let step = 0; step < 200_000; step++) {
      // Realistic keys: 512-byte aligned addresses near 1.4e14, drawn from a small pool so they repeat.
      const key = 140_000_000_000_000 + random(5000) * 512;
      const op = random(3);
      if (op === 0) {
        expect(ours.set(key, step)).toBe(reference.get(key) ?? -1);
        reference.set(key, step);
      } else if (op === 1) {
        expect(ours.delete(key)).toBe(reference.get(key) ?? -1);
        reference.delete(key);
      } else {
        expect(ours.get(key)).toBe(reference.get(key) ?? -1);
      }
      expect(ours.size).toBe(reference.size);
    }
    const seen = new Map<number, number>();
    ours.forEach((key, value) => seen.set(key, value));
    expect(seen).toEqual(reference);
  });
});
