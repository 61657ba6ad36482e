// Where the frames of a protocol 4-5 pickle begin, read by hopping from one FRAME header to the
// next (each carries its length) without decoding anything. CPython's pickler (and PyTorch's
// _dump_snapshot, through it) closes a frame only between opcodes, once it holds 64 KiB, so
// every frame's first byte is an opcode boundary: a place a reader can start stepping through
// opcodes from, anywhere in a file of gigabytes, after reading a few bytes per 64 KiB.
//
// Between frames CPython writes, unframed, the opcodes whose payload is 64 KiB or more (a long
// string or bytes value), and a last frame of fewer than 4 bytes without a header: both are
// stepped over here. Anything else ends the index (the rest of the file is decoded by whoever
// decodes the part before it).

import { sourceOf, type ByteSource } from './byte-source';
import { Op } from './opcodes';

export interface FrameIndex {
  /** Protocol from the PROTO opcode (4 or 5). */
  protocol: number;
  /** Offset of each frame's first opcode (the byte after its 9-byte header), ascending. */
  payloadStarts: number[];
  /** Where hopping stopped: the end of the input, or the first byte it could not hop over. */
  end: number;
}

/** Why a pickle has no frame index: it is then decoded on one worker. */
export type NoFrameIndex = { reason: string };

const FRAME_HEADER = 9;

/**
 * The frames of a protocol 4-5 pickle, or why there are none to hop through. From a ByteSource it
 * reads each frame's header only (9 bytes per 64 KiB frame).
 */
export function indexFrames(input: Uint8Array | ByteSource): FrameIndex | NoFrameIndex {
  const source = sourceOf(input);
  const size = source.size;
  const head = source.read(0, 2);
  if (head.length < 2 || head[0] !== Op.PROTO) return { reason: 'not a pickle of protocol 2+' };
  const protocol = head[1]!;
  if (protocol < 4) return { reason: `protocol ${protocol} has no frames` };
  if (protocol > 5) return { reason: `unsupported protocol ${protocol}` };
  const payloadStarts: number[] = [];
  let pos = 2;
  while (pos < size) {
    const header = source.read(pos, FRAME_HEADER);
    const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
    if (header[0] === Op.FRAME) {
      if (header.length < FRAME_HEADER) break;
      const length = view.getUint32(1, true) + view.getUint32(5, true) * 2 ** 32;
      if (pos + FRAME_HEADER + length > size) break;
      payloadStarts.push(pos + FRAME_HEADER);
      pos += FRAME_HEADER + length;
      continue;
    }
    const unframed = unframedPayloadEnd(header, view, pos, size);
    if (unframed < 0) break;
    pos = unframed;
  }
  if (payloadStarts.length === 0) return { reason: 'no FRAME opcode after PROTO' };
  return { protocol, payloadStarts, end: pos };
}

/**
 * The end of a long string or bytes opcode written outside frames at `pos` (its header in
 * `header`, read there), or -1; `size`: the input's.
 */
function unframedPayloadEnd(header: Uint8Array, view: DataView, pos: number, size: number): number {
  const op = header[0];
  let length: number;
  let headerBytes: number;
  if (op === Op.BINUNICODE || op === Op.BINBYTES) {
    if (header.length < 5) return -1;
    headerBytes = 5;
    length = view.getUint32(1, true);
  } else if (op === Op.BINUNICODE8 || op === Op.BINBYTES8 || op === Op.BYTEARRAY8) {
    if (header.length < 9) return -1;
    headerBytes = 9;
    length = view.getUint32(1, true) + view.getUint32(5, true) * 2 ** 32;
  } else {
    return -1;
  }
  const end = pos + headerBytes + length;
  return end <= size ? end : -1;
}

/** FRAME headers a found frame must chain to (each at the end of the one before). */
const CHAINED_FRAMES = 3;
/**
 * The longest frame believed: CPython's pickler closes a frame once it holds 64 KiB, and writes
 * larger payloads outside frames.
 */
const MAX_FRAME_BYTES = 1 << 20;

/**
 * The payload start of a frame at or after `target`, found in the `searchBytes` after it without
 * hopping from the start of the file (which reads a header per 64 KiB: in a browser, a
 * millisecond each): a FRAME opcode whose length leads to another FRAME header, and so on
 * CHAINED_FRAMES times (or to the end of the input, or the under 4 bytes CPython leaves unframed
 * there). -1 when none is found. Bytes inside a string
 * can look like this; whoever starts decoding here must check that the decode before it ends
 * exactly here (the spine of a decode in parts does: ../snapshot/decode-in-parts.ts).
 */
export function findFrameNear(source: ByteSource, target: number, searchBytes: number): number {
  const window = source.read(target, searchBytes + CHAINED_FRAMES * (MAX_FRAME_BYTES + 9));
  const view = new DataView(window.buffer, window.byteOffset, window.byteLength);
  const lengthAt = (at: number): number =>
    at + FRAME_HEADER <= window.length && window[at] === Op.FRAME
      ? view.getUint32(at + 1, true) + view.getUint32(at + 5, true) * 2 ** 32
      : -1;
  const limit = Math.min(searchBytes, window.length);
  for (let at = 0; at < limit; at++) {
    if (window[at] !== Op.FRAME) continue;
    let hop = at;
    let chained = 0;
    while (chained < CHAINED_FRAMES) {
      const length = lengthAt(hop);
      if (length <= 0 || length > MAX_FRAME_BYTES) break;
      hop += FRAME_HEADER + length;
      chained++;
      // The end of the input, or the last bytes CPython writes without a frame (under 4).
      if (target + hop <= source.size && source.size - (target + hop) < 4) chained = CHAINED_FRAMES;
    }
    if (chained === CHAINED_FRAMES) return target + at + FRAME_HEADER;
  }
  return -1;
}
