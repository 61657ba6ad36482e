// The gzip container: the platform's inflater (DecompressionStream), fed in small pieces so the
// bytes it has taken in are known (the ratio) and what one piece unpacks to stays small (Chromium
// queues a piece's whole output at once: up to 1,032 times the piece), with every unpacked byte
// counted against the budget (./unpacked-budget.ts).
//
// A .gz snapshot is one gzip member and nothing after it. Platforms disagree on the rest (Node
// reads further members and ignores zeros after the data but refuses other bytes; Chromium
// refuses anything), and whether the bytes after the member were even reached depended on where
// the pickle's STOP fell: so the data is read to its end once the snapshot is decoded, and
// anything after the member is refused, on every platform: the trailer must end the input (its
// ISIZE, the last four bytes, is the unpacked size modulo 4 GiB), and the inflater's own
// complaints about bytes after the end say the same.

import { UnreadableInputError } from '../errors/unreadable-input';
import { SnapshotFormatError } from './snapshot-error';
import type { UnpackedBudget, UnpackProgress } from './unpacked-budget';

/**
 * Compressed bytes are handed to the inflater this many at a time: small over the first MiB, so
 * the ratio is known within the budget's first MiBs of output, then larger (a piece costs a round
 * trip through the inflater; 64 KiB unpack to 66 MB at most).
 */
const FIRST_PIECE_BYTES = 16 << 10;
const PIECE_BYTES = 64 << 10;
const FIRST_PIECES_UNTIL = 1 << 20;

/**
 * Once a file is refused, this much more is unpacked (not decoded: tens of milliseconds) so that
 * the ratio in the message is the file's, not its first pieces'.
 */
const MORE_FOR_THE_MESSAGE_BYTES = 16 << 20;

const TWO_POW_32 = 2 ** 32;

/** The refusal of bytes after the gzip member, whichever way they show. */
export const BYTES_AFTER_GZIP =
  'bytes follow the end of the gzip data (padding, garbage or a second gzip member): a .gz ' +
  'snapshot is one gzip member and nothing after it';

// How inflaters say that bytes follow the member: Chromium (and the Compression Streams
// standard's other implementations) refuse them outright; Node tries to read them as another
// member, whose header then fails (the first member's header was sniffed already).
const BYTES_AFTER_END = /junk found after end|incorrect header check/i;

/** The smallest gzip file: a 10-byte header, an empty deflate block, the 8-byte trailer. */
export const MIN_GZIP_BYTES = 18;

/**
 * A gzip file's ISIZE (the unpacked size modulo 4 GiB) from its first two and last four bytes,
 * for callers that can read a file's end without reading the rest (the CLI, a File in the page);
 * null when the file does not start as gzip does.
 */
export function gzipIsizeFrom(firstTwo: Uint8Array, lastFour: Uint8Array): number | null {
  if (firstTwo[0] !== 0x1f || firstTwo[1] !== 0x8b || lastFour.length !== 4) return null;
  return new DataView(lastFour.buffer, lastFour.byteOffset, 4).getUint32(0, true);
}

export interface GzipData {
  /** The unpacked bytes as they come. Stopping early leaves the rest to finish() or cancel(). */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Unpacks the rest (counted, and dropped) and checks what ends the input. */
  finish(): Promise<void>;
  /** Stops the inflater and the source (which closes its file). */
  cancel(): Promise<void>;
}

export function unpackGzip(source: AsyncIterable<Uint8Array>, budget: UnpackedBudget): GzipData {
  return new GzipUnpacker(source, budget);
}

class GzipUnpacker implements GzipData {
  private readonly writer: WritableStreamDefaultWriter<BufferSource>;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly source: AsyncIterator<Uint8Array>;
  private feeding: Promise<void> | null = null;
  private ended = false;
  private unpacked = 0;
  private consumed = 0;
  private pending = 0;
  private fed = 0;
  /** The last four compressed bytes fed (the trailer's ISIZE once the input ends). */
  private readonly lastFour = new Uint8Array(4);

  constructor(
    source: AsyncIterable<Uint8Array>,
    private readonly budget: UnpackedBudget,
  ) {
    const inflater = new DecompressionStream('gzip');
    this.writer = inflater.writable.getWriter();
    this.reader = inflater.readable.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    this.source = source[Symbol.asyncIterator]();
  }

  get chunks(): AsyncIterable<Uint8Array> {
    return { [Symbol.asyncIterator]: () => this.read() };
  }

  async finish(): Promise<void> {
    while ((await this.next()) !== null) {
      // Bytes after the pickle's STOP: counted against the budget, not decoded.
    }
  }

  async cancel(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    // Errors the inflater's input side too: the feeding stops and closes the source.
    await this.reader.cancel().catch(() => {});
  }

  private async *read(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const chunk = await this.next();
      if (chunk === null) return;
      yield chunk;
    }
  }

  /** The next unpacked chunk, null at the end of the data (checked then). */
  private async next(): Promise<Uint8Array | null> {
    if (this.ended) return null;
    this.feeding ??= this.feed();
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await this.reader.read();
    } catch (error) {
      this.ended = true;
      throw describeInflaterError(error);
    }
    if (result.done) {
      this.ended = true;
      this.checkEnd();
      return null;
    }
    this.unpacked += result.value.length;
    if (this.budget.exceeded(this.progress(), this.fed)) await this.refuse();
    return result.value;
  }

  private progress(): UnpackProgress {
    const { unpacked, consumed, pending } = this;
    return { unpacked, consumed, pending };
  }

  private async refuse(): Promise<never> {
    const until = this.unpacked + MORE_FOR_THE_MESSAGE_BYTES;
    try {
      while (this.unpacked < until) {
        const result = await this.reader.read();
        if (result.done) break;
        this.unpacked += result.value.length;
      }
    } catch {
      // Whatever else is wrong with the file, this is what it is refused for.
    }
    this.ended = true;
    throw this.budget.refusal(this.progress(), this.fed);
  }

  /** Hands the source to the inflater piece by piece, as it takes them. */
  private async feed(): Promise<void> {
    try {
      for (;;) {
        const next = await this.source.next();
        if (next.done === true) break;
        const chunk = next.value;
        for (let at = 0; at < chunk.length;) {
          const size = this.fed < FIRST_PIECES_UNTIL ? FIRST_PIECE_BYTES : PIECE_BYTES;
          const piece = chunk.subarray(at, at + size);
          at += piece.length;
          this.keepLastFour(piece);
          this.fed += piece.length;
          this.pending = piece.length;
          await this.writer.write(piece as Uint8Array<ArrayBuffer>);
          this.consumed += piece.length;
          this.pending = 0;
        }
      }
      await this.writer.close();
    } catch (error) {
      // The source failed: its error reaches the reader. Or the inflater did, or was cancelled:
      // then the source is not wanted any more.
      await this.writer.abort(error).catch(() => {});
      await this.source.return?.().catch(() => {});
    }
  }

  private keepLastFour(piece: Uint8Array): void {
    if (piece.length >= 4) {
      this.lastFour.set(piece.subarray(piece.length - 4));
      return;
    }
    this.lastFour.copyWithin(0, piece.length);
    this.lastFour.set(piece, 4 - piece.length);
  }

  /** The input ends with the member's trailer: its ISIZE is what was unpacked, modulo 4 GiB. */
  private checkEnd(): void {
    const isize = new DataView(this.lastFour.buffer).getUint32(0, true);
    if (isize !== this.unpacked % TWO_POW_32) throw new SnapshotFormatError(BYTES_AFTER_GZIP);
  }
}

function describeInflaterError(error: unknown): Error {
  if (error instanceof UnreadableInputError) return error;
  const text = error instanceof Error ? error.message : String(error);
  if (BYTES_AFTER_END.test(text)) return new SnapshotFormatError(BYTES_AFTER_GZIP);
  return new SnapshotFormatError(`the gzip data is corrupt or truncated (${text})`);
}
