// The memo of one part of a parallel decode (issue 25; docs/parallel-decode.md): its own entries
// are numbered from the part's base (the MEMOIZE opcodes before it), and entries below the base,
// which earlier parts made, are read again from the bytes by a ForeignMemo when first named.

import type { ForeignMemo } from './foreign-memo';
import { Memo, MemoCode, type MemoOptions, type MemoSlots } from './memo';

// Codes of foreign objects: below every code of the part's own objects (a part makes far fewer
// than 2^30 objects), so objectOf() tells them apart by range.
const FIRST_FOREIGN = -(2 ** 30);
const PAGE_BITS = 16;
const PAGE_SIZE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_SIZE - 1;

export class PartMemo extends Memo {
  private readonly base: number;
  private readonly foreign: ForeignMemo;
  private readonly foreignObjects: unknown[] = [];
  /** The memo index of each of foreignObjects. */
  private readonly foreignIndexes: number[] = [];
  /**
   * Codes of the foreign entries looked up so far, in pages made on first use (0: not looked up
   * yet; foreign codes are never >= 0). Parts name the same few thousand foreign entries millions
   * of times (keys, action names), so this is on the decoder's hot path: no Map.
   */
  private readonly foreignCodePages: (Int32Array | undefined)[] = [];
  private readonly consumed: unknown;
  private readonly materialize: (handle: number) => unknown;

  constructor(base: number, foreign: ForeignMemo, options: MemoOptions) {
    super(options);
    this.base = base;
    this.foreign = foreign;
    this.consumed = options.consumedValue;
    this.materialize =
      options.materializeHandle ??
      (() => {
        throw new Error('memo handle without a materializer');
      });
  }

  override get length(): number {
    return this.base + super.length;
  }

  override code(index: number): number {
    if (index >= this.base) return super.code(index - this.base);
    if (!(index >= 0)) return MemoCode.empty;
    const page = (this.foreignCodePages[index >>> PAGE_BITS] ??= new Int32Array(PAGE_SIZE));
    const known = page[index & PAGE_MASK]!;
    if (known !== 0) return known;
    const value = this.foreign.get(index);
    let code: number = MemoCode.empty;
    if (value !== undefined) {
      code = FIRST_FOREIGN - this.foreignObjects.length;
      this.foreignObjects.push(value);
      this.foreignIndexes.push(index);
    }
    page[index & PAGE_MASK] = code;
    return code;
  }

  override objectOf(code: number): unknown {
    return code <= FIRST_FOREIGN ? this.foreignObjects[FIRST_FOREIGN - code] : super.objectOf(code);
  }

  // Memo's own methods call code() and setConsumed(), which take indexes of the whole file here:
  // get() and set() are written again rather than passed an index less the base.
  override get(index: number): unknown {
    const code = this.code(index);
    if (code <= MemoCode.firstObject) return this.objectOf(code);
    if (code >= 0) return this.materialize(code);
    return code === MemoCode.consumed ? this.consumed : undefined;
  }

  override set(index: number, value: unknown): void {
    if (value === this.consumed) this.setConsumed(index);
    else super.set(index - this.base, value);
  }

  override setHandle(index: number, handle: number): void {
    super.setHandle(index - this.base, handle);
  }

  override setConsumed(index: number): void {
    super.setConsumed(index - this.base);
  }

  override truncate(length: number): void {
    super.truncate(Math.max(0, length - this.base));
  }

  /** The slots the part made itself (from its base on). */
  ownSlots(): MemoSlots {
    return super.slots();
  }

  /** The foreign objects the part read (the merge checks them against their owners'). */
  foreignRead(): ReadonlyMap<number, unknown> {
    return new Map(this.foreignIndexes.map((index, i) => [index, this.foreignObjects[i]]));
  }
}
