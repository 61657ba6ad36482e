// A stream of a file's bytes as the decoders read ahead (ByteSource.chunks): a File's slice read
// by the browser, or a range a server answers, beside the worker's decode instead of blocking it
// (docs/parallel-decode.md, "The page's reads").

/**
 * The chunks of `stream`, which holds exactly `length` bytes: fewer (a file that became shorter)
 * or more (a server that ignored the range) throw. A reader that stops early cancels the stream.
 */
export async function* exactChunks(
  stream: ReadableStream<Uint8Array>,
  length: number,
): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let seen = 0;
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += value.length;
      if (seen > length) throw new Error('the stream held more bytes than were asked for');
      yield value;
    }
    ended = true;
    if (seen < length) throw new Error('the file became shorter while it was read');
  } finally {
    if (!ended) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
