// Address -> row map for matching allocations to frees. Addresses are ~1.4e14 (not small ints),
// and a trace has millions of them, so a Map<number, number> of boxed doubles is several times
// slower than this open-addressing table on typed arrays (linear probing, backward-shift delete).

const EMPTY = -1;

export class AddressMap {
  private keys: Float64Array;
  private values: Int32Array;
  private mask: number;
  private count = 0;

  constructor(expectedSize = 1024) {
    let capacity = 16;
    while (capacity < expectedSize * 2) capacity *= 2;
    this.keys = new Float64Array(capacity);
    this.values = new Int32Array(capacity).fill(EMPTY);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count;
  }

  /** The value stored for `key`, or -1. */
  get(key: number): number {
    for (let slot = this.slotOf(key); ; slot = (slot + 1) & this.mask) {
      const value = this.values[slot]!;
      if (value === EMPTY) return EMPTY;
      if (this.keys[slot] === key) return value;
    }
  }

  /** Stores a non-negative value; returns the previous value or -1. */
  set(key: number, value: number): number {
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    for (let slot = this.slotOf(key); ; slot = (slot + 1) & this.mask) {
      const previous = this.values[slot]!;
      if (previous === EMPTY) {
        this.keys[slot] = key;
        this.values[slot] = value;
        this.count++;
        return EMPTY;
      }
      if (this.keys[slot] === key) {
        this.values[slot] = value;
        return previous;
      }
    }
  }

  /** Removes `key`; returns its value or -1. */
  delete(key: number): number {
    const mask = this.mask;
    let slot = this.slotOf(key);
    for (; ; slot = (slot + 1) & mask) {
      const value = this.values[slot]!;
      if (value === EMPTY) return EMPTY;
      if (this.keys[slot] === key) break;
    }
    const removed = this.values[slot]!;
    // Backward-shift: pull later entries of the same probe run into the hole.
    let hole = slot;
    for (let next = (hole + 1) & mask; this.values[next]! !== EMPTY; next = (next + 1) & mask) {
      const home = this.slotOf(this.keys[next]!);
      const distanceFromHome = (next - home) & mask;
      const distanceFromHole = (next - hole) & mask;
      if (distanceFromHome >= distanceFromHole) {
        this.keys[hole] = this.keys[next]!;
        this.values[hole] = this.values[next]!;
        hole = next;
      }
    }
    this.values[hole] = EMPTY;
    this.count--;
    return removed;
  }

  forEach(visit: (key: number, value: number) => void): void {
    for (let slot = 0; slot < this.values.length; slot++) {
      const value = this.values[slot]!;
      if (value !== EMPTY) visit(this.keys[slot]!, value);
    }
  }

  private slotOf(key: number): number {
    const low = key >>> 0;
    const high = (key / 4294967296) >>> 0;
    let hash = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
    hash ^= hash >>> 13;
    hash = Math.imul(hash, 0xc2b2ae35);
    hash ^= hash >>> 16;
    return hash & this.mask;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    this.keys = new Float64Array(oldKeys.length * 2);
    this.values = new Int32Array(oldValues.length * 2).fill(EMPTY);
    this.mask = this.keys.length - 1;
    this.count = 0;
    for (let slot = 0; slot < oldValues.length; slot++) {
      if (oldValues[slot]! !== EMPTY) this.set(oldKeys[slot]!, oldValues[slot]!);
    }
  }
}
