// A typed-array column that grows as rows stream in: a profiler trace's events land in columns
// (never an object per event), and how many there are is known only at the end.

type NumberArray = Float64Array | Int32Array;

export class GrowableColumn<T extends NumberArray> {
  private data: T;
  length = 0;

  constructor(private readonly make: (capacity: number) => T) {
    this.data = make(1024);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = this.make(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  /** Appends every value of `values` (one copy, the column grown once to fit). */
  pushAll(values: T): void {
    const needed = this.length + values.length;
    if (needed > this.data.length) {
      let capacity = this.data.length * 2;
      while (capacity < needed) capacity *= 2;
      const grown = this.make(capacity);
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    this.data.set(values, this.length);
    this.length = needed;
  }

  /** The rows so far, as a view (valid until the next push). */
  values(): T {
    return this.data.subarray(0, this.length) as T;
  }
}

export const float64Column = (): GrowableColumn<Float64Array> =>
  new GrowableColumn((capacity) => new Float64Array(capacity));

export const int32Column = (): GrowableColumn<Int32Array> =>
  new GrowableColumn((capacity) => new Int32Array(capacity));
