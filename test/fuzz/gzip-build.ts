// gzip members built by hand, for the gzip mutator: a member's header fields and trailer (CRC-32,
// ISIZE) set at will, and high-ratio members that inflate to GBs from a few MB without the fuzz
// ever holding the inflated bytes: one MiB of a pattern is deflated once (ending in a full flush,
// so the blocks stand alone), its blocks are repeated n times and a final empty block closes the
// stream; the CRC-32 of n copies comes from zlib's crc32_combine (CRC algebra, no pass over GBs).

import { constants, crc32, deflateRawSync } from 'node:zlib';
import { concat, repeat } from './mutator-kit';

const MiB = 1 << 20;

export interface GzipHeader {
  /** FLG bits: FTEXT 1, FHCRC 2, FEXTRA 4, FNAME 8, FCOMMENT 16; 0xe0 are reserved. */
  flags: number;
  method: number;
  extra: Uint8Array | null;
  name: Uint8Array | null;
  comment: Uint8Array | null;
  /** The header's CRC-16 (FHCRC) as written; null: the right one. */
  headerCrc: number | null;
}

export const PLAIN_HEADER: GzipHeader = {
  flags: 0,
  method: 8,
  extra: null,
  name: null,
  comment: null,
  headerCrc: null,
};

export function gzipHeader(header: GzipHeader): Uint8Array {
  const fixed = Uint8Array.of(0x1f, 0x8b, header.method, header.flags, 0, 0, 0, 0, 0, 3);
  const parts: Uint8Array[] = [fixed];
  if (header.extra !== null) {
    parts.push(Uint8Array.of(header.extra.length & 0xff, (header.extra.length >> 8) & 0xff));
    parts.push(header.extra);
  }
  if (header.name !== null) parts.push(header.name);
  if (header.comment !== null) parts.push(header.comment);
  if ((header.flags & 2) !== 0) {
    const crc = header.headerCrc ?? crc32(concat(...parts)) & 0xffff;
    parts.push(Uint8Array.of(crc & 0xff, (crc >> 8) & 0xff));
  }
  return concat(...parts);
}

export function gzipTrailer(crc: number, size: number): Uint8Array {
  const out = new Uint8Array(8);
  const view = new DataView(out.buffer);
  view.setUint32(0, crc >>> 0, true);
  view.setUint32(4, size % 2 ** 32, true);
  return out;
}

export interface Inflating {
  /** The raw deflate stream, final block included. */
  deflated: Uint8Array;
  /** CRC-32 and length of what it inflates to. */
  crc: number;
  size: number;
}

/** A plain member's deflate stream with its figures. */
export function deflated(data: Uint8Array): Inflating {
  return { deflated: deflateRawSync(data), crc: crc32(data), size: data.length };
}

const flushedUnits = new Map<string, { blocks: Uint8Array; crc: number; size: number }>();

/** One MiB (whole patterns) of `pattern`, deflated and fully flushed; cached per pattern. */
function unitOf(pattern: Uint8Array): { blocks: Uint8Array; crc: number; size: number } {
  const key = Buffer.from(pattern).toString('hex');
  let unit = flushedUnits.get(key);
  if (unit === undefined) {
    const data = repeat(pattern, Math.max(1, Math.floor(MiB / pattern.length)));
    unit = {
      blocks: deflateRawSync(data, { finishFlush: constants.Z_FULL_FLUSH, level: 9 }),
      crc: crc32(data),
      size: data.length,
    };
    flushedUnits.set(key, unit);
  }
  return unit;
}

/**
 * A deflate stream of `prefix`, then `pattern` repeated to about `bytes`, then `suffix`, with
 * the CRC-32 and size of all of it. Its compressed size is ~1/1000 of `bytes` for simple patterns.
 */
export function highRatio(
  prefix: Uint8Array,
  pattern: Uint8Array,
  bytes: number,
  suffix: Uint8Array,
): Inflating {
  const unit = unitOf(pattern);
  const copies = Math.max(1, Math.round(bytes / unit.size));
  const head = deflateRawSync(prefix, { finishFlush: constants.Z_FULL_FLUSH });
  const tail = deflateRawSync(suffix);
  let crc = crc32(prefix);
  crc = crc32Combine(crc, crc32Repeated(unit.crc, unit.size, copies), unit.size * copies);
  crc = crc32Combine(crc, crc32(suffix), suffix.length);
  return {
    deflated: concat(head, repeat(unit.blocks, copies), tail),
    crc,
    size: prefix.length + unit.size * copies + suffix.length,
  };
}

// ---- CRC-32 algebra (zlib's crc32_combine) ----

function gf2Times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let i = 0, v = vector >>> 0; v !== 0; i++, v >>>= 1) if ((v & 1) !== 0) sum ^= matrix[i]!;
  return sum >>> 0;
}

function gf2Square(square: Uint32Array, matrix: Uint32Array): void {
  for (let n = 0; n < 32; n++) square[n] = gf2Times(matrix, matrix[n]!);
}

/** The CRC-32 of A then B, from crc(A), crc(B) and B's length. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = 0xedb88320;
  for (let n = 1, row = 1; n < 32; n++, row <<= 1) odd[n] = row;
  gf2Square(even, odd);
  gf2Square(odd, even);
  let crc = crcA >>> 0;
  let length = lengthB;
  for (;;) {
    gf2Square(even, odd);
    if (length % 2 === 1) crc = gf2Times(even, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
    gf2Square(odd, even);
    if (length % 2 === 1) crc = gf2Times(odd, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
  }
  return (crc ^ crcB) >>> 0;
}

/** The CRC-32 of `copies` copies of a block whose CRC-32 is `crc` and length `length`. */
export function crc32Repeated(crc: number, length: number, copies: number): number {
  let result = 0;
  let resultLength = 0;
  let power = crc;
  let powerLength = length;
  for (let n = copies; n > 0; n = Math.floor(n / 2)) {
    if (n % 2 === 1) {
      result = resultLength === 0 ? power : crc32Combine(result, power, powerLength);
      resultLength += powerLength;
    }
    power = crc32Combine(power, power, powerLength);
    powerLength *= 2;
  }
  return result >>> 0;
}
