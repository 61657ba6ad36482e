// Structure-aware mutators: each turns a seed (a real or generated snapshot) into a hostile input,
// deterministically from the PRNG it is given. Byte-level ones aim at the pickle's opcodes (found
// by pickle-scan.ts): length prefixes, memo indices, opcode boundaries. The wrong-type mutator
// works one level up, on the snapshot as a JS value written with the test pickle writer. The
// JSON form, gzip members, the HTML page, frame names, user_metadata and devices have a file
// each (json-form-mutator.ts, gzip-mutator.ts, ...); the registry below lists them all.

import { gzipSync } from 'node:zlib';
import { CODE_LOADING_OPCODES, Op } from '../../src/shared/pickle/opcodes';
import { KNOWN_ACTIONS } from '../../src/shared/snapshot/model';
import {
  ascii,
  concat,
  littleEndian,
  pickSeed,
  repeat,
  splice,
  type FuzzProfile,
  type Mutation,
  type Mutator,
  type MutatorContext,
  type Seed,
} from './mutator-kit';
import { devices } from './device-mutator';
import { gzipMembers } from './gzip-mutator';
import { htmlWrapper } from './html-mutator';
import { jsonForm } from './json-form-mutator';
import { frameLabels } from './label-mutator';
import { userMetadata } from './metadata-mutator';
import { opcodeBoundaries, scanPickle, type PickleScan, type ScannedOp } from './pickle-scan';
import { caseSeed, Prng } from './prng';
import type { Obj } from './snapshot-generator';
import {
  applyWrongTypes,
  collectSlots,
  dumpValue,
  isPlainObject,
  snapshotValue,
  traceListsOf,
} from './snapshot-value';

export type { FuzzProfile, Mutation, Seed } from './mutator-kit';
export { LONG_PROFILE, QUICK_PROFILE } from './mutator-kit';

const CODE_LOADING: readonly { name: string; bytes: Uint8Array }[] = [
  { name: 'GLOBAL', bytes: ascii('cos\nsystem\n') },
  { name: 'STACK_GLOBAL', bytes: Uint8Array.of(0x93) },
  { name: 'REDUCE', bytes: Uint8Array.of(0x52) },
  { name: 'BUILD', bytes: Uint8Array.of(0x62) },
  { name: 'NEWOBJ', bytes: Uint8Array.of(0x81) },
  { name: 'NEWOBJ_EX', bytes: Uint8Array.of(0x92) },
  { name: 'INST', bytes: ascii('ios\nsystem\n') },
  { name: 'OBJ', bytes: Uint8Array.of(0x6f) },
  { name: 'PERSID', bytes: ascii('P0\n') },
  { name: 'BINPERSID', bytes: Uint8Array.of(0x51) },
  { name: 'EXT1', bytes: Uint8Array.of(0x82, 1) },
  { name: 'EXT2', bytes: Uint8Array.of(0x83, 1, 0) },
  { name: 'EXT4', bytes: Uint8Array.of(0x84, 1, 0, 0, 0) },
];

/** Opcode names of the code-loading opcodes a case inserts (the oracle checks they are refused). */
export const CODE_LOADING_NAMES: readonly string[] = CODE_LOADING.map((entry) => entry.name);

const LENGTH_OPCODES: readonly { op: number; width: 1 | 4 | 8; name: string }[] = [
  { op: Op.SHORT_BINUNICODE, width: 1, name: 'SHORT_BINUNICODE' },
  { op: Op.BINUNICODE, width: 4, name: 'BINUNICODE' },
  { op: Op.BINUNICODE8, width: 8, name: 'BINUNICODE8' },
  { op: Op.SHORT_BINBYTES, width: 1, name: 'SHORT_BINBYTES' },
  { op: Op.BINBYTES, width: 4, name: 'BINBYTES' },
  { op: Op.BINBYTES8, width: 8, name: 'BINBYTES8' },
  { op: Op.BYTEARRAY8, width: 8, name: 'BYTEARRAY8' },
  { op: Op.LONG1, width: 1, name: 'LONG1' },
  { op: Op.LONG4, width: 4, name: 'LONG4' },
  { op: Op.FRAME, width: 8, name: 'FRAME' },
];

const INTERESTING_BYTES = [
  0x00,
  0x01,
  0x7f,
  0x80,
  0xff,
  0xfe,
  Op.MARK,
  Op.STOP,
  Op.EMPTY_DICT,
  Op.EMPTY_LIST,
  Op.SETITEMS,
  Op.APPENDS,
  Op.MEMOIZE,
  Op.BINGET,
  Op.LONG_BINGET,
  Op.NONE,
  Op.TUPLE2,
  Op.POP,
  Op.DUP,
];

// Scans are cached per seed: seeds are few and scanned many times.
const scans = new WeakMap<Uint8Array, PickleScan>();
function scanOf(bytes: Uint8Array): PickleScan {
  let scan = scans.get(bytes);
  if (scan === undefined) {
    scan = scanPickle(bytes);
    scans.set(bytes, scan);
  }
  return scan;
}

/** An opcode boundary of the seed (before STOP), or a random offset when the scan found none. */
function boundary(ctx: MutatorContext, bytes: Uint8Array): number {
  const scan = scanOf(bytes);
  const offsets = opcodeBoundaries(scan);
  if (offsets.length === 0 || ctx.rng.chance(0.05)) return ctx.rng.int(0, bytes.length);
  return ctx.rng.pick(offsets);
}

function opsOf(bytes: Uint8Array, filter: (op: ScannedOp) => boolean): ScannedOp[] {
  return scanOf(bytes).ops.filter(filter);
}

// ---- the mutators ----

const byteFlip: Mutator = (ctx) => {
  const { rng } = ctx;
  const seed = pickSeed(ctx);
  const bytes = seed.bytes.slice();
  const flips = rng.logInt(16);
  const notes: string[] = [];
  for (let i = 0; i < flips; i++) {
    const at = rng.below(bytes.length);
    const old = bytes[at]!;
    switch (rng.below(3)) {
      case 0:
        bytes[at] = old ^ (1 << rng.below(8));
        break;
      case 1:
        bytes[at] = rng.below(256);
        break;
      default:
        bytes[at] = rng.pick(INTERESTING_BYTES);
    }
    if (notes.length < 4) notes.push(`@${at} ${hex(old)}->${hex(bytes[at]!)}`);
  }
  return { bytes, seed: seed.name, note: `${flips} byte(s) ${notes.join(' ')}` };
};

const truncate: Mutator = (ctx) => {
  const { rng } = ctx;
  const seed = pickSeed(ctx);
  const at = rng.chance(0.5)
    ? boundary(ctx, seed.bytes) + rng.int(0, 2)
    : rng.below(seed.bytes.length);
  let bytes = seed.bytes.subarray(0, Math.min(at, seed.bytes.length));
  let tail = '';
  switch (rng.below(4)) {
    case 0:
      bytes = concat(bytes, Uint8Array.of(Op.STOP));
      tail = ' + STOP';
      break;
    case 1:
      bytes = concat(bytes, new Uint8Array(rng.int(1, 4096)));
      tail = ' + NUL padding';
      break;
    default:
      bytes = bytes.slice();
  }
  return { bytes, seed: seed.name, note: `cut at ${at} of ${seed.bytes.length}${tail}` };
};

const duplicateChunk: Mutator = (ctx) => {
  const { rng } = ctx;
  const seed = pickSeed(ctx);
  let bytes = seed.bytes;
  const times = rng.logInt(3);
  const notes: string[] = [];
  for (let t = 0; t < times; t++) {
    const aligned = rng.chance(0.6);
    const from = aligned ? boundary(ctx, seed.bytes) : rng.below(bytes.length);
    const length = Math.min(rng.logInt(Math.min(bytes.length, 1 << 16)), bytes.length - from);
    const chunk = bytes.slice(from, from + Math.max(1, length));
    const copies = rng.chance(0.2)
      ? rng.logInt(Math.max(1, Math.floor(ctx.profile.maxGrowBytes / chunk.length)))
      : 1;
    const to = aligned ? boundary(ctx, seed.bytes) : rng.below(bytes.length + 1);
    bytes = splice(bytes, Math.min(to, bytes.length), 0, repeat(chunk, copies));
    notes.push(`[${from}+${chunk.length}]x${copies}@${to}`);
  }
  return { bytes, seed: seed.name, note: notes.join(' ') };
};

function hugeLengthValue(rng: Prng, width: 1 | 4 | 8, current: number, fileLength: number): bigint {
  const choices: bigint[] =
    width === 1
      ? [0xffn, 0x80n, 0n, BigInt(current + 1)]
      : width === 4
        ? [
            0xffffffffn,
            0x7fffffffn,
            0x80000000n,
            BigInt(fileLength),
            BigInt(current + 1),
            1n << 30n,
          ]
        : [
            0xffffffffffffffffn,
            1n << 63n,
            1n << 53n,
            (1n << 53n) - 1n,
            1n << 40n,
            0xffffffffn,
            BigInt(fileLength),
            BigInt(current + 1),
          ];
  return rng.pick(choices);
}

const hugeLength: Mutator = (ctx) => {
  const { rng } = ctx;
  const seed = pickSeed(ctx);
  const sized = opsOf(seed.bytes, (op) => op.lengthField !== null || op.op === Op.FRAME);
  if (sized.length > 0 && rng.chance(0.6)) {
    const target = rng.pick(sized);
    const field = target.lengthField ?? { at: target.offset + 1, width: 8 as const };
    const current = target.end - field.at - field.width;
    const value = hugeLengthValue(rng, field.width, current, seed.bytes.length);
    const bytes = seed.bytes.slice();
    bytes.set(littleEndian(value, field.width), field.at);
    return {
      bytes,
      seed: seed.name,
      note: `${opName(target.op)}@${target.offset} length ${current} -> ${value}`,
    };
  }
  // Insert a length-prefixed opcode the seed may not have, declaring a huge payload.
  const kind = rng.pick(LENGTH_OPCODES);
  const value = hugeLengthValue(rng, kind.width, 0, seed.bytes.length);
  const payload = rng.chance(0.5)
    ? new Uint8Array(rng.logInt(1 << 16)).fill(0x61)
    : new Uint8Array(0);
  const at = boundary(ctx, seed.bytes);
  const inserted = concat(Uint8Array.of(kind.op), littleEndian(value, kind.width), payload);
  return {
    bytes: splice(seed.bytes, at, 0, inserted),
    seed: seed.name,
    note: `inserted ${kind.name} declaring ${value} (+${payload.length} bytes) @${at}`,
  };
};

const memoIndex: Mutator = (ctx) => {
  const { rng } = ctx;
  const seed = pickSeed(ctx);
  const scan = scanOf(seed.bytes);
  const memoOps = scan.ops.filter((op) =>
    [Op.BINGET, Op.LONG_BINGET, Op.BINPUT, Op.LONG_BINPUT, Op.MEMOIZE].includes(op.op as never),
  );
  const target = memoOps.length > 0 ? rng.pick(memoOps) : null;
  const memoSize = target?.memoBefore ?? scan.memoCount;
  const inRange = memoSize > 0 ? rng.below(memoSize) : 0;
  const index = rng.pick([
    memoSize,
    memoSize + 1,
    memoSize + rng.logInt(1 << 20),
    255,
    256,
    0x7fffffff,
    0x80000000,
    0xffffffff,
    inRange,
    inRange,
    inRange,
    0,
  ]);
  const get = rng.chance(0.6);
  const op =
    index < 256 && rng.chance(0.7)
      ? get
        ? Op.BINGET
        : Op.BINPUT
      : get
        ? Op.LONG_BINGET
        : Op.LONG_BINPUT;
  const encoded = concat(
    Uint8Array.of(op),
    littleEndian(BigInt(index), op === Op.BINGET || op === Op.BINPUT ? 1 : 4),
  );
  if (target !== null && rng.chance(0.7)) {
    // Replace an existing memo opcode (a GET becomes a GET of another index, a PUT a PUT...).
    const replacement =
      target.op === Op.MEMOIZE && get ? concat(Uint8Array.of(Op.MEMOIZE), encoded) : encoded;
    return {
      bytes: splice(seed.bytes, target.offset, target.end - target.offset, replacement),
      seed: seed.name,
      note: `${opName(target.op)}@${target.offset} -> ${opName(op)} ${index} (memo size ${memoSize})`,
    };
  }
  const at = boundary(ctx, seed.bytes);
  return {
    bytes: splice(seed.bytes, at, 0, encoded),
    seed: seed.name,
    note: `inserted ${opName(op)} ${index} @${at} (memo size ${memoSize})`,
  };
};

const deepNesting: Mutator = (ctx) => {
  const { rng } = ctx;
  const seed = pickSeed(ctx);
  const depth = rng.logInt(ctx.profile.maxNesting);
  const at = boundary(ctx, seed.bytes);
  const stopAt = scanOf(seed.bytes).stopAt;
  let inserted: Uint8Array;
  let note: string;
  switch (rng.below(6)) {
    case 0:
      inserted = new Uint8Array(depth).fill(Op.MARK);
      note = `${depth} MARKs`;
      break;
    case 1: {
      // A valid nested list standing for one value: EMPTY_LIST x n, APPEND x (n - 1).
      inserted = concat(
        new Uint8Array(depth).fill(Op.EMPTY_LIST),
        new Uint8Array(depth - 1).fill(Op.APPEND),
      );
      note = `list nested ${depth} deep (EMPTY_LIST/APPEND)`;
      break;
    }
    case 2:
      inserted = concat(new Uint8Array(depth).fill(Op.MARK), new Uint8Array(depth).fill(Op.LIST));
      note = `list nested ${depth} deep (MARK/LIST)`;
      break;
    case 3:
      inserted = concat(
        new Uint8Array(depth).fill(Op.EMPTY_LIST),
        repeat(Uint8Array.of(Op.MEMOIZE), rng.chance(0.5) ? 0 : 1),
      );
      note = `${depth} EMPTY_LISTs left open`;
      break;
    case 4: {
      // Wrap the whole top-level value: [[[...snapshot...]]].
      if (stopAt > 2) {
        const head = seed.bytes.subarray(0, 2);
        const body = seed.bytes.subarray(2, stopAt);
        const bytes = concat(
          head,
          new Uint8Array(depth).fill(Op.EMPTY_LIST),
          body,
          new Uint8Array(depth).fill(Op.APPEND),
          seed.bytes.subarray(stopAt),
        );
        return { bytes, seed: seed.name, note: `top-level value wrapped in ${depth} lists` };
      }
      inserted = new Uint8Array(depth).fill(Op.MARK);
      note = `${depth} MARKs`;
      break;
    }
    default:
      inserted = repeat(Uint8Array.of(Op.MARK, Op.EMPTY_DICT), depth);
      note = `${depth} MARK EMPTY_DICT pairs`;
  }
  return { bytes: splice(seed.bytes, at, 0, inserted), seed: seed.name, note: `${note} @${at}` };
};

const codeLoading: Mutator = (ctx) => {
  const { rng } = ctx;
  const seed = pickSeed(ctx);
  const opcode = rng.pick(CODE_LOADING);
  const scan = scanOf(seed.bytes);
  const offsets = opcodeBoundaries(scan);
  const at = offsets.length > 0 ? rng.pick(offsets) : seed.bytes.length;
  const replaceable = scan.ops.find((op) => op.offset === at);
  const replace = replaceable !== undefined && replaceable.op !== Op.STOP && rng.chance(0.3);
  const bytes = splice(
    seed.bytes,
    at,
    replace ? replaceable.end - replaceable.offset : 0,
    opcode.bytes,
  );
  return {
    bytes,
    seed: seed.name,
    note: `${opcode.name} ${replace ? `replacing ${opName(replaceable.op)}` : 'inserted'} @${at}`,
    expectCodeLoadingRefused: offsets.length > 0,
  };
};

const numberValues: Mutator = (ctx) => {
  const { rng } = ctx;
  const seed = pickSeed(ctx);
  const numeric = opsOf(seed.bytes, (op) =>
    [Op.BININT, Op.BININT1, Op.BININT2, Op.LONG1, Op.BINFLOAT].includes(op.op as never),
  );
  if (numeric.length === 0) return byteFlip(ctx);
  const count = rng.logInt(4);
  let bytes = seed.bytes;
  const notes: string[] = [];
  // Replace from the last offset backwards so earlier offsets stay valid.
  const targets = Array.from({ length: count }, () => rng.pick(numeric)).sort(
    (a, b) => b.offset - a.offset,
  );
  let last = -1;
  for (const target of targets) {
    if (target.offset === last) continue;
    last = target.offset;
    const [encoded, label] = hostileNumber(rng);
    bytes = splice(bytes, target.offset, target.end - target.offset, encoded);
    notes.push(`${opName(target.op)}@${target.offset} -> ${label}`);
  }
  return { bytes, seed: seed.name, note: notes.join(' ') };
};

function hostileNumber(rng: Prng): [Uint8Array, string] {
  const float = (value: number, label: string): [Uint8Array, string] => {
    const out = new Uint8Array(9);
    out[0] = Op.BINFLOAT;
    new DataView(out.buffer).setFloat64(1, value, false);
    return [out, label];
  };
  const long = (value: bigint, label: string): [Uint8Array, string] => {
    let width = 1;
    while (width < 255 && BigInt.asIntN(width * 8, value) !== value) width++;
    return [concat(Uint8Array.of(Op.LONG1, width), littleEndian(value, width)), label];
  };
  switch (rng.below(14)) {
    case 0:
      return float(Number.NaN, 'NaN');
    case 1:
      return float(Number.POSITIVE_INFINITY, 'inf');
    case 2:
      return float(Number.NEGATIVE_INFINITY, '-inf');
    case 3:
      return float(-0, '-0.0');
    case 4:
      return float(rng.pick([0.5, 1.5, 1e300, 2 ** 53, -1e-300]), 'float');
    case 5:
      return [concat(Uint8Array.of(Op.BININT), littleEndian(-1n, 4)), 'BININT -1'];
    case 6:
      return [concat(Uint8Array.of(Op.BININT), littleEndian(-(2n ** 31n), 4)), 'BININT -2^31'];
    case 7:
      return long(2n ** 53n + 1n, '2^53+1');
    case 8:
      return long(2n ** 64n - 1n, '2^64-1');
    case 9:
      return long(-(2n ** 63n), '-2^63');
    case 10:
      return long(2n ** 1000n, '2^1000');
    case 11:
      return [Uint8Array.of(Op.LONG1, 0), 'LONG1 of 0 bytes'];
    case 12:
      return [Uint8Array.of(Op.NONE), 'None'];
    default:
      return [concat(Uint8Array.of(Op.SHORT_BINUNICODE, 1), ascii('7')), "'7'"];
  }
}

const stringSwap: Mutator = (ctx) => {
  const { rng } = ctx;
  const seed = pickSeed(ctx);
  const strings = opsOf(
    seed.bytes,
    (op) => op.op === Op.SHORT_BINUNICODE || op.op === Op.BINUNICODE,
  );
  if (strings.length === 0) return byteFlip(ctx);
  const target = rng.pick(strings);
  let replacement: Uint8Array;
  let label: string;
  switch (rng.below(4)) {
    case 0: {
      const other = rng.pick(strings);
      replacement = seed.bytes.slice(other.offset, other.end);
      label = `the string @${other.offset}`;
      break;
    }
    case 1: {
      const text = rng.pick([
        'alloc',
        'free_completed',
        'segment_alloc',
        'segment_map',
        'oom',
        'inactive',
        'active_allocated',
        'frames',
        'size',
        'addr',
        'action',
        'blocks',
        'segments',
        'device_traces',
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        'length',
        '',
      ]);
      const data = ascii(text);
      replacement = concat(Uint8Array.of(Op.SHORT_BINUNICODE, data.length), data);
      label = `'${text}'`;
      break;
    }
    case 2: {
      // Invalid UTF-8: a lone continuation byte, a truncated sequence, a surrogate.
      const data = rng.pick([
        Uint8Array.of(0x80),
        Uint8Array.of(0xe2, 0x82),
        Uint8Array.of(0xed, 0xa0, 0x80),
        Uint8Array.of(0xff, 0xfe),
      ]);
      replacement = concat(Uint8Array.of(Op.SHORT_BINUNICODE, data.length), data);
      label = 'invalid UTF-8';
      break;
    }
    default: {
      const data = new Uint8Array(rng.logInt(1 << 20)).fill(0x78);
      replacement = concat(
        Uint8Array.of(Op.BINUNICODE),
        littleEndian(BigInt(data.length), 4),
        data,
      );
      label = `a string of ${data.length} bytes`;
    }
  }
  return {
    bytes: splice(seed.bytes, target.offset, target.end - target.offset, replacement),
    seed: seed.name,
    note: `string @${target.offset} -> ${label}`,
  };
};

const opcodeSplice: Mutator = (ctx) => {
  const { rng } = ctx;
  const seed = pickSeed(ctx);
  const scan = scanOf(seed.bytes);
  const at = boundary(ctx, seed.bytes);
  const existing = scan.ops.find((op) => op.offset === at);
  switch (rng.below(3)) {
    case 0: {
      // Delete one opcode.
      if (existing === undefined) break;
      return {
        bytes: splice(
          seed.bytes,
          existing.offset,
          existing.end - existing.offset,
          new Uint8Array(0),
        ),
        seed: seed.name,
        note: `deleted ${opName(existing.op)}@${at}`,
      };
    }
    case 1: {
      // Move an opcode elsewhere.
      if (existing === undefined) break;
      const moved = seed.bytes.slice(existing.offset, existing.end);
      const removed = splice(
        seed.bytes,
        existing.offset,
        existing.end - existing.offset,
        new Uint8Array(0),
      );
      const to = rng.below(removed.length + 1);
      return {
        bytes: splice(removed, to, 0, moved),
        seed: seed.name,
        note: `moved ${opName(existing.op)}@${at} to ${to}`,
      };
    }
    default:
      break;
  }
  // Insert any byte value with a random argument.
  const op = rng.chance(0.5) ? rng.pick(INTERESTING_BYTES) : rng.below(256);
  const inserted = concat(Uint8Array.of(op), rng.bytes(rng.pick([0, 0, 1, 2, 4, 8])));
  return {
    bytes: splice(seed.bytes, at, 0, inserted),
    seed: seed.name,
    note: `inserted ${opName(op)} +${inserted.length - 1} arg bytes @${at}`,
  };
};

const crossover: Mutator = (ctx) => {
  const a = pickSeed(ctx);
  const b = pickSeed(ctx);
  const cutA = boundary(ctx, a.bytes);
  const cutB = boundary(ctx, b.bytes);
  return {
    bytes: concat(a.bytes.subarray(0, cutA), b.bytes.subarray(cutB)),
    seed: `${a.name} + ${b.name}`,
    note: `head of ${a.name} to ${cutA}, tail of ${b.name} from ${cutB}`,
  };
};

const container: Mutator = (ctx) => {
  const { rng } = ctx;
  // A mutated pickle (or a valid one) inside gzip or the HTML page of _memory_viz.
  let inner: Mutation;
  if (rng.chance(0.5)) {
    inner = pickMutator(rng, ['byte-flip', 'truncate', 'deep-nesting', 'huge-length'])(ctx);
  } else {
    const seed = pickSeed(ctx);
    inner = { bytes: seed.bytes, seed: seed.name, note: 'valid' };
  }
  switch (rng.below(5)) {
    case 0:
      return { ...inner, bytes: gzipSync(inner.bytes), note: `gzip(${inner.note})` };
    case 1: {
      const gz = gzipSync(inner.bytes);
      const cut = rng.below(gz.length);
      let corrupt: Uint8Array;
      if (rng.chance(0.5)) {
        corrupt = gz.subarray(0, cut);
      } else {
        corrupt = gz.slice();
        corrupt[cut] = corrupt[cut]! ^ (1 << rng.below(8));
      }
      return { ...inner, bytes: corrupt, note: `corrupt gzip @${cut} (${inner.note})` };
    }
    case 2: {
      const gz = gzipSync(inner.bytes);
      const [tail, label] = rng.pick<[Uint8Array, string]>([
        [gz, 'a second gzip member'],
        [new Uint8Array(rng.logInt(4096)), 'NUL padding'],
        [ascii('garbage'), 'garbage'],
        [new Uint8Array(0), 'nothing (double gzip)'],
      ]);
      if (tail.length === 0) {
        return { ...inner, bytes: gzipSync(gz), note: `gzip(gzip(${inner.note}))` };
      }
      const cut = rng.chance(0.3) ? gz.length - rng.int(1, 8) : gz.length;
      return {
        ...inner,
        bytes: concat(gz.subarray(0, cut), tail),
        note: `gzip(${inner.note})${cut < gz.length ? ` cut ${gz.length - cut} bytes into its trailer` : ''} + ${label}`,
      };
    }
    default: {
      let base64 = Buffer.from(inner.bytes).toString('base64');
      let how = 'html';
      if (rng.chance(0.3)) {
        const at = rng.below(base64.length);
        base64 =
          base64.slice(0, at) +
          rng.pick(['!', '=', ' ', '\n', '"', '', '====']) +
          base64.slice(at + 1);
        how = `html with base64 damaged @${at}`;
      }
      const page = `${rng.pick(['', '\ufeff', '  \n'])}<!DOCTYPE html>\n<html><body><script>\nconst local_files = [{"name": "s.pickle", ${rng.pick(['"base64"', '"base64" ', '"base64"\n'])}: "${base64}${rng.chance(0.1) ? '' : '"'}}];\n</script></body></html>\n`;
      return { ...inner, bytes: ascii(page), note: `${how}(${inner.note})` };
    }
  }
};

const wrongType: Mutator = (ctx) => {
  const value = snapshotValue(ctx);
  const note = applyWrongTypes(ctx.rng, value.root, value.protocol);
  return { bytes: dumpValue(value), seed: value.seed, note };
};

// ---- inconsistent content: every type right, the story wrong ----

const BYTE_VALUES = [
  0,
  1,
  511,
  512,
  2 ** 20,
  2 ** 20 + 1,
  2 ** 31 - 1,
  2 ** 32,
  2 ** 40,
  2 ** 50,
  2 ** 52 + 1,
  2 ** 53 - 1,
];
const NUMERIC_FIELDS = new Set([
  'addr',
  'address',
  'size',
  'total_size',
  'allocated_size',
  'active_size',
  'requested_size',
  'real_size',
  'device_free',
  'time_us',
  'stream',
  'device',
  'line',
  'max_split_size',
  'roundup_power2_divisions',
  'garbage_collection_threshold',
]);
const ACTIONS = [...KNOWN_ACTIONS, 'user_defined', 'future_action'];
const STATES = [
  'active_allocated',
  'active_pending_free',
  'active_awaiting_free',
  'inactive',
  'weird',
];

function inconsistentStep(rng: Prng, root: unknown): string {
  const { slots } = collectSlots(root);
  const traces = traceListsOf(root);
  const entries = traces.flat().filter(isPlainObject);
  switch (rng.below(9)) {
    case 0:
    case 1:
    case 2: {
      // A number field set to another valid number.
      const numeric = slots.filter(
        (slot) =>
          !Array.isArray(slot.holder) &&
          NUMERIC_FIELDS.has(String(slot.key)) &&
          typeof slot.holder[slot.key as string] === 'number',
      );
      if (numeric.length === 0) return 'no number field';
      const slot = rng.pick(numeric);
      const holder = slot.holder as Obj;
      const old = holder[slot.key as string] as number;
      const key = String(slot.key);
      const value =
        key === 'device'
          ? rng.pick([1, 3, 7, 255, 1000, 65_535, 2 ** 31 - 1])
          : key === 'roundup_power2_divisions'
            ? rng.pick([0, 1, 3, 64, 2 ** 31 - 1])
            : rng.chance(0.3)
              ? Math.max(0, old + rng.pick([-1, 1, -512, 512]))
              : rng.pick(BYTE_VALUES);
      holder[key] = value;
      return `${slot.path} ${old} -> ${value}`;
    }
    case 3: {
      if (entries.length === 0) return 'no trace entry';
      const entry = rng.pick(entries);
      const old = entry.action;
      entry.action = rng.pick(ACTIONS);
      if (entry.action === 'oom') delete entry.addr;
      return `an entry's action ${String(old)} -> ${String(entry.action)}`;
    }
    case 4: {
      // Reorder, repeat or drop trace entries.
      const list = traces.length > 0 ? rng.pick(traces) : null;
      if (list === null || list.length === 0) return 'no trace';
      const how = rng.below(4);
      if (how === 0) list.reverse();
      else if (how === 1) list.splice(rng.below(list.length), 1);
      else if (how === 2) {
        const entry = list[rng.below(list.length)]!;
        const copies = rng.logInt(1000);
        for (let i = 0; i < copies; i++) list.splice(rng.below(list.length + 1), 0, { ...entry });
        return `an entry repeated ${copies} times`;
      } else {
        for (let i = list.length - 1; i > 0; i--) {
          const j = rng.below(i + 1);
          [list[i], list[j]] = [list[j]!, list[i]!];
        }
      }
      return ['trace reversed', 'an entry dropped', '', 'trace shuffled'][how]!;
    }
    case 5: {
      // Entries moved to another device, possibly a far one.
      if (!isPlainObject(root) || entries.length === 0) return 'no trace';
      const lists = (root.device_traces ?? root.traces) as unknown[];
      const device = rng.pick([1, 2, 7, 63, 1000]);
      while (lists.length <= device) lists.push([]);
      const target = lists[device] as Obj[];
      const from = rng.pick(traces);
      const moved = from.splice(0, rng.int(1, Math.max(1, from.length)));
      target.push(...moved);
      return `${moved.length} entries moved to device ${device}`;
    }
    case 6: {
      const blocks = slots.filter((slot) => slot.category === 'block' && slot.key === 'state');
      if (blocks.length === 0) return 'no block';
      const slot = rng.pick(blocks);
      (slot.holder as Obj).state = rng.pick(STATES);
      return `${slot.path} = ${String((slot.holder as Obj).state)}`;
    }
    case 7: {
      // Settings the state reconstruction reads.
      if (!isPlainObject(root)) return 'no settings';
      const settings = (
        isPlainObject(root.allocator_settings) ? root.allocator_settings : {}
      ) as Obj;
      root.allocator_settings = settings;
      const key = rng.pick(['expandable_segments', 'roundup_power2_divisions', 'max_split_size']);
      settings[key] =
        key === 'expandable_segments'
          ? rng.chance(0.5)
          : key === 'roundup_power2_divisions'
            ? rng.pick<unknown>([
                0,
                1,
                16,
                2 ** 31 - 1,
                [],
                [1],
                Array.from({ length: 64 }, (_v, i) => i),
              ])
            : rng.pick([-1, 0, 1, 2 ** 20, 2 ** 53 - 1]);
      return `allocator_settings.${key} = ${JSON.stringify(settings[key])}`;
    }
    default: {
      // Segments and blocks shuffled, blocks moved between segments, segments dropped.
      if (!isPlainObject(root) || !Array.isArray(root.segments) || root.segments.length === 0)
        return 'no segments';
      const segments = root.segments as Obj[];
      const how = rng.below(3);
      if (how === 0) segments.reverse();
      else if (how === 1) segments.splice(rng.below(segments.length), 1);
      else {
        const from = rng.pick(segments);
        const to = rng.pick(segments);
        if (Array.isArray(from.blocks) && Array.isArray(to.blocks) && from.blocks.length > 0) {
          to.blocks.push(from.blocks.pop());
        }
      }
      return ['segments reversed', 'a segment dropped', 'a block moved to another segment'][how]!;
    }
  }
}

const inconsistent: Mutator = (ctx) => {
  const value = snapshotValue(ctx);
  const steps = ctx.rng.logInt(6);
  const notes: string[] = [];
  for (let i = 0; i < steps; i++) notes.push(inconsistentStep(ctx.rng, value.root));
  return { bytes: dumpValue(value), seed: value.seed, note: notes.join('; ') };
};

// ---- registry ----

export const MUTATORS = {
  'byte-flip': byteFlip,
  truncate,
  'duplicate-chunk': duplicateChunk,
  'huge-length': hugeLength,
  'memo-index': memoIndex,
  'deep-nesting': deepNesting,
  'code-loading': codeLoading,
  'wrong-type': wrongType,
  inconsistent,
  'number-values': numberValues,
  'string-swap': stringSwap,
  'opcode-splice': opcodeSplice,
  crossover,
  container,
  'json-form': jsonForm,
  'gzip-members': gzipMembers,
  'html-wrapper': htmlWrapper,
  'frame-labels': frameLabels,
  'user-metadata': userMetadata,
  devices,
} as const satisfies Record<string, Mutator>;

export type MutatorName = keyof typeof MUTATORS;
export const MUTATOR_NAMES = Object.keys(MUTATORS) as MutatorName[];

function pickMutator(rng: Prng, names: readonly MutatorName[]): Mutator {
  return MUTATORS[rng.pick(names)];
}

export interface FuzzCase extends Mutation {
  index: number;
  mutator: MutatorName;
}

/**
 * Case `index` of a run seeded with `runSeed`: the mutators take turns (so every class gets the
 * same share), and everything else comes from the case's own PRNG stream.
 */
export function makeCase(
  runSeed: number,
  index: number,
  seeds: readonly Seed[],
  profile: FuzzProfile,
  mutators: readonly MutatorName[] = MUTATOR_NAMES,
): FuzzCase {
  const mutator = mutators[index % mutators.length]!;
  const rng = new Prng(caseSeed(runSeed, index));
  const ctx: MutatorContext = {
    rng,
    seeds,
    profile,
    inner: (names) => MUTATORS[rng.pick(names) as MutatorName](ctx),
  };
  const mutation = MUTATORS[mutator](ctx);
  return { index, mutator, ...mutation };
}

// ---- names ----

const OP_NAMES = new Map<number, string>([
  ...Object.entries(Op).map(([name, op]) => [op, name] as [number, string]),
  ...CODE_LOADING_OPCODES,
]);

function opName(op: number): string {
  return OP_NAMES.get(op) ?? hex(op);
}

function hex(byte: number): string {
  return `0x${byte.toString(16).padStart(2, '0')}`;
}
