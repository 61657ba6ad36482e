// Where a snapshot pickle can be cut into parts that decode on separate workers (issue 25). Nearly
// all of a big snapshot's bytes are trace entries, pickled one after another inside a device's
// trace list:
//   ... MARK (EMPTY_DICT MEMOIZE MARK <'action'> <value> ... SETITEMS)* APPENDS ...
// so a part starts at the EMPTY_DICT of a trace entry whose previous sibling in the same APPENDS
// batch ended just before it (the opcode before is SETITEMS). There, a decoder needs no state
// but "a trace list with an open batch" (and the memo, see below) to go on.
//
// Finding such a place without decoding: hop the FRAME headers to the frame nearest the wanted
// offset (every frame starts on an opcode boundary, see frame-index.ts), then step opcodes (their
// lengths only) until the pattern above, its key being a reference to the memoized 'action'
// string. Which memo index that string has is read once, by stepping the opcodes from the start
// of the file to the first trace entry (the segments come first; a few percent of the bytes).
//
// The plan is a guess from the bytes, not a proof: a hostile file can hold the pattern elsewhere.
// Whoever decodes the part before a split checks, when it reaches the split, that its state is
// the one the plan assumed (a trace list on the stack below an open MARK, trace entries only
// above it); when it is not, the file is decoded on one worker. Each part's first memo index is
// the sum of the MEMOIZE opcodes of the parts before it (countMemoized in ../pickle/opcode-scan.ts).

import { sourceOf, type ByteSource } from '../pickle/byte-source';
import { findFrameNear, indexFrames } from '../pickle/frame-index';
import { NOT_SCANNED, opcodeEnd } from '../pickle/opcode-scan';
import { Op } from '../pickle/opcodes';

export interface TraceSplitPlan {
  /** Offset where each part begins, ascending: 0, then the EMPTY_DICT of a trace entry per part. */
  starts: number[];
  /** Memo index of the 'action' key string that every trace entry names first. */
  actionKeyMemoIndex: number;
  /** Where the 'action' string is first written (the first trace entry is just before it). */
  firstActionKey: number;
  /** How many frames the plan hopped through (null: it searched near each cut instead). */
  frames: number | null;
}

export type TraceSplit = { plan: TraceSplitPlan } | { reason: string };

export interface TraceSplitOptions {
  /**
   * How far past the frame nearest a wanted split the search for a trace entry goes, in bytes.
   * A trace entry is a few hundred bytes to a few KiB; a frame is 64 KiB.
   */
  searchBytes?: number;
  /**
   * Where parts should begin, as fractions of the file (ascending; default k / parts): the first
   * part may take more when the later ones first scan it (docs/parallel-decode.md).
   */
  fractions?: readonly number[];
  /** Bytes read at a time from a ByteSource not in memory, before the first trace entry. */
  windowBytes?: number;
  /**
   * How a frame near each cut is found: by the frame index (hopping every header from the start:
   * a read per 64 KiB, cheap from a file on disk), or by searching near the cut for a chain of
   * FRAME headers (a few reads in all: a browser's reads cost milliseconds each). A cut found by
   * searching is checked as every cut is: the spine's decode must end exactly there.
   */
  frames?: 'index' | 'search';
}

const DEFAULT_SEARCH_BYTES = 1 << 20;
const ACTION = new TextEncoder().encode('action');
/** Bytes findActionKey reads at a time from a ByteSource not in memory, and at most. */
const KEY_WINDOW_BYTES = 8 << 20;
const MAX_KEY_WINDOW_BYTES = 256 << 20;

/**
 * Up to `parts` parts for `bytes`, a whole snapshot pickle in memory; fewer where the file has
 * too few frames or trace entries to cut it (one part: decode it as today).
 */
export function planTraceSplit(
  input: Uint8Array | ByteSource,
  parts: number,
  options: TraceSplitOptions = {},
): TraceSplit {
  const source = sourceOf(input);
  const frames = options.frames === 'search' ? framesBySearch(source) : indexFrames(source);
  if ('reason' in frames) return { reason: frames.reason };
  const key = findActionKey(source, source.size / 2, options.windowBytes ?? KEY_WINDOW_BYTES);
  if ('reason' in key) return key;
  const searchBytes = options.searchBytes ?? DEFAULT_SEARCH_BYTES;
  const payloadStarts = frames.payloadStarts;
  const starts = [0];
  for (let part = 1; part < parts; part++) {
    const previous = starts[starts.length - 1]!;
    const fraction = options.fractions?.[part - 1] ?? part / parts;
    const target = Math.max(Math.floor(source.size * fraction), key.at, previous + 1);
    let from: number;
    if (payloadStarts === null) {
      from = findFrameNear(source, target, searchBytes);
      if (from < 0) continue;
    } else {
      const frame = firstAtOrAfter(payloadStarts, target);
      if (frame === payloadStarts.length) break;
      from = payloadStarts[frame]!;
    }
    const to = Math.min(frames.end, from + searchBytes);
    const entry =
      source.whole !== undefined
        ? findTraceEntry(source.whole, from, to, key.memoIndex)
        : findTraceEntryIn(source, from, to, key.memoIndex);
    if (entry < 0) continue;
    if (entry > previous) starts.push(entry);
  }
  return {
    plan: {
      starts,
      actionKeyMemoIndex: key.memoIndex,
      firstActionKey: key.at,
      frames: payloadStarts?.length ?? null,
    },
  };
}

/**
 * What the plan knows of the frames when it searches near each cut: that the file has them (a
 * FRAME right after PROTO), not where they all are (payloadStarts null).
 */
function framesBySearch(
  source: ByteSource,
): { payloadStarts: null; end: number } | { reason: string } {
  const head = source.read(0, 3);
  if (head.length < 3 || head[0] !== Op.PROTO) return { reason: 'not a pickle of protocol 2+' };
  if (head[1]! < 4) return { reason: `protocol ${head[1]} has no frames` };
  if (head[1]! > 5) return { reason: `unsupported protocol ${head[1]}` };
  if (head[2] !== Op.FRAME) return { reason: 'no FRAME opcode after PROTO' };
  return { payloadStarts: null, end: source.size };
}

/**
 * The memo index of the first memoized 'action' string, stepping opcodes from the start; `at`: its
 * offset. Stops at `limit` bytes: a trace that starts past it leaves little to share. From a
 * ByteSource not in memory it reads window by window (an opcode cut by a window is read again at
 * the start of the next).
 */
function findActionKey(
  source: ByteSource,
  limit: number,
  firstWindowBytes: number,
): { memoIndex: number; at: number } | { reason: string } {
  let memoized = 0;
  let pos = 2;
  let windowBytes = firstWindowBytes;
  while (pos < limit) {
    const bytes = source.whole ?? source.read(pos, Math.min(windowBytes, source.size - pos));
    const origin = source.whole === undefined ? pos : 0;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const end = bytes.length;
    const windowStart = pos;
    let local = pos - origin;
    let cut = false;
    while (local + origin < limit) {
      const op = bytes[local]!;
      if (op === Op.MEMOIZE) {
        memoized++;
        local++;
        continue;
      }
      if (op === Op.BINPUT || op === Op.LONG_BINPUT) {
        return { reason: 'memo entries numbered by BINPUT (not written by CPython 3.8+)' };
      }
      if (local >= end) {
        cut = true;
        break;
      }
      const after = opcodeEnd(bytes, view, local, end);
      if (after === NOT_SCANNED) {
        cut = origin + end < source.size;
        break;
      }
      if (op === Op.STOP) break;
      // The match looks at the byte after the opcode: it must be in this window.
      if (after >= end && origin + end < source.size) {
        cut = true;
        break;
      }
      if (
        op === Op.SHORT_BINUNICODE &&
        bytes[local + 1] === ACTION.length &&
        sameBytes(bytes, local + 2, ACTION) &&
        bytes[after] === Op.MEMOIZE
      ) {
        return { memoIndex: memoized, at: origin + local };
      }
      local = after;
    }
    pos = origin + local;
    if (!cut) break;
    // Read on from the opcode the window cut; one longer than a window: a window twice as long.
    windowBytes = pos === windowStart ? windowBytes * 2 : firstWindowBytes;
    if (windowBytes > MAX_KEY_WINDOW_BYTES) break;
  }
  return { reason: 'no trace entry in the first half of the file' };
}

/** findTraceEntry on a window of a ByteSource not in memory. */
function findTraceEntryIn(
  source: ByteSource,
  from: number,
  to: number,
  actionKeyMemoIndex: number,
): number {
  // The pattern's last opcode (a LONG_BINGET) ends at most 8 bytes past its EMPTY_DICT.
  const window = source.read(from, to - from + 8);
  const entry = findTraceEntry(window, 0, to - from, actionKeyMemoIndex);
  return entry < 0 ? entry : from + entry;
}

/**
 * The offset of the first trace entry in bytes[from..to) that starts right after its sibling's
 * SETITEMS (see the header), `from` being an opcode boundary; -1 when there is none.
 */
export function findTraceEntry(
  bytes: Uint8Array,
  from: number,
  to: number,
  actionKeyMemoIndex: number,
): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length;
  let previousOp = -1;
  let pos = from;
  while (pos < to) {
    const op = bytes[pos]!;
    if (
      op === Op.EMPTY_DICT &&
      previousOp === Op.SETITEMS &&
      bytes[pos + 1] === Op.MEMOIZE &&
      bytes[pos + 2] === Op.MARK &&
      namesMemoIndex(bytes, view, pos + 3, actionKeyMemoIndex)
    ) {
      return pos;
    }
    const after = opcodeEnd(bytes, view, pos, end);
    if (after === NOT_SCANNED || op === Op.STOP) return -1;
    previousOp = op;
    pos = after;
  }
  return -1;
}

/** Whether a BINGET / LONG_BINGET at `pos` names memo entry `index`. */
function namesMemoIndex(bytes: Uint8Array, view: DataView, pos: number, index: number): boolean {
  const op = bytes[pos];
  if (op === Op.BINGET) return pos + 2 <= bytes.length && bytes[pos + 1] === index;
  if (op === Op.LONG_BINGET) {
    return pos + 5 <= bytes.length && view.getUint32(pos + 1, true) === index;
  }
  return false;
}

function sameBytes(bytes: Uint8Array, at: number, expected: Uint8Array): boolean {
  if (at + expected.length > bytes.length) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[at + i] !== expected[i]) return false;
  return true;
}

/** Index of the first value >= target in an ascending array (its length when none). */
function firstAtOrAfter(sorted: readonly number[], target: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return low;
}
