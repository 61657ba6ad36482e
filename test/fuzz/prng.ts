// The fuzz suite's seeded PRNG: the generators' mulberry32 (one implementation, the same
// sequences) plus the draws mutators need. Every case is a pure function of (run seed, case
// index), so any case can be re-created from the two numbers a report prints.

import { Prng as GeneratorPrng } from '../../generators/snapshot/prng';

export class Prng extends GeneratorPrng {
  /** Integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** A size skewed towards small values: 1..max, log-uniform. */
  logInt(max: number): number {
    return Math.max(1, Math.min(max, Math.floor(Math.exp(this.next() * Math.log(max + 1)))));
  }

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) out[i] = this.below(256);
    return out;
  }
}

/** The seed of case `index` of a run seeded with `runSeed` (independent streams per case). */
export function caseSeed(runSeed: number, index: number): number {
  let h = Math.imul(runSeed ^ 0x85ebca6b, 0xc2b2ae35) ^ Math.imul(index + 1, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}
