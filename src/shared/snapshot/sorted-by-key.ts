// Records the trace table keeps aside (the device_free of OOMs, annotate and user_defined
// entries), looked up per trace list: each list is one run of rows and entries, so a binary
// search finds its records. Scanning all of them for every list cost devices × records (a file
// with hundreds of device lists beside a million OOM entries).

export class SortedByKey<T> {
  private readonly items: T[];
  private readonly keys: Float64Array;

  constructor(items: Iterable<T>, key: (item: T) => number) {
    // Usually in order already (recorded as the file is read); sorted once to rely on it.
    this.items = [...items].sort((a, b) => key(a) - key(b));
    this.keys = Float64Array.from(this.items, key);
  }

  /** The items whose key is in [from, to), in key order. */
  inRange(from: number, to: number): T[] {
    return this.items.slice(this.firstAtLeast(from), this.firstAtLeast(to));
  }

  private firstAtLeast(value: number): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.keys[middle]! < value) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
