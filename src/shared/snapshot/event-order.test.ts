import { describe, expect, it } from 'vitest';
import { orderByKeyThen } from './event-order';

/** The order a plain comparator sort of (key, time, index) gives: what orderByKeyThen must give. */
function reference(key: number[], time: number[]): number[] {
  return key.map((_, i) => i).sort((a, b) => key[a]! - key[b]! || time[a]! - time[b]! || a - b);
}

describe('orderByKeyThen', () => {
  const byTime = (time: number[]) => (a: number, b: number) => time[a]! - time[b]! || a - b;

  it('groups by key in ascending order, each group in time order, ties in file order', () => {
    const key = [2, 0, 1, 0, 2, 1, 0];
    const time = [5, 3, 9, 1, 5, 2, 3];
    expect([...orderByKeyThen(key.length, Int32Array.from(key), byTime(time))]).toEqual(
      reference(key, time),
    );
  });

  it('agrees with a comparator sort on shuffled and presorted inputs', () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const presorted of [false, true]) {
      const n = 2000;
      const key = Array.from({ length: n }, () => Math.floor(random() * 5));
      const time = Array.from({ length: n }, (_, i) =>
        presorted ? i : Math.floor(random() * 100),
      );
      expect([...orderByKeyThen(n, Int32Array.from(key), byTime(time))]).toEqual(
        reference(key, time),
      );
    }
  });

  it('without keys, just the time order', () => {
    const time = [3, 1, 2];
    expect([...orderByKeyThen(3, null, byTime(time))]).toEqual([1, 2, 0]);
  });
});
