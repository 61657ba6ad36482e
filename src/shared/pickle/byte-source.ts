// Where a parallel decode reads its bytes (issue 25; docs/parallel-decode.md): the whole input in
// memory (tests, the page's bytes), or a file read at offsets on each thread (the CLI), so that
// no thread holds the file whole: each reads its part, the part before its own (to scan its
// memo) and the few objects of earlier parts it names (ForeignMemo).

export interface ByteSource {
  /** Bytes in the input. */
  readonly size: number;
  /** Bytes [offset, offset + length), fewer past the end; the caller may keep them. */
  read(offset: number, length: number): Uint8Array;
  /** The whole input, where it is in memory: readers then use it as it is. */
  readonly whole?: Uint8Array;
}

export function memorySource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)),
    whole: bytes,
  };
}

/** A ByteSource for either form a caller has. */
export function sourceOf(input: Uint8Array | ByteSource): ByteSource {
  return input instanceof Uint8Array ? memorySource(input) : input;
}
