// Data derived from an analyzed snapshot or device on first use (timeline index, alive
// checkpoints, allocator-state index, small-hole threshold, OOM explanations), kept on the object
// it derives from: it lives and dies with the snapshot, and the layer that knows how to build a
// value owns its key, so the model never imports the layers above it.

export class DerivedCache {
  readonly #values = new Map<DerivedKey<unknown>, unknown>();

  /** The value under `key`, built by `build` the first time it is asked for. */
  get<T>(key: DerivedKey<T>, build: () => T): T {
    if (this.#values.has(key)) return this.#values.get(key) as T;
    const value = build();
    this.#values.set(key, value);
    return value;
  }

  /** The value under `key` if it was built already; never builds. */
  peek<T>(key: DerivedKey<T>): T | undefined {
    return this.#values.get(key) as T | undefined;
  }
}

/** A name for one kind of derived value; compared by identity, typed by what it holds. */
export interface DerivedKey<T> {
  readonly name: string;
  /** Never set: carries T so that a key and its value cannot be mixed up. */
  readonly valueType?: T;
}

export function derivedKey<T>(name: string): DerivedKey<T> {
  return { name };
}

/** An object that keeps derived data: every analyzed snapshot and each of its devices. */
export interface HasDerivedCache {
  readonly derived: DerivedCache;
}
