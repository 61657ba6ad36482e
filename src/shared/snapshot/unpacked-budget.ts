// What unpacking a compressed snapshot may cost, decided early: a gzip of 12 MB can unpack to
// 3 GB of valid-looking trace, and decoding that takes minutes and gigabytes the file's size does
// not justify. From what is known (the file's size, the ratio seen once the first MiB is
// unpacked, the gzip trailer's ISIZE where the file could be seeked and the ratio agrees) the
// unpacked size is estimated, on the low side, and the decode is refused as soon as that passes
// the limit: the memory the caller allows (the machine's, or the user's --max-memory), and by
// default no more than a snapshot of the file's size could unpack to. The bytes actually unpacked
// are counted all along, so a start or a trailer that lies is caught too.

import { groupDigits, UnreadableInputError } from '../errors/unreadable-input';
import { formatBytes } from '../format/units';

/**
 * Memory one decode holds at its height, as a multiple of the bytes it works through (the file,
 * or what it unpacks to): kept on the safe side (the bench's `summary` of a 100 MB file peaks at
 * 130 MB resident, Node's own included). The app and `ranks` schedule decodes by it as well.
 */
export const MEMORY_PER_DECODED_BYTE = 3;

/**
 * The most a compressed snapshot is taken to unpack to, as a multiple of its size, unless the
 * user allows more: real snapshots compress 1.4-37 times as pickles (gzip -9, the twelve in
 * test/fixtures/real); deflate reaches 1,032 times, which only made-up data does (the gzip bombs
 * of issue 20 unpack 256 times).
 */
export const MAX_UNPACK_RATIO = 64;

/**
 * The same for the JSON form: the twelve written by json.dumps compress 1.7-80 times (shared
 * frames written out in full: the text is 5-49 times the pickle, so a byte of it costs far less
 * to decode); its container bombs are refused by the JSON reader's own budget.
 */
export const MAX_UNPACK_RATIO_JSON = 128;

/** What the compressed data holds, once its first bytes are sniffed. */
export type PackedContent = 'pickle' | 'json';

const RATIO_OF: Record<PackedContent, number> = {
  pickle: MAX_UNPACK_RATIO,
  json: MAX_UNPACK_RATIO_JSON,
};

const HOW_THEY_COMPRESS: Record<PackedContent, string> = {
  pickle: 'snapshots compress up to about 40 times',
  json: 'snapshots in JSON form compress up to about 80 times',
};

/**
 * Whatever its ratio, a compressed file may unpack to this much: what decides for a pipe, whose
 * size is not known. Under a second of decoding even for the densest valid pickle (NONE POP
 * pairs: 128 MiB of them took 3.5 s of CPU, fuzz campaign seed 28112026 case 3255); a real
 * snapshot under 0.5 MB of gzip unpacks to less (37 times at most).
 */
export const UNPACKED_BYTES_ALLOWED_ANYWAY = 32 * 2 ** 20;

/** The ratio (and with it the trailer) is judged once this much is unpacked: a few pieces in. */
const RATIO_PROBE_BYTES = 2 << 20;

/**
 * The ratio over the start may exceed the whole file's by this factor (the segments compress
 * differently from the trace): the limit is held against the ratio seen divided by it.
 */
const RATIO_SLACK = 2;

/** The trailer gives the likeliest size where it is this near (a fraction) the ratio's estimate. */
const TRAILER_AGREES = 0.25;

const TWO_POW_32 = 2 ** 32;

export interface MemoryLimit {
  /** The memory one decode may hold (Infinity: no limit but the ratio). */
  readonly bytes: number;
  /** Where it comes from, for the message: "this machine's memory", "--max-memory 8G". */
  readonly source: string;
  /** The user chose it: then it alone decides, however well the file compresses. */
  readonly chosen: boolean;
  /**
   * How the user lets a decode needing `bytes` through ("--max-memory 9G allows it"), or one
   * needing more than `bytes` when that is all that is known; absent where there is no way (the page).
   */
  readonly raiseTo?: (bytes: number, moreThan: boolean) => string;
}

/** No memory limit but the ratio's (tests, tools): what a decode gets when the caller gives none. */
export const NO_MEMORY_LIMIT: MemoryLimit = { bytes: Infinity, source: '', chosen: false };

/** What is known of a compressed input before it is unpacked. */
export interface PackedFacts {
  /** Its size, when known (a file's, Content-Length): null for a pipe. */
  readonly packedBytes: number | null;
  /** The last four bytes as a little-endian number, when the input could be seeked. */
  readonly isize: number | null;
}

/** How far unpacking has come. */
export interface UnpackProgress {
  /** Bytes unpacked so far. */
  readonly unpacked: number;
  /** Compressed bytes the inflater has taken in full. */
  readonly consumed: number;
  /** Compressed bytes handed to it and not yet taken in full. */
  readonly pending: number;
}

export interface UnpackedEstimate {
  /** A lower bound for any file that would be accepted: what the limit is held against. */
  readonly atLeast: number;
  /** The likeliest size, for the message and the limit it suggests. */
  readonly likely: number;
  /** What it rests on: the trailer alone, the ratio seen so far, or the bytes unpacked so far. */
  readonly from: 'trailer' | 'ratio' | 'count';
}

/**
 * The unpacked size. Before the first 2 MiB are unpacked, only what is unpacked so far counts; then
 * the ratio seen so far says the rest (on the low side: halved, for the limit). The trailer's ISIZE
 * is the size modulo 4 GiB for any gzip file allocscope accepts (checked at its end), but the last
 * four bytes of a truncated or padded file are anything: so it is believed only where the ratio
 * agrees (a size with that remainder within a factor RATIO_SLACK of the ratio's estimate), and
 * then it is the size, or picks it among those the ratio allows.
 */
export function estimateUnpacked(facts: PackedFacts, progress: UnpackProgress): UnpackedEstimate {
  const { unpacked, consumed, pending } = progress;
  const counted: UnpackedEstimate = { atLeast: unpacked, likely: unpacked, from: 'count' };
  if (facts.packedBytes === null || unpacked < RATIO_PROBE_BYTES || consumed + pending === 0)
    return counted;
  // A lower bound of the ratio over what was taken in: the pending bytes may have given all of
  // their output already.
  const byRatio = (unpacked / (consumed + pending)) * facts.packedBytes;
  const low = Math.max(unpacked, byRatio / RATIO_SLACK);
  const ratio: UnpackedEstimate = { atLeast: low, likely: Math.max(low, byRatio), from: 'ratio' };
  if (facts.isize === null) return ratio;
  const { isize } = facts;
  const atOrAbove = (bytes: number) =>
    isize + Math.max(0, Math.ceil((bytes - isize) / TWO_POW_32)) * TWO_POW_32;
  const smallest = atOrAbove(low);
  if (smallest > byRatio * RATIO_SLACK) return ratio;
  // The likeliest: the size with the trailer's remainder nearest the ratio's estimate, where it
  // is near enough to be that (a trailer that lies is off by a multiple of 4 GiB).
  const nearest = Math.max(smallest, atOrAbove(byRatio - TWO_POW_32 / 2));
  const near = Math.abs(nearest - byRatio) <= byRatio * TRAILER_AGREES;
  return {
    atLeast: smallest,
    likely: near ? nearest : ratio.likely,
    from: near && nearest === isize ? 'trailer' : 'ratio',
  };
}

/**
 * The unpacked bytes allowed: the limit's share, and unless the user chose the limit, no more
 * than the content's ratio (MAX_UNPACK_RATIO, MAX_UNPACK_RATIO_JSON) times the compressed size
 * (so far read, when the size is not known).
 */
export function unpackedBytesAllowed(
  limit: MemoryLimit,
  packedBytes: number,
  content: PackedContent = 'pickle',
): { bytes: number; byRatio: boolean } {
  const byMemory = limit.bytes / MEMORY_PER_DECODED_BYTE;
  if (limit.chosen) return { bytes: byMemory, byRatio: false };
  const byRatio = Math.max(UNPACKED_BYTES_ALLOWED_ANYWAY, RATIO_OF[content] * packedBytes);
  return byRatio < byMemory
    ? { bytes: byRatio, byRatio: true }
    : { bytes: byMemory, byRatio: false };
}

/**
 * Judges a compressed input as it unpacks: `exceeded` as soon as the estimate (on the low side)
 * passes what is allowed; then `refusal` says what the file would cost (the likeliest figures),
 * the limit and how to raise it.
 */
export class UnpackedBudget {
  /** Taken for a pickle until the unpacked start says otherwise (holds). */
  private content: PackedContent = 'pickle';

  constructor(
    private readonly limit: MemoryLimit,
    private readonly facts: PackedFacts,
  ) {}

  /** What the unpacked bytes turned out to be (sniffed from their start). */
  holds(content: PackedContent): void {
    this.content = content;
  }

  /** Whether the input would unpack to more than allowed. `fed`: compressed bytes read so far. */
  exceeded(progress: UnpackProgress, fed: number): boolean {
    const allowed = unpackedBytesAllowed(this.limit, this.facts.packedBytes ?? fed, this.content);
    return estimateUnpacked(this.facts, progress).atLeast > allowed.bytes;
  }

  /** The one line that refuses the input, from what is known now. */
  refusal(progress: UnpackProgress, fed: number): UnreadableInputError {
    const packed = this.facts.packedBytes ?? fed;
    const allowed = unpackedBytesAllowed(this.limit, packed, this.content);
    const estimate = estimateUnpacked(this.facts, progress);
    const size = formatBytes(estimate.likely);
    const times = `${groupDigits(Math.round(estimate.likely / Math.max(1, packed)))} times`;
    const known = this.facts.packedBytes !== null;
    const of = known ? 'its size' : `the ${formatBytes(packed)} read so far`;
    const what =
      estimate.from === 'trailer'
        ? `unpacks to ${size} (says its trailer), ${times} ${of}`
        : estimate.from === 'ratio'
          ? `would unpack to about ${size}, ${times} ${of} (judging by the first ${formatBytes(progress.unpacked)})`
          : `unpacks to more than ${size}, ${times} ${of}`;
    const needed = estimate.likely * MEMORY_PER_DECODED_BYTE;
    const read = known ? `a file of ${formatBytes(packed)}` : `${formatBytes(packed)} of gzip data`;
    const why = allowed.byRatio
      ? `for ${read} (${HOW_THEY_COMPRESS[this.content]})`
      : `(${this.limit.source})`;
    const raise =
      this.limit.raiseTo === undefined
        ? ''
        : `; ${this.limit.raiseTo(needed, estimate.from === 'count')}`;
    return new UnreadableInputError(
      `the gzip data ${what}: decoding it could take ${formatBytes(needed)} of memory, over ` +
        `the limit of ${formatBytes(allowed.bytes * MEMORY_PER_DECODED_BYTE)} ${why}${raise}`,
    );
  }
}
