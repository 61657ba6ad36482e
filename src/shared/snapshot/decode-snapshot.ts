// Bytes in, model out: sniffs the container (pickle, gzip, the HTML page of _memory_viz, the JSON
// form), streams the pickle through the unpickler with trace entries going straight into columns
// (JSON: json-snapshot.ts), then builds the model. Platform-neutral: the caller supplies the bytes (fs stream, File, fetch body).

import { describeProtocol0Or1 } from '../pickle/text-pickle';
import { Unpickler } from '../pickle/unpickler';
import { describeUnreadableFormat, sniffInputFormat } from './input-format';
import { unpackGzip } from './gzip-stream';
import { pickleFromHtml } from './html-payload';
import { decodeJsonSnapshot } from './json-snapshot';
import { decodeProfilerTrace } from './decode-profiler-trace';
import { jsonInputKind } from './profiler-trace-sniff';
import { decodeMemoryTimeline } from './decode-memory-timeline';
import type { SnapshotModel } from './model';
import { buildSnapshotModel } from './snapshot-builder';
import { SnapshotFormatError } from './snapshot-error';
import { StackInterner } from './stack-interner';
import { TraceTableBuilder, type TraceRowsSoFar } from './trace-table-builder';
import { NO_MEMORY_LIMIT, UnpackedBudget, type MemoryLimit } from './unpacked-budget';
import { concatBytes } from '../pickle/concat-bytes';

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
  /**
   * The memory the decode may hold, and how the user raises it: what a compressed input may
   * unpack to (./unpacked-budget.ts). Default: no limit but the unpack ratio's.
   */
  memoryLimit?: MemoryLimit;
  /**
   * A gzip input's ISIZE (its last four bytes, little-endian: the unpacked size modulo 4 GiB),
   * where the caller could read it without reading the whole input (a file).
   */
  gzipIsize?: number | null;
  /**
   * Given the trace rows once a pickle's decoding starts, to read between progress reports (the
   * page's curves drawn as the file decodes). Not for JSON inputs, which build their rows at the
   * end.
   */
  onTraceRows?: (rows: TraceRowsSoFar) => void;
}

// Trace entries take at least this many bytes in a pickle; sizing columns by it never undershoots
// much, and untouched capacity costs address space, not memory.
const MIN_BYTES_PER_TRACE_ENTRY = 24;
// The container is told from this many first bytes, however the source cuts its chunks: the
// verdict on a file never depends on where chunk boundaries fall.
const SNIFF_BYTES = 64 << 10;

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

  const budget = new UnpackedBudget(options.memoryLimit ?? NO_MEMORY_LIMIT, {
    packedBytes: totalBytes,
    isize: options.gzipIsize ?? null,
  });
  const { chunks, compressed, json, profilerTrace, memoryTimeline, end } = await pickleChunksOf(
    counted,
    0,
    budget,
  );
  try {
    if (json) {
      const model = await (memoryTimeline === true
        ? decodeMemoryTimeline(chunks)
        : profilerTrace
          ? decodeProfilerTrace(chunks)
          : decodeJsonSnapshot(chunks));
      await end.finish();
      options.onProgress?.({ phase: 'building', bytesRead, totalBytes });
      return model;
    }
    return await decodePickle(chunks, compressed, end, options, () => bytesRead);
  } finally {
    await end.cancel();
  }
}

async function decodePickle(
  chunks: AsyncIterable<Uint8Array>,
  compressed: boolean,
  end: ContainerEnd,
  options: DecodeOptions,
  bytesRead: () => number,
): Promise<SnapshotModel> {
  const totalBytes = options.totalBytes ?? null;
  const stacks = new StackInterner();
  const expectedRows =
    compressed || totalBytes === null ? 0 : totalBytes / MIN_BYTES_PER_TRACE_ENTRY;
  const traceTable = new TraceTableBuilder(stacks, expectedRows);
  options.onTraceRows?.(traceTable);
  const unpickler = new Unpickler({
    interceptor: traceTable,
    ...(compressed || totalBytes === null ? {} : { totalBytes }),
    ...(options.fastTraceEntries === false ? {} : { flatDictConsumer: traceTable }),
  });
  for await (const chunk of chunks) {
    unpickler.feed(chunk);
    // Bytes after STOP (the HTML export pads with NULs) are ignored.
    if (unpickler.done) break;
  }
  await end.finish();
  const root = unpickler.finish();
  options.onProgress?.({ phase: 'building', bytesRead: bytesRead(), totalBytes });
  return buildSnapshotModel({ root, pickleProtocol: unpickler.protocol, traceTable, stacks });
}

/** What the container needs once its content is decoded (gzip: its end read and checked). */
interface ContainerEnd {
  /** The content was decoded: read what is left of the container and check how it ends. */
  finish(): Promise<void>;
  /** Stop (after finish, or on any failure). */
  cancel(): Promise<void>;
}

const NOTHING_AT_THE_END: ContainerEnd = {
  finish: () => Promise.resolve(),
  cancel: () => Promise.resolve(),
};

interface PickleChunks {
  chunks: AsyncIterable<Uint8Array>;
  compressed: boolean;
  /** The JSON form of a snapshot (first non-space byte `{` or `[`), not a pickle. */
  json: boolean;
  /** JSON that is a PyTorch profiler trace (a dict with `traceEvents`), not a snapshot. */
  profilerTrace: boolean;
  /** JSON that is torch.profiler's export_memory_timeline (a list of lists of numbers). */
  memoryTimeline?: boolean;
  end: ContainerEnd;
}

async function pickleChunksOf(
  source: AsyncIterable<Uint8Array>,
  depth: number,
  budget: UnpackedBudget,
): Promise<PickleChunks> {
  const iterator = source[Symbol.asyncIterator]();
  const head = await readHead(iterator, SNIFF_BYTES);
  const all = prepend(head, iterator);
  const format = sniffInputFormat(head);
  switch (format) {
    case 'pickle':
      return {
        chunks: all,
        compressed: depth > 0,
        json: false,
        profilerTrace: false,
        end: NOTHING_AT_THE_END,
      };
    case 'json': {
      budget.holds('json');
      const kind = jsonInputKind(head);
      return {
        memoryTimeline: kind === 'memory-timeline',
        chunks: all,
        compressed: depth > 0,
        json: true,
        profilerTrace: kind === 'profiler-trace',
        end: NOTHING_AT_THE_END,
      };
    }
    case 'gzip': {
      if (depth > 0) break;
      const gzip = unpackGzip(all, budget);
      try {
        const inner = await pickleChunksOf(gzip.chunks, depth + 1, budget);
        return { ...inner, compressed: true, end: gzip };
      } catch (error) {
        await gzip.cancel();
        throw error;
      }
    }
    case 'html':
      return {
        chunks: pickleFromHtml(all),
        compressed: true,
        json: false,
        profilerTrace: false,
        end: NOTHING_AT_THE_END,
      };
    default:
      break;
  }
  await iterator.return?.();
  // A pickle of protocol 0 or 1 has no PROTO byte: say what it is (code loading above all).
  const textPickle = format === 'unknown' ? describeProtocol0Or1(head) : null;
  if (textPickle !== null) throw textPickle;
  throw new SnapshotFormatError(
    depth > 0
      ? `the gzip data inside: ${describeUnreadableFormat(format)}`
      : describeUnreadableFormat(format),
  );
}

/** The first `bytes` bytes of the source (fewer only at its end), as one array. */
async function readHead(iterator: AsyncIterator<Uint8Array>, bytes: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done === true) break;
    if (next.value.length === 0) continue;
    parts.push(next.value);
    length += next.value.length;
  }
  return parts.length === 1 ? parts[0]! : concatBytes(parts, length);
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
