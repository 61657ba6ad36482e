// Data derived from an analyzed snapshot or device on first use (timeline index, alive
// checkpoints, allocator-state index, small-hole threshold, OOM explanations), kept on the object
// it derives from: it lives and dies with the snapshot, and the layer that knows how to build a
// value owns its key, so the model never imports the layers above it.
//
// Some values can also be built where the file was decoded (the page's decode worker) and posted
// with the snapshot, so that the page's thread reads them instead of building them (each is a
// task of 0.1-0.5 s on a 1 GB file, where the page must answer within 50 ms): their keys are
// postable (a name unique among them, and how the value crosses as plain data), the cache that
// built them lists them (`toPost`), and the cache of the adopted copy takes them (`posted`) and
// answers from them on first use instead of building.

export class DerivedCache {
  readonly #values = new Map<DerivedKey<unknown>, unknown>();
  readonly #posted: ReadonlyMap<string, unknown>;
  readonly #owner: unknown;

  /**
   * `posted`: values another thread's cache built (its `toPost()`), after the trip; `owner`: the
   * object this cache belongs to, which a posted value may need to be whole again.
   */
  constructor(posted: PostedDerived = [], owner: unknown = null) {
    this.#posted = new Map(posted.map((entry) => [entry.name, entry.value]));
    this.#owner = owner;
  }

  /** The value under `key`, built by `build` the first time it is asked for. */
  get<T>(key: DerivedKey<T>, build: () => T): T {
    // peek keeps a posted value it adopts: held now either way.
    const known = this.peek(key);
    if (this.#values.has(key)) return known as T;
    const value = build();
    this.#values.set(key, value);
    return value;
  }

  /** The value under `key` if it was built (here, or where it was posted from); never builds. */
  peek<T>(key: DerivedKey<T>): T | undefined {
    if (this.#values.has(key)) return this.#values.get(key) as T;
    if (key.posting === undefined || !this.#posted.has(key.name)) return undefined;
    const value = key.posting.adopt(this.#posted.get(key.name), this.#owner);
    this.#values.set(key, value);
    return value;
  }

  /** The values built so far whose keys are postable, as plain data to post with their owner. */
  toPost(): PostedDerived {
    const posted: { name: string; value: unknown }[] = [];
    for (const [key, value] of this.#values) {
      if (key.posting !== undefined)
        posted.push({ name: key.name, value: key.posting.post(value) });
    }
    return posted;
  }
}

/** Derived values as they cross threads: each under its key's name, as plain data. */
export type PostedDerived = readonly { readonly name: string; readonly value: unknown }[];

/** How a derived value crosses threads: as plain data (`post`), made whole again (`adopt`). */
export interface DerivedPosting<T> {
  post(value: T): unknown;
  adopt(posted: unknown, owner: unknown): T;
}

/** A name for one kind of derived value; compared by identity, typed by what it holds. */
export interface DerivedKey<T> {
  readonly name: string;
  /** Set when the value can be built on another thread and posted (postableDerivedKey). */
  readonly posting?: DerivedPosting<T>;
  /** Never set: carries T so that a key and its value cannot be mixed up. */
  readonly valueType?: T;
}

export function derivedKey<T>(name: string): DerivedKey<T> {
  return { name };
}

// Posted values are matched to keys by name: one key per name. Counted, not refused, so that a
// module evaluated again (the dev server's hot reload) still loads; tests check the count.
const postableNames = new Map<string, number>();

/**
 * A key whose value may be built where the file was decoded and posted with it. Without
 * `posting`, the value is plain data (structured clone carries it as it is).
 */
export function postableDerivedKey<T>(
  name: string,
  posting: DerivedPosting<T> = { post: (value) => value, adopt: (posted) => posted as T },
): DerivedKey<T> {
  postableNames.set(name, (postableNames.get(name) ?? 0) + 1);
  return { name, posting };
}

/** Names given to more than one postable key in this thread (a posted value would go astray). */
export function sharedPostableNames(): string[] {
  return [...postableNames].filter(([, count]) => count > 1).map(([name]) => name);
}

/** An object that keeps derived data: every analyzed snapshot and each of its devices. */
export interface HasDerivedCache {
  readonly derived: DerivedCache;
}
