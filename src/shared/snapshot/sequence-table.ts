// A hash table from integer sequences to a value, storing each sequence once in one typed array.
// Used to recognise a frames list by the memo indexes of its frames before decoding them.

export const NOT_FOUND = -1;

export class SequenceTable {
  private readonly entryByHash = new Map<number, number>();
  private readonly offsets: number[] = [0];
  private readonly values: number[] = [];
  private data = new Int32Array(1 << 16);

  /** The value stored for items[0..count) with this hash, or NOT_FOUND. */
  find(hash: number, items: Int32Array, count: number): number {
    const entry = this.entryByHash.get(hash);
    if (entry === undefined) return NOT_FOUND;
    const start = this.offsets[entry]!;
    if (this.offsets[entry + 1]! - start !== count) return NOT_FOUND;
    const data = this.data;
    for (let i = 0; i < count; i++) if (data[start + i] !== items[i]) return NOT_FOUND;
    return this.values[entry]!;
  }

  /** Remembers items[0..count) -> value; on a hash collision the first sequence keeps the slot. */
  add(hash: number, items: Int32Array, count: number, value: number): void {
    if (this.entryByHash.has(hash)) return;
    const start = this.offsets[this.offsets.length - 1]!;
    if (start + count > this.data.length) {
      let capacity = this.data.length * 2;
      while (capacity < start + count) capacity *= 2;
      const grown = new Int32Array(capacity);
      grown.set(this.data.subarray(0, start));
      this.data = grown;
    }
    this.data.set(items.subarray(0, count), start);
    this.offsets.push(start + count);
    this.values.push(value);
    this.entryByHash.set(hash, this.values.length - 1);
  }
}
