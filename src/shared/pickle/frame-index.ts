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

/** The frames of a protocol 4-5 pickle, or why there are none to hop through. */
export function indexFrames(bytes: Uint8Array): FrameIndex | NoFrameIndex {
  if (bytes.length < 2 || bytes[0] !== Op.PROTO) return { reason: 'not a pickle of protocol 2+' };
  const protocol = bytes[1]!;
  if (protocol < 4) return { reason: `protocol ${protocol} has no frames` };
  if (protocol > 5) return { reason: `unsupported protocol ${protocol}` };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const payloadStarts: number[] = [];
  let pos = 2;
  while (pos < bytes.length) {
    const op = bytes[pos]!;
    if (op === Op.FRAME) {
      if (pos + FRAME_HEADER > bytes.length) break;
      const length = view.getUint32(pos + 1, true) + view.getUint32(pos + 5, true) * 2 ** 32;
      if (pos + FRAME_HEADER + length > bytes.length) break;
      payloadStarts.push(pos + FRAME_HEADER);
      pos += FRAME_HEADER + length;
      continue;
    }
    const unframed = unframedPayloadEnd(bytes, view, pos);
    if (unframed < 0) break;
    pos = unframed;
  }
  if (payloadStarts.length === 0) return { reason: 'no FRAME opcode after PROTO' };
  return { protocol, payloadStarts, end: pos };
}

/** The end of a long string or bytes opcode written outside frames at `pos`, or -1. */
function unframedPayloadEnd(bytes: Uint8Array, view: DataView, pos: number): number {
  const op = bytes[pos]!;
  let header: number;
  let length: number;
  if (op === Op.BINUNICODE || op === Op.BINBYTES) {
    if (pos + 5 > bytes.length) return -1;
    header = 5;
    length = view.getUint32(pos + 1, true);
  } else if (op === Op.BINUNICODE8 || op === Op.BINBYTES8 || op === Op.BYTEARRAY8) {
    if (pos + 9 > bytes.length) return -1;
    header = 9;
    length = view.getUint32(pos + 1, true) + view.getUint32(pos + 5, true) * 2 ** 32;
  } else {
    return -1;
  }
  const end = pos + header + length;
  return end <= bytes.length ? end : -1;
}
