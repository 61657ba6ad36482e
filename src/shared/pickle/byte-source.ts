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
  /**
   * The bytes [from, to) in order, in chunks of any size, read ahead of the reader: where each
   * read() blocks the thread for milliseconds (a File in the page, a served file), a stream is
   * read by the browser beside the work. Absent: sequential readers use read().
   */
  readonly chunks?: (from: number, to: number) => AsyncIterable<Uint8Array>;
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

/**
 * feedFrom, from the source's chunks where it reads ahead (ByteSource.chunks): the same bytes fed
 * in the same order, the thread free while the next chunk arrives.
 */
export async function feedFromAhead(
  sink: ChunkSink,
  source: ByteSource,
  from: number,
  end: number,
  chunkBytes: number,
  onChunk?: () => void,
): Promise<void> {
  if (source.chunks === undefined) return feedFrom(sink, source, from, end, chunkBytes, onChunk);
  if (from >= end || sink.done) return;
  let at = from;
  // Breaking out of the loop (a part stops at the end of its trace list) cancels the stream.
  for await (const chunk of source.chunks(from, end)) {
    sink.feed(chunk);
    at += chunk.length;
    onChunk?.();
    if (sink.done) return;
  }
  if (at < end) throw new Error('the file became shorter while it was read');
}

/** How a windowed source reads: window sizes, and how many of each it keeps. */
export interface WindowOptions {
  /** Reads of at least this many bytes go to the source as they are. */
  readonly largeReadBytes: number;
  /** A read of fewer than `smallReadBytes` loads a small window; any other a large one. */
  readonly smallReadBytes: number;
  readonly smallWindowBytes: number;
  readonly smallWindows: number;
  readonly largeWindowBytes: number;
  readonly largeWindows: number;
}

/**
 * Windows for reads that cost milliseconds each: the page's workers' (a File with FileReaderSync,
 * a served file by range request: src/renderer/workers/):
 * each read costs 2-3 ms in Chromium whatever its size (9 bytes or 64 KiB; 8 MiB: 21-27 ms,
 * ~350 MB/s; measured on this 2-core machine at a load of 5-7), against microseconds for the
 * CLI's readSync. So the small reads of the decoders (headers, the objects a part names in
 * earlier parts) load 1 MiB windows, 32 kept, and the sequential ones 8 MiB windows, 2 kept:
 * at most 48 MiB per worker.
 */
export const COSTLY_READ_WINDOWS: WindowOptions = {
  largeReadBytes: 8 << 20,
  smallReadBytes: 64 << 10,
  smallWindowBytes: 1 << 20,
  smallWindows: 32,
  largeWindowBytes: 8 << 20,
  largeWindows: 2,
};

/**
 * `inner` read in windows, the last few of each size kept: for a source whose every read costs
 * milliseconds whatever its size (a File in a browser: FileReaderSync, a range request), where
 * the readers ask for 9-byte headers, 16 KiB objects and 1 MiB chunks. Scattered small reads (the
 * objects a part names in earlier parts) load small windows, and sequential ones large windows.
 */
export function windowedSource(inner: ByteSource, options: WindowOptions): ByteSource {
  interface Window {
    readonly start: number;
    readonly bytes: Uint8Array;
  }
  const small: Window[] = [];
  const large: Window[] = [];
  const cached = (offset: number, end: number): Uint8Array | null => {
    for (const windows of [small, large]) {
      for (let index = 0; index < windows.length; index++) {
        const window = windows[index]!;
        if (offset >= window.start && end <= window.start + window.bytes.length) {
          // The most recently used last.
          windows.splice(index, 1);
          windows.push(window);
          return window.bytes.subarray(offset - window.start, end - window.start);
        }
      }
    }
    return null;
  };
  return {
    size: inner.size,
    ...(inner.chunks === undefined ? {} : { chunks: inner.chunks }),
    read(offset, length) {
      const end = Math.min(inner.size, offset + length);
      if (end <= offset) return new Uint8Array(0);
      const hit = cached(offset, end);
      if (hit !== null) return hit;
      if (end - offset >= options.largeReadBytes) return inner.read(offset, end - offset);
      const isSmall = end - offset < options.smallReadBytes;
      const windows = isSmall ? small : large;
      const windowBytes = isSmall ? options.smallWindowBytes : options.largeWindowBytes;
      const bytes = inner.read(offset, Math.max(windowBytes, end - offset));
      windows.push({ start: offset, bytes });
      if (windows.length > (isSmall ? options.smallWindows : options.largeWindows)) windows.shift();
      return bytes.subarray(0, end - offset);
    },
  };
}
