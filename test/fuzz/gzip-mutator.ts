// gzip members and trailers: a snapshot (a seed as it is, or another mutator's case) cut into
// several members, empty members between them, a trailer with a wrong CRC-32 or ISIZE or cut
// short, trailing zeros, garbage or half a member after the last one, header fields (FEXTRA,
// FNAME, FCOMMENT, FHCRC, reserved bits, another method) set at will, and high-ratio members that
// inflate to up to profile.maxInflatedBytes from ~1/1000 of that (zeros, `N0` pairs inside a
// pickle, `]a` container pairs, JSON whitespace and `{},` bombs).

import { gzipSync } from 'node:zlib';
import { Op } from '../../src/shared/pickle/opcodes';
import {
  deflated,
  gzipHeader,
  gzipTrailer,
  highRatio,
  PLAIN_HEADER,
  type GzipHeader,
  type Inflating,
} from './gzip-build';
import {
  ascii,
  concat,
  pickSeed,
  type Mutation,
  type Mutator,
  type MutatorContext,
} from './mutator-kit';

/** Mutators whose cases go inside the members (not the containers themselves). */
const INNER = [
  'byte-flip',
  'truncate',
  'wrong-type',
  'json-form',
  'frame-labels',
  'user-metadata',
  'devices',
];

function member(body: Inflating, header: GzipHeader = PLAIN_HEADER): Uint8Array {
  return concat(gzipHeader(header), body.deflated, gzipTrailer(body.crc, body.size));
}

function payloadOf(ctx: MutatorContext): Mutation {
  if (ctx.rng.chance(0.6)) {
    const seed = pickSeed(ctx);
    return { bytes: seed.bytes, seed: seed.name, note: 'valid' };
  }
  return ctx.inner(INNER);
}

export const gzipMembers: Mutator = (ctx) => {
  const { rng } = ctx;
  if (rng.chance(0.3)) return bomb(ctx);
  const inner = payloadOf(ctx);
  const data = inner.bytes;
  let out: Uint8Array;
  let note: string;
  switch (rng.below(5)) {
    case 0: {
      // Several members (gzip -c a b > c), some of them empty.
      const count = rng.chance(0.1) ? rng.logInt(2000) : rng.int(2, 8);
      const cuts = Array.from({ length: count - 1 }, () => rng.below(data.length + 1)).sort(
        (a, b) => a - b,
      );
      const parts: Uint8Array[] = [];
      let from = 0;
      for (const cut of [...cuts, data.length]) {
        parts.push(gzipSync(data.subarray(from, cut)));
        if (rng.chance(0.1)) parts.push(gzipSync(new Uint8Array(0)));
        from = cut;
      }
      out = concat(...parts);
      note = `${count} members`;
      break;
    }
    case 1: {
      // The trailer: CRC-32 or ISIZE wrong, cut short, or missing.
      const body = deflated(data);
      const how = rng.below(5);
      const crc = how === 0 ? body.crc ^ (1 << rng.below(32)) : body.crc;
      const size =
        how === 1 ? rng.pick([0, body.size + 1, body.size - 1, 2 ** 32 - 1, 2 ** 31]) : body.size;
      const whole = concat(gzipHeader(PLAIN_HEADER), body.deflated, gzipTrailer(crc, size));
      const cut = how === 2 ? rng.int(1, 7) : how === 3 ? 8 : 0;
      out = whole.subarray(0, whole.length - cut);
      note = [
        'wrong CRC-32',
        `ISIZE ${size} (is ${body.size})`,
        `trailer cut by ${cut}`,
        'no trailer',
        'valid',
      ][how]!;
      if (how === 4) out = concat(out, member(deflated(new Uint8Array(0))));
      break;
    }
    case 2: {
      // What follows the last member.
      const [tail, label] = rng.pick<[Uint8Array, string]>([
        [new Uint8Array(rng.logInt(ctx.profile.maxGrowBytes)), 'zeros'],
        [new Uint8Array(rng.int(1, 7)), 'a few zeros'],
        [ascii('garbage'), 'garbage'],
        [Uint8Array.of(0x1f), 'one byte of a magic'],
        [Uint8Array.of(0x1f, 0x8b, 8, 0), 'a header cut short'],
        [gzipSync(data).subarray(0, rng.int(10, 40)), 'half a member'],
        [gzipSync(ascii('not a snapshot')), 'a member of something else'],
        [rng.bytes(rng.logInt(4096)), 'random bytes'],
      ]);
      out = concat(gzipSync(data), tail);
      note = `+ ${tail.length} bytes of ${label}`;
      break;
    }
    case 3: {
      // Header fields.
      const header: GzipHeader = { ...PLAIN_HEADER };
      const labels: string[] = [];
      const text = (length: number, terminated: boolean): Uint8Array =>
        concat(ascii('n'.repeat(length)), terminated ? Uint8Array.of(0) : new Uint8Array(0));
      switch (rng.below(6)) {
        case 0:
          header.flags |= 4;
          header.extra = new Uint8Array(rng.pick([0, 4, 65_535]));
          labels.push(`FEXTRA of ${header.extra.length}`);
          break;
        case 1: {
          header.flags |= 8;
          const terminated = rng.chance(0.8);
          header.name = text(rng.logInt(1 << 20), terminated);
          labels.push(`FNAME of ${header.name.length}${terminated ? '' : ' without its NUL'}`);
          break;
        }
        case 2:
          header.flags |= 16;
          header.comment = text(rng.logInt(1 << 16), true);
          labels.push(`FCOMMENT of ${header.comment.length}`);
          break;
        case 3:
          header.flags |= 2;
          header.headerCrc = rng.chance(0.5) ? null : rng.below(65_536);
          labels.push(header.headerCrc === null ? 'FHCRC' : 'a wrong FHCRC');
          break;
        case 4:
          header.flags |= rng.pick([0x20, 0x40, 0x80]);
          labels.push(`reserved flag 0x${header.flags.toString(16)}`);
          break;
        default:
          header.method = rng.pick([0, 7, 9, 255]);
          labels.push(`method ${header.method}`);
      }
      out = member(deflated(data), header);
      note = labels.join(', ');
      break;
    }
    default: {
      // A member cut anywhere, or gzip in gzip in gzip.
      if (rng.chance(0.5)) {
        const whole = gzipSync(data);
        const cut = rng.below(whole.length);
        out = whole.subarray(0, cut);
        note = `cut at ${cut} of ${whole.length}`;
      } else {
        const depth = rng.int(2, 4);
        out = data;
        for (let i = 0; i < depth; i++) out = gzipSync(out);
        note = `gzip x ${depth}`;
      }
    }
  }
  return { ...inner, bytes: out, note: `${note} (${inner.note})` };
};

/** Patterns a high-ratio member repeats, with what comes before and after them. */
function bombParts(ctx: MutatorContext): {
  prefix: Uint8Array;
  pattern: Uint8Array;
  suffix: Uint8Array;
  label: string;
} {
  const { rng } = ctx;
  const seed = pickSeed(ctx);
  const pickle = seed.bytes[0] === 0x80;
  switch (rng.below(6)) {
    case 0:
      // The HTML export's NUL padding after STOP, grown: nothing past STOP needs reading.
      return {
        prefix: seed.bytes,
        pattern: Uint8Array.of(0),
        suffix: new Uint8Array(0),
        label: `${seed.name} + zeros`,
      };
    case 1:
      // NONE POP pairs before a snapshot's first opcode: valid, bounded stack, all of it to read.
      return {
        prefix: Uint8Array.of(Op.PROTO, 4),
        pattern: Uint8Array.of(Op.NONE, Op.POP),
        suffix: pickle ? seed.bytes.subarray(2) : Uint8Array.of(Op.NONE, Op.STOP),
        label: 'NONE POP pairs',
      };
    case 2:
      // [[], [], ...]: two bytes per container.
      return {
        prefix: Uint8Array.of(Op.PROTO, 4, Op.EMPTY_LIST),
        pattern: Uint8Array.of(Op.EMPTY_LIST, Op.APPEND),
        suffix: Uint8Array.of(Op.STOP),
        label: 'EMPTY_LIST APPEND pairs',
      };
    case 3:
      return {
        prefix: ascii('{"segments": [], "device_traces": ['),
        pattern: ascii(' '),
        suffix: ascii(']}'),
        label: 'JSON whitespace',
      };
    case 4:
      return {
        prefix: ascii('{"segments": [], "device_traces": [['),
        pattern: ascii('{}, '),
        suffix: ascii('{}]]}'),
        label: 'JSON {} bomb',
      };
    default:
      return {
        prefix: ascii('{"segments": ['),
        pattern: ascii('[], '),
        suffix: ascii('[]], "device_traces": []}'),
        label: 'JSON [] bomb',
      };
  }
}

function bomb(ctx: MutatorContext): Mutation {
  const { rng, profile } = ctx;
  const parts = bombParts(ctx);
  const bytes = Math.max(1 << 20, rng.logInt(profile.maxInflatedBytes));
  const body = highRatio(parts.prefix, parts.pattern, bytes, parts.suffix);
  const wrongSize = rng.chance(0.2);
  const out = concat(
    gzipHeader(PLAIN_HEADER),
    body.deflated,
    gzipTrailer(body.crc, wrongSize ? rng.below(2 ** 32) : body.size),
  );
  return {
    bytes: out,
    seed: parts.label,
    note: `a member inflating to ${body.size} bytes from ${out.length}${wrongSize ? ' (ISIZE wrong)' : ''}`,
  };
}
