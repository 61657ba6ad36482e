// A stream's bytes as the decoders read them: a file decoded as a stream on one thread
// (./snapshot-source.ts), and the long sequential reads of a decode in parts (ByteSource.chunks:
// a File's slice, or a range a server answers, read by the browser beside the worker's decode
// instead of blocking it; docs/parallel-decode.md, "The page's reads").

interface ChunkOptions {
  /** What a failed read throws instead of the stream's own error. */
  readonly readError?: (error: unknown) => unknown;
  /** The size announced, when known. */
  readonly totalBytes?: number | null;
}

/** The chunks of `stream`; a reader that stops early ends it (stopReading). */
export async function* chunksOf(
  stream: ReadableStream<Uint8Array>,
  options: ChunkOptions = {},
): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let received = 0;
  let done = false;
  try {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        throw options.readError ? options.readError(error) : error;
      }
      if (result.done) {
        done = true;
        return;
      }
      received += result.value.length;
      yield result.value;
    }
  } finally {
    if (!done) await stopReading(reader, received, options.totalBytes ?? null);
  }
}

/**
 * The decoder stopped before the stream said it ended: usually at the pickle's STOP in the last
 * chunk. Then every byte has arrived and the end is one read away, and reading it lets the
 * response finish instead of being aborted. Otherwise (bad data, bytes after STOP) the
 * rest is not wanted: cancel, which aborts the fetch (and in Electron closes the file in main).
 */
async function stopReading(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  received: number,
  totalBytes: number | null,
): Promise<void> {
  try {
    if (totalBytes !== null && received >= totalBytes && (await reader.read()).done) return;
  } catch {
    // The stream failed at its very end: nothing more to read or to stop.
    return;
  }
  await reader.cancel().catch(() => {});
}

/**
 * The chunks of `stream`, which holds exactly `length` bytes: fewer (a file that became shorter)
 * or more (a server that ignored the range) throw. A reader that stops early cancels the stream.
 */
export async function* exactChunks(
  stream: ReadableStream<Uint8Array>,
  length: number,
): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of chunksOf(stream, { totalBytes: length })) {
    seen += chunk.length;
    if (seen > length) throw new Error('the stream held more bytes than were asked for');
    yield chunk;
  }
  if (seen < length) throw new Error('the file became shorter while it was read');
}
