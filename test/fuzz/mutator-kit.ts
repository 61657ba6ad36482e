// What every mutator shares: the case's inputs (seeds, PRNG, size limits), what a mutation
// returns, and byte helpers. Mutators live in mutators.ts (pickle bytes and values) and in one
// file per container or field family (json-form-mutator.ts, gzip-mutator.ts, ...).

import type { Prng } from './prng';
import { concat } from '../support/bytes';

export interface Seed {
  name: string;
  bytes: Uint8Array;
}

export interface FuzzProfile {
  /** Largest count of opcodes a deep-nesting mutation inserts. */
  maxNesting: number;
  /** Largest input a mutation may produce by growing a seed (duplicated chunks). */
  maxGrowBytes: number;
  /** Longest string a label or metadata mutation writes (frame names, user_metadata). */
  maxStringBytes: number;
  /** Most trace lists (devices) a device-count mutation writes. */
  maxDeviceLists: number;
  /** Most bytes a high-ratio gzip member inflates to (its compressed size is ~1/1000 of it). */
  maxInflatedBytes: number;
}

const KiB = 1 << 10;
const MiB = 1 << 20;

export const QUICK_PROFILE: FuzzProfile = {
  maxNesting: 100_000,
  maxGrowBytes: MiB,
  maxStringBytes: 256 * KiB,
  maxDeviceLists: 100_000,
  maxInflatedBytes: 64 * MiB,
};
export const LONG_PROFILE: FuzzProfile = {
  maxNesting: 2_000_000,
  maxGrowBytes: 8 * MiB,
  maxStringBytes: MiB,
  maxDeviceLists: 1_000_000,
  maxInflatedBytes: 2048 * MiB,
};

export interface Mutation {
  bytes: Uint8Array;
  /** Which seed it started from. */
  seed: string;
  /** What was done, in a few words (for the report). */
  note: string;
  /** A code-loading opcode stands at an opcode boundary: the input must be refused as such. */
  expectCodeLoadingRefused?: boolean;
}

export interface MutatorContext {
  rng: Prng;
  seeds: readonly Seed[];
  profile: FuzzProfile;
  /**
   * A case of one of the named mutators, from the same PRNG: what containers (gzip members, the
   * HTML page) wrap.
   */
  inner: (mutators: readonly string[]) => Mutation;
}

export type Mutator = (ctx: MutatorContext) => Mutation;

// ---- byte helpers ----

// One copy with the hostile files (test/support/bytes.ts).
export { ascii, concat } from '../support/bytes';

export function splice(
  bytes: Uint8Array,
  at: number,
  remove: number,
  insert: Uint8Array,
): Uint8Array {
  return concat(bytes.subarray(0, at), insert, bytes.subarray(at + remove));
}

export function littleEndian(value: bigint, width: number): Uint8Array {
  const out = new Uint8Array(width);
  let rest = BigInt.asUintN(width * 8, value);
  for (let i = 0; i < width; i++) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

export function repeat(pattern: Uint8Array, times: number): Uint8Array {
  const out = new Uint8Array(pattern.length * times);
  for (let i = 0; i < times; i++) out.set(pattern, i * pattern.length);
  return out;
}

export function pickSeed(ctx: MutatorContext): Seed {
  return ctx.rng.pick(ctx.seeds);
}

/**
 * Text for a case's note, quoted, with every character a terminal would act on escaped (JSON
 * leaves DEL, C1 and bidi controls raw): notes are printed by the runner and saved with findings.
 */
export function shown(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
