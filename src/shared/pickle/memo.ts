// The unpickler's memo: every object CPython memoized, by index. A snapshot memoizes about two
// objects per trace entry, so the memo reaches tens of millions of slots; fixed-size pages avoid
// re-copying one huge array as it grows and keep each allocation small.

const PAGE_BITS = 16;
const PAGE_SIZE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_SIZE - 1;

export class Memo {
  private readonly pages: unknown[][] = [];
  private count = 0;

  get length(): number {
    return this.count;
  }

  /** The value at `index`, or undefined when nothing was stored there. */
  get(index: number): unknown {
    if (index >= this.count) return undefined;
    return this.pages[index >>> PAGE_BITS]![index & PAGE_MASK];
  }

  push(value: unknown): void {
    const index = this.count;
    if ((index & PAGE_MASK) === 0) this.pages.push(new Array<unknown>(PAGE_SIZE).fill(undefined));
    this.pages[index >>> PAGE_BITS]![index & PAGE_MASK] = value;
    this.count = index + 1;
  }

  /** Stores at any index (BINPUT / LONG_BINPUT); the slots in between stay empty. */
  set(index: number, value: unknown): void {
    while (this.count <= index) this.push(undefined);
    this.pages[index >>> PAGE_BITS]![index & PAGE_MASK] = value;
  }

  /** Forgets the slots from `length` on (a fast path that gave up undoes its pushes). */
  truncate(length: number): void {
    for (let index = length; index < this.count; index++) {
      this.pages[index >>> PAGE_BITS]![index & PAGE_MASK] = undefined;
    }
    this.count = length;
    this.pages.length = (length + PAGE_MASK) >>> PAGE_BITS;
  }

  clear(): void {
    this.pages.length = 0;
    this.count = 0;
  }
}
