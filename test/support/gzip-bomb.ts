// Gzip files that unpack to gigabytes of valid-looking trace, built in milliseconds: the pickle is
// a head, one block of trace entries repeated, and a tail; the block is deflated once (its own
// byte-aligned, non-final deflate blocks, with no reference outside itself: Z_FULL_FLUSH) and its
// compressed bytes are repeated, which is a valid deflate stream of the block repeated. Nothing is
// compressed twice, and the unpacked data never exists. Options make the trailer lie, add bytes
// after the gzip member, or skip the CRC (computing it costs a pass over the unpacked bytes).

import { constants, crc32, deflateRawSync } from 'node:zlib';

const TWO_POW_32 = 2 ** 32;

/** A pickle as head + body × repeats + tail. */
export interface RepeatedPickle {
  readonly head: Uint8Array;
  readonly body: Uint8Array;
  readonly repeats: number;
  readonly tail: Uint8Array;
}

export interface GzipBombOptions {
  /** Write this ISIZE instead of the true size mod 2^32 (a trailer that lies). */
  readonly isize?: number;
  /** Compute the true CRC-32 (a pass over every unpacked byte); else 0, which inflaters refuse at the end. */
  readonly crc?: boolean;
  /** Bytes after the gzip member. */
  readonly after?: Uint8Array;
}

export function unpackedBytesOf(pickle: RepeatedPickle): number {
  return pickle.head.length + pickle.body.length * pickle.repeats + pickle.tail.length;
}

export function gzipOfRepeats(pickle: RepeatedPickle, options: GzipBombOptions = {}): Uint8Array {
  const flushed = (bytes: Uint8Array) =>
    deflateRawSync(bytes, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const head = flushed(pickle.head);
  const body = flushed(pickle.body);
  const tail = deflateRawSync(pickle.tail, { level: 9, finishFlush: constants.Z_FINISH });
  const after = options.after ?? new Uint8Array(0);
  const header = Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff);
  const size = header.length + head.length + body.length * pickle.repeats + tail.length + 8;
  const out = new Uint8Array(size + after.length);
  let at = 0;
  const put = (bytes: Uint8Array) => {
    out.set(bytes, at);
    at += bytes.length;
  };
  put(header);
  put(head);
  for (let i = 0; i < pickle.repeats; i++) put(body);
  put(tail);
  let crc = 0;
  if (options.crc === true) {
    // Node's crc32 of no bytes answers 0 for a running value past 2^31: empty parts are skipped.
    const add = (bytes: Uint8Array) => void (crc = bytes.length === 0 ? crc : crc32(bytes, crc));
    add(pickle.head);
    for (let i = 0; i < pickle.repeats; i++) add(pickle.body);
    add(pickle.tail);
  }
  const trailer = new DataView(out.buffer, at, 8);
  trailer.setUint32(0, crc, true);
  trailer.setUint32(4, options.isize ?? unpackedBytesOf(pickle) % TWO_POW_32, true);
  at += 8;
  put(after);
  return out;
}

// Pickle opcodes (protocol 4) for the hand-written trace below.
const PROTO = 0x80;
const EMPTY_DICT = 0x7d;
const EMPTY_LIST = 0x5d;
const MEMOIZE = 0x94;
const MARK = 0x28;
const SHORT_BINUNICODE = 0x8c;
const BINGET = 0x68;
const BININT1 = 0x4b;
const BININT = 0x4a;
const LONG1 = 0x8a;
const SETITEMS = 0x75;
const APPENDS = 0x65;
const APPEND = 0x61;
const STOP = 0x2e;

const utf8 = new TextEncoder();

function str(text: string): number[] {
  const bytes = utf8.encode(text);
  return [SHORT_BINUNICODE, bytes.length, ...bytes, MEMOIZE];
}

function long1(value: number): number[] {
  const bytes: number[] = [];
  let rest = BigInt(value);
  do {
    bytes.push(Number(rest & 0xffn));
    rest >>= 8n;
  } while (rest > 0n || (bytes[bytes.length - 1]! & 0x80) !== 0);
  return [LONG1, bytes.length, ...bytes];
}

function binint(value: number): number[] {
  return [BININT, value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
}

const ADDRESS = 0x7f0000000000;
const SIZE = 1 << 20;
const TIME_US = 1_700_000_000_000_000;

// Memo indices, as PyTorch's pickler numbers them: the top dict, 'segments', its list,
// 'device_traces', its list, device 0's list, then the first entries' keys and values.
const M = {
  action: 7,
  alloc: 8,
  addr: 9,
  size: 10,
  stream: 11,
  timeUs: 12,
  frames: 13,
  stack: 14,
  freeCompleted: 22,
} as const;

/**
 * A snapshot of one device whose trace is `pairs` alloc/free_completed pairs per body, the body
 * repeated `repeats` times (about 115 bytes a pair): a valid snapshot, with every entry's stack the
 * same shared list as PyTorch writes them. `vary` entries in a body get their own time (the rest
 * repeat the last), which sets how well it compresses.
 */
export function repeatedTrace(pairs: number, repeats: number, vary = pairs): RepeatedPickle {
  const head = [
    PROTO,
    4,
    EMPTY_DICT,
    MEMOIZE, // 0
    MARK,
    ...str('segments'), // 1
    EMPTY_LIST,
    MEMOIZE, // 2
    ...str('device_traces'), // 3
    EMPTY_LIST,
    MEMOIZE, // 4
    EMPTY_LIST,
    MEMOIZE, // 5: device 0's trace, on the stack until the tail appends it
    MARK,
    // The first pair writes the keys, values and the shared stack; the body fetches them.
    EMPTY_DICT,
    MEMOIZE, // 6
    MARK,
    ...str('action'), // 7
    ...str('alloc'), // 8
    ...str('addr'), // 9
    ...long1(ADDRESS),
    ...str('size'), // 10
    ...binint(SIZE),
    ...str('stream'), // 11
    BININT1,
    0,
    ...str('time_us'), // 12
    ...long1(TIME_US),
    ...str('frames'), // 13
    EMPTY_LIST,
    MEMOIZE, // 14
    EMPTY_DICT,
    MEMOIZE, // 15
    MARK,
    ...str('filename'), // 16
    ...str('train.py'), // 17
    ...str('line'), // 18
    BININT1,
    62,
    ...str('name'), // 19
    ...str('forward'), // 20
    SETITEMS,
    APPEND,
    SETITEMS,
    EMPTY_DICT,
    MEMOIZE, // 21
    MARK,
    BINGET,
    M.action,
    ...str('free_completed'), // 22
    ...entryRest(TIME_US),
    SETITEMS,
    APPENDS,
  ];
  const body = traceBlock(pairs, (i) => TIME_US + 1 + Math.min(i, vary));
  const tail = [APPEND, SETITEMS, STOP];
  return {
    head: Uint8Array.from(head),
    body,
    repeats,
    tail: Uint8Array.from(tail),
  };
}

/**
 * `pairs` alloc/free_completed pairs in one MARK ... APPENDS batch, for repeatedTrace's trace
 * (after its head, before its tail): the i-th pair at time `timeOf(i)`.
 */
export function traceBlock(pairs: number, timeOf: (i: number) => number): Uint8Array {
  const body: number[] = [MARK];
  for (let i = 0; i < pairs; i++) {
    for (const action of [M.alloc, M.freeCompleted]) {
      body.push(EMPTY_DICT, MEMOIZE, MARK, BINGET, M.action, BINGET, action);
      body.push(...entryRest(timeOf(i)), SETITEMS);
    }
  }
  body.push(APPENDS);
  return Uint8Array.from(body);
}

/** An entry's fields after its action: the same address, size, stream and stack every time. */
function entryRest(timeUs: number): number[] {
  return [
    BINGET,
    M.addr,
    ...long1(ADDRESS),
    BINGET,
    M.size,
    ...binint(SIZE),
    BINGET,
    M.stream,
    BININT1,
    0,
    BINGET,
    M.timeUs,
    ...long1(timeUs),
    BINGET,
    M.frames,
    BINGET,
    M.stack,
  ];
}
