// The unpickler's memo: every object CPython memoized, by index. A snapshot memoizes one or two
// objects per trace entry (the entry's dict, often a new frames list), so the memo reaches tens
// of millions of slots. Most of those slots need no JS object: a consumed trace entry, or a
// frames list already reduced to a stack id ("handle"). Slots are therefore codes in typed-array
// pages, outside the garbage-collected heap, and only real objects go to a dense object list;
// otherwise every major GC would walk tens of millions of references.

const PAGE_BITS = 16;
const PAGE_SIZE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_SIZE - 1;

/** Slot codes: >= 0 a consumer's handle; CONSUMED a consumed dict; <= FIRST_OBJECT an object. */
export const MemoCode = {
  empty: -2,
  consumed: -1,
  firstObject: -3,
} as const;

export interface MemoOptions {
  /** What get() returns for a consumed dict. */
  consumedValue: unknown;
  /** Turns a handle back into a value, for code that reads such a slot generically. */
  materializeHandle?: (handle: number) => unknown;
}

/** A memo's slots as plain data: codes as above, object codes indexing `objects`. */
export interface MemoSlots {
  codes: Int32Array;
  objects: unknown[];
}

export class Memo {
  private readonly pages: Int32Array[] = [];
  private objects: unknown[] = [];
  private count = 0;
  private readonly consumedValue: unknown;
  private readonly materializeHandle: (handle: number) => unknown;

  constructor(options: MemoOptions) {
    this.consumedValue = options.consumedValue;
    this.materializeHandle =
      options.materializeHandle ??
      (() => {
        throw new Error('memo handle without a materializer');
      });
  }

  get length(): number {
    return this.count;
  }

  /** The raw code at `index` (MemoCode.empty past the end). */
  code(index: number): number {
    if (!(index >= 0 && index < this.count)) return MemoCode.empty;
    return this.pages[index >>> PAGE_BITS]![index & PAGE_MASK]!;
  }

  /** The object for a code <= MemoCode.firstObject. */
  objectOf(code: number): unknown {
    return this.objects[MemoCode.firstObject - code];
  }

  /** The value at `index`, or undefined when nothing was stored there. */
  get(index: number): unknown {
    const code = this.code(index);
    if (code <= MemoCode.firstObject) return this.objects[MemoCode.firstObject - code];
    if (code >= 0) return this.materializeHandle(code);
    return code === MemoCode.consumed ? this.consumedValue : undefined;
  }

  push(value: unknown): void {
    // A consumed dict memoized again (MEMOIZE after its SETITEMS) is a consumed slot too, so that
    // every way of reading it back gives the same answer.
    this.pushCode(value === this.consumedValue ? MemoCode.consumed : this.objectCode(value));
  }

  pushConsumed(): void {
    this.pushCode(MemoCode.consumed);
  }

  /** Reserves a slot to be filled later (setHandle / set). */
  pushEmpty(): void {
    this.pushCode(MemoCode.empty);
  }

  /** Stores at any index (BINPUT / LONG_BINPUT); the slots in between stay empty. */
  set(index: number, value: unknown): void {
    if (value === this.consumedValue) return this.setConsumed(index);
    while (this.count <= index) this.pushCode(MemoCode.empty);
    const page = this.pages[index >>> PAGE_BITS]!;
    const previous = page[index & PAGE_MASK]!;
    if (previous <= MemoCode.firstObject) {
      this.objects[MemoCode.firstObject - previous] = value;
    } else {
      page[index & PAGE_MASK] = this.objectCode(value);
    }
  }

  setHandle(index: number, handle: number): void {
    this.setCode(index, handle);
  }

  setConsumed(index: number): void {
    this.setCode(index, MemoCode.consumed);
  }

  /** Forgets the slots from `length` on (a fast path that gave up undoes its pushes). */
  truncate(length: number): void {
    for (let index = length; index < this.count; index++) {
      const page = this.pages[index >>> PAGE_BITS]!;
      const code = page[index & PAGE_MASK]!;
      // Objects are appended in memo order, so the first one past `length` starts the tail to drop.
      if (code <= MemoCode.firstObject && MemoCode.firstObject - code < this.objects.length) {
        this.objects.length = MemoCode.firstObject - code;
      }
      page[index & PAGE_MASK] = MemoCode.empty;
    }
    this.count = Math.min(this.count, length);
  }

  /** Looks back at most `window` slots for `value`; returns its index or -1. */
  lastIndexOf(value: unknown, window: number): number {
    const stop = Math.max(0, this.count - window);
    for (let index = this.count - 1; index >= stop; index--) {
      const code = this.code(index);
      if (code <= MemoCode.firstObject && this.objects[MemoCode.firstObject - code] === value)
        return index;
    }
    return -1;
  }

  /** Its slots as plain data (a part of a parallel decode sends them to the spine). */
  slots(): MemoSlots {
    const codes = new Int32Array(this.count);
    const objects: unknown[] = [];
    for (let index = 0; index < this.count; index++) {
      const code = this.pages[index >>> PAGE_BITS]![index & PAGE_MASK]!;
      if (code <= MemoCode.firstObject) {
        objects.push(this.objects[MemoCode.firstObject - code]);
        codes[index] = MemoCode.firstObject - (objects.length - 1);
      } else {
        codes[index] = code;
      }
    }
    return { codes, objects };
  }

  /** Appends a part's slots (MemoSlots), its handles through `remapHandle` (its ids to ours). */
  appendSlots(slots: MemoSlots, remapHandle: (handle: number) => number): void {
    const { codes, objects } = slots;
    for (let index = 0; index < codes.length; index++) {
      const code = codes[index]!;
      if (code <= MemoCode.firstObject) {
        this.pushCode(this.objectCode(objects[MemoCode.firstObject - code]));
      } else {
        this.pushCode(code >= 0 ? remapHandle(code) : code);
      }
    }
  }

  clear(): void {
    this.pages.length = 0;
    this.objects = [];
    this.count = 0;
  }

  private objectCode(value: unknown): number {
    this.objects.push(value);
    return MemoCode.firstObject - (this.objects.length - 1);
  }

  private setCode(index: number, code: number): void {
    while (this.count <= index) this.pushCode(MemoCode.empty);
    const page = this.pages[index >>> PAGE_BITS]!;
    const previous = page[index & PAGE_MASK]!;
    // A replaced object is released (its slot in the object list stays, empty).
    if (previous <= MemoCode.firstObject) this.objects[MemoCode.firstObject - previous] = undefined;
    page[index & PAGE_MASK] = code;
  }

  private pushCode(code: number): void {
    const index = this.count;
    if ((index & PAGE_MASK) === 0 && this.pages.length === index >>> PAGE_BITS) {
      this.pages.push(new Int32Array(PAGE_SIZE).fill(MemoCode.empty));
    }
    this.pages[index >>> PAGE_BITS]![index & PAGE_MASK] = code;
    this.count = index + 1;
  }
}
