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

/** What feedFrom feeds: an Unpickler. */
export interface ChunkSink {
  feed(chunk: Uint8Array): void;
  readonly done: boolean;
}

/**
 * Feeds `sink` the bytes [from, end) of `source`, `chunkBytes` at a time, until it is done (a
 * part stops at the end of its trace list); `onChunk` after each. Throws where the input ends
 * before `end` (a file that became shorter while it was read).
 */
export function feedFrom(
  sink: ChunkSink,
  source: ByteSource,
  from: number,
  end: number,
  chunkBytes: number,
  onChunk?: () => void,
): void {
  for (let at = from; at < end && !sink.done;) {
    const chunk = source.read(at, Math.min(chunkBytes, end - at));
    if (chunk.length === 0) throw new Error('the file became shorter while it was read');
    sink.feed(chunk);
    at += chunk.length;
    onChunk?.();
  }
}
