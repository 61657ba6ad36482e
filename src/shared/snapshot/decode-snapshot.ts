// Bytes in, model out: sniffs the container (pickle, gzip, the HTML page of _memory_viz), streams
// the pickle through the unpickler with trace entries going straight into columns, then builds
// the model. Platform-neutral: the caller supplies the bytes (fs stream, File, fetch body).

import { PickleError } from '../pickle/pickle-error';
import { Unpickler } from '../pickle/unpickler';
import { decodeBase64 } from './base64';
import { describeUnreadableFormat, findEmbeddedBase64, sniffInputFormat } from './input-format';
import type { SnapshotModel } from './model';
import { buildSnapshotModel } from './snapshot-builder';
import { SnapshotFormatError } from './snapshot-error';
import { StackInterner } from './stack-interner';
import { TraceTableBuilder } from './trace-table-builder';

export type DecodePhase = 'reading' | 'building';

export interface DecodeProgress {
  phase: DecodePhase;
  /** Bytes of the input (as stored, compressed or not) consumed so far. */
  bytesRead: number;
  totalBytes: number | null;
}

export interface DecodeOptions {
  /** Size of the input when known: sizes the columns up front and scales the progress bar. */
  totalBytes?: number;
  onProgress?: (progress: DecodeProgress) => void;
  signal?: AbortSignal;
  /**
   * Read trace entries through the byte-level fast path (default true). The generic path gives
   * the same model, slower; tests decode both ways and compare.
   */
  fastTraceEntries?: boolean;
}

// Trace entries take at least this many bytes in a pickle; sizing columns by it never undershoots
// much, and untouched capacity costs address space, not memory.
const MIN_BYTES_PER_TRACE_ENTRY = 24;
const HTML_FEED_BYTES = 4 << 20;

export async function decodeSnapshot(
  source: AsyncIterable<Uint8Array>,
  options: DecodeOptions = {},
): Promise<SnapshotModel> {
  const totalBytes = options.totalBytes ?? null;
  let bytesRead = 0;
  const counted = (async function* () {
    for await (const chunk of source) {
      options.signal?.throwIfAborted();
      bytesRead += chunk.length;
      options.onProgress?.({ phase: 'reading', bytesRead, totalBytes });
      yield chunk;
    }
  })();

  const { chunks, compressed } = await pickleChunksOf(counted, 0);
  const stacks = new StackInterner();
  const expectedRows =
    compressed || totalBytes === null ? 0 : totalBytes / MIN_BYTES_PER_TRACE_ENTRY;
  const traceTable = new TraceTableBuilder(stacks, expectedRows);
  const unpickler = new Unpickler({
    interceptor: traceTable,
    ...(options.fastTraceEntries === false ? {} : { flatDictConsumer: traceTable }),
  });
  for await (const chunk of chunks) {
    unpickler.feed(chunk);
    // Bytes after STOP (the HTML export pads with NULs) are ignored.
    if (unpickler.done) break;
  }
  const root = unpickler.finish();
  options.onProgress?.({ phase: 'building', bytesRead, totalBytes });
  return buildSnapshotModel({ root, pickleProtocol: unpickler.protocol, traceTable, stacks });
}

interface PickleChunks {
  chunks: AsyncIterable<Uint8Array>;
  compressed: boolean;
}

async function pickleChunksOf(
  source: AsyncIterable<Uint8Array>,
  depth: number,
): Promise<PickleChunks> {
  const iterator = source[Symbol.asyncIterator]();
  let first = await iterator.next();
  while (first.done !== true && first.value.length === 0) first = await iterator.next();
  const head = first.done === true ? new Uint8Array(0) : first.value;
  const all = prepend(head, iterator);
  const format = sniffInputFormat(head);
  switch (format) {
    case 'pickle':
      return { chunks: all, compressed: depth > 0 };
    case 'gzip':
      if (depth > 0) break;
      return { ...(await pickleChunksOf(gunzip(all), depth + 1)), compressed: true };
    case 'html':
      return { chunks: pickleFromHtml(all), compressed: depth > 0 };
    default:
      break;
  }
  throw new SnapshotFormatError(
    depth > 0
      ? `the gzip data inside: ${describeUnreadableFormat(format)}`
      : describeUnreadableFormat(format),
  );
}

async function* prepend(
  head: Uint8Array,
  rest: AsyncIterator<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  try {
    if (head.length > 0) yield head;
    for (;;) {
      const next = await rest.next();
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    // Stopped early (bad data, cancel): let the source close its file.
    await rest.return?.();
  }
}

async function* gunzip(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const compressed = new ReadableStream<BufferSource>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value as Uint8Array<ArrayBuffer>);
    },
  });
  const reader = compressed.pipeThrough<Uint8Array>(new DecompressionStream('gzip')).getReader();
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      if (error instanceof PickleError || error instanceof SnapshotFormatError) throw error;
      throw new SnapshotFormatError(`the gzip data is corrupt or truncated (${errorText(error)})`);
    }
    if (next.done) return;
    yield next.value;
  }
}

async function* pickleFromHtml(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of source) {
    parts.push(chunk);
    length += chunk.length;
  }
  const page = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    page.set(part, at);
    at += part.length;
  }
  parts.length = 0;
  const payload = findEmbeddedBase64(page);
  if (payload === null) {
    throw new SnapshotFormatError(
      'an HTML page without an embedded snapshot (expected the page written by torch.cuda._memory_viz trace_plot)',
    );
  }
  let pickle: Uint8Array;
  try {
    pickle = decodeBase64(page, payload.start, payload.end);
  } catch (error) {
    throw new SnapshotFormatError(
      `the snapshot embedded in the HTML page is not valid base64 (${errorText(error)})`,
    );
  }
  if (pickle[0] !== 0x80) {
    throw new SnapshotFormatError('the snapshot embedded in the HTML page is not a pickle');
  }
  for (let offset = 0; offset < pickle.length; offset += HTML_FEED_BYTES) {
    yield pickle.subarray(offset, offset + HTML_FEED_BYTES);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
