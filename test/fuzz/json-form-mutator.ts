// The JSON form (what pytorch.org/memory_viz also accepts): a snapshot value (a seed decoded,
// tinySnapshot(), a generated one) written as json.dumps would, then made hostile in its values
// (container bombs `[{},{},…]` spliced into a list, nesting thousands deep, huge strings and keys,
// numbers JS cannot hold, duplicate and `__proto__` keys, the wrong types of the wrong-type
// mutator) and/or in its text (cut anywhere, bad UTF-8, UTF-16 with or without its BOM, a BOM in
// the middle, leading whitespace past the sniffing window, trailing data, JSON5-isms, a structural
// byte swapped), sometimes gzipped (`.json.gz`).

import { gzipSync } from 'node:zlib';
import { tinySnapshot } from '../support/hostile-files';
import { jsonTextOf } from './json-text';
import { ascii, concat, shown, splice, type Mutator, type MutatorContext } from './mutator-kit';
import { deepJson, RawValues, type DeepShape } from './raw-values';
import type { Obj } from './snapshot-generator';
import { applyWrongTypes, collectSlots, isPlainObject, snapshotValue } from './snapshot-value';

export const jsonForm: Mutator = (ctx) => {
  const { rng } = ctx;
  const value = snapshotValue(ctx);
  const raw = new RawValues();
  const notes: string[] = [];
  const roll = rng.below(10);
  if (roll < 3) notes.push('as json.dumps writes it');
  else if (roll < 5) notes.push(applyWrongTypes(rng, value.root, 4));
  else {
    const edits = rng.logInt(3);
    for (let i = 0; i < edits; i++) notes.push(valueEdit(ctx, value, raw));
  }
  const nonFinite = rng.chance(0.3) ? 'python' : 'null';
  let text = jsonTextOf(value.root, { nonFinite, maxChars: 4 * ctx.profile.maxGrowBytes });
  if (text === null) {
    // Shared objects written out in full grew past the limit: the smallest snapshot instead.
    let tiny: unknown = null;
    tinySnapshot((snapshot) => {
      tiny = snapshot;
    });
    text = jsonTextOf(tiny, { nonFinite, maxChars: Number.MAX_SAFE_INTEGER })!;
    notes.push('(too large as JSON: tinySnapshot() instead)');
  }
  if (nonFinite === 'python') notes.push('NaN/Infinity as Python writes them');
  const spliced = raw.spliceIntoJson(text, 4 * ctx.profile.maxGrowBytes);
  if (spliced === null) notes.push('(raw values too large: left out)');
  let bytes = ascii(spliced ?? text);
  if (rng.chance(0.45)) {
    const [edited, note] = textEdit(ctx, bytes);
    bytes = edited;
    notes.push(note);
  }
  if (rng.chance(0.08)) {
    bytes = gzipSync(bytes);
    notes.push('gzipped');
  }
  return {
    bytes,
    seed: `${value.seed} as JSON`,
    note: notes.filter((note) => note !== '').join('; '),
  };
};

// ---- value edits ----

const BOMB_ITEMS = ['{}', '[]', '{"action": "alloc"}', 'null', '0', '""', '[[]]', '{"a": []}'];
const RAW_NUMBERS = [
  '1e400',
  '-1e400',
  '1.0',
  '-0',
  '0.5',
  '1E2',
  '123456789012345678901234567890',
  '9007199254740993',
  '-9007199254740993',
  '1e-400',
  '0.1e-400',
  'NaN',
  'Infinity',
  '-Infinity',
];
const HOSTILE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'length', ''];

function valueEdit(ctx: MutatorContext, value: { root: unknown }, raw: RawValues): string {
  const { rng, profile } = ctx;
  const { slots } = collectSlots(value.root);
  const pickSlot = (test: (current: unknown) => boolean) => {
    const candidates = slots.filter((slot) =>
      test((slot.holder as Record<string | number, unknown>)[slot.key]),
    );
    return candidates.length > 0 ? rng.pick(candidates) : null;
  };
  const set = (slot: NonNullable<ReturnType<typeof pickSlot>>, item: unknown): void => {
    (slot.holder as Record<string | number, unknown>)[slot.key] = item;
  };
  // The top level in another shape (the last case) is rarer: it undoes the other edits.
  switch (Math.min(5, rng.below(11) >> 1)) {
    case 0: {
      // A container bomb: a list of n small containers, in place of a list or spliced into one.
      const item = rng.pick(BOMB_ITEMS);
      const count = rng.logInt(Math.max(1, Math.floor(profile.maxGrowBytes / (item.length + 2))));
      const bomb = `${item}, `.repeat(count - 1) + item;
      const list = pickSlot(Array.isArray);
      if (list === null) return 'no list for a bomb';
      const target = (list.holder as Record<string | number, unknown>)[list.key] as unknown[];
      if (rng.chance(0.5) || target.length === 0) {
        set(list, raw.add(`[${bomb}]`));
        return `${list.path} = [${item} x ${count}]`;
      }
      target.splice(rng.below(target.length + 1), 0, raw.add(bomb));
      return `${count} x ${item} spliced into ${list.path}`;
    }
    case 1: {
      // Nesting thousands deep, in place of any value, or around the whole snapshot.
      const shape = rng.pick<DeepShape>(['list', 'dict', 'list-of-dict']);
      const depth = rng.logInt(Math.min(profile.maxNesting, profile.maxGrowBytes >> 1));
      if (rng.chance(0.25)) {
        const inner = jsonTextOf(value.root, {
          nonFinite: 'null',
          maxChars: 4 * profile.maxGrowBytes,
        });
        if (inner === null) return 'too large to wrap';
        const spliced = raw.spliceIntoJson(inner, 4 * profile.maxGrowBytes);
        if (spliced === null) return 'too large to wrap';
        value.root = raw.add(`${'['.repeat(depth)}${spliced}${']'.repeat(depth)}`);
        return `the snapshot wrapped in ${depth} lists`;
      }
      const slot = slots.length > 0 ? rng.pick(slots) : null;
      if (slot === null) return 'nothing to nest';
      set(slot, raw.add(deepJson(shape, depth)));
      return `${slot.path} = ${shape} nested ${depth} deep`;
    }
    case 2: {
      // A huge string (or key): plain, escaped control characters, lone surrogates, emoji.
      const length = rng.logInt(profile.maxStringBytes);
      const [unit, label] = rng.pick<[string, string]>([
        ['x', 'x'],
        ['\u0000', 'NUL (escaped)'],
        ['\u001b[31m', 'terminal escapes'],
        ['\ud800', 'lone surrogates'],
        ['\u{1f600}', 'emoji'],
        ['\u2028', 'line separators'],
        ['\\', 'backslashes'],
        ['"', 'quotes'],
      ]);
      const text = unit.repeat(Math.max(1, Math.floor(length / unit.length)));
      if (rng.chance(0.3)) {
        const dicts = slots.filter((slot) => isPlainObject(slot.holder));
        if (dicts.length === 0) return 'no dict';
        const slot = rng.pick(dicts);
        const holder = slot.holder as Obj;
        holder[text] = holder[slot.key as string];
        return `a key of ${text.length} ${label} in ${slot.path}`;
      }
      const slot = pickSlot((current) => typeof current === 'string') ?? pickSlot(() => true);
      if (slot === null) return 'no string';
      set(slot, text);
      return `${slot.path} = ${text.length} x ${label}`;
    }
    case 3: {
      const slot = pickSlot((current) => typeof current === 'number');
      if (slot === null) return 'no number';
      const number = rng.pick(RAW_NUMBERS);
      set(slot, raw.add(number));
      return `${slot.path} = ${number}`;
    }
    case 4: {
      // Keys JS objects treat specially, or a key written twice.
      const dicts = slots.filter((slot) => isPlainObject(slot.holder));
      const holder: Obj | null = dicts.length > 0 ? (rng.pick(dicts).holder as Obj) : null;
      const target = holder === null || rng.chance(0.3) ? (value.root as Obj) : holder;
      if (!isPlainObject(target)) return 'no dict';
      if (rng.chance(0.5)) {
        const key = rng.pick(HOSTILE_KEYS);
        const item = rng.pick<unknown>([{ polluted: 1 }, [], 'x', 1, null, { segments: [] }]);
        Object.defineProperty(target, key, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        return `key ${shown(key)} = ${JSON.stringify(item)}`;
      }
      const keys = Object.keys(target);
      if (keys.length === 0) return 'an empty dict';
      const key = rng.pick(keys);
      target[raw.addKey(key)] = rng.pick<unknown>([null, [], {}, 0, 'x', [{}]]);
      return `key ${shown(key)} written twice`;
    }
    default: {
      // The top level in another shape.
      const [root, label] = rng.pick<[unknown, string]>([
        [[], '[]'],
        [{}, '{}'],
        [[value.root], '[snapshot]'],
        [
          isPlainObject(value.root) && Array.isArray(value.root.segments)
            ? value.root.segments
            : [],
          'the bare segment list',
        ],
        [{ segments: null, device_traces: null }, 'segments and traces null'],
        [{ device_traces: {} }, 'device_traces a dict'],
      ]);
      value.root = root;
      return `top level: ${label}`;
    }
  }
}

// ---- text edits ----

function indexOfChar(bytes: Uint8Array, chars: string, from: number): number {
  for (let i = from; i < bytes.length; i++)
    if (chars.includes(String.fromCharCode(bytes[i]!))) return i;
  for (let i = 0; i < from && i < bytes.length; i++)
    if (chars.includes(String.fromCharCode(bytes[i]!))) return i;
  return -1;
}

function utf16(bytes: Uint8Array, bigEndian: boolean): Uint8Array {
  const units = Buffer.from(new TextDecoder().decode(bytes), 'utf16le');
  if (bigEndian) units.swap16();
  return new Uint8Array(units);
}

function textEdit(ctx: MutatorContext, bytes: Uint8Array): [Uint8Array, string] {
  const { rng } = ctx;
  const at = rng.below(bytes.length + 1);
  switch (rng.below(8)) {
    case 0:
      return [bytes.slice(0, at), `cut at ${at} of ${bytes.length}`];
    case 1: {
      // Bad UTF-8 inside a string.
      const quote = indexOfChar(bytes, '"', at);
      const bad = rng.pick([
        Uint8Array.of(0xff),
        Uint8Array.of(0xc0, 0x80),
        Uint8Array.of(0x80),
        Uint8Array.of(0xed, 0xa0, 0x80),
        Uint8Array.of(0xf4, 0x90, 0x80, 0x80),
        Uint8Array.of(0xe2, 0x82),
        Uint8Array.of(0xfe, 0xff),
      ]);
      const where = quote < 0 ? at : quote + 1;
      return [splice(bytes, where, 0, bad), `bad UTF-8 ${hexBytes(bad)} @${where}`];
    }
    case 2: {
      const [bom, label] = rng.pick<[Uint8Array, string]>([
        [Uint8Array.of(0xef, 0xbb, 0xbf), 'UTF-8 BOM'],
        [Uint8Array.of(0xff, 0xfe), 'UTF-16LE'],
        [Uint8Array.of(0xfe, 0xff), 'UTF-16BE'],
        [new Uint8Array(0), 'UTF-16LE without a BOM'],
        [Uint8Array.of(0xff, 0xfe, 0, 0), 'UTF-32LE BOM'],
      ]);
      if (label === 'UTF-8 BOM') {
        return rng.chance(0.5)
          ? [concat(bom, bom, bytes), 'two UTF-8 BOMs']
          : [splice(bytes, at, 0, bom), `a UTF-8 BOM @${at}`];
      }
      if (label === 'UTF-32LE BOM') return [concat(bom, bytes), label];
      return [concat(bom, utf16(bytes, label === 'UTF-16BE')), label];
    }
    case 3: {
      const count = rng.pick([
        1,
        100,
        4095,
        4096,
        4097,
        65_536,
        rng.logInt(ctx.profile.maxGrowBytes),
      ]);
      const space = ascii(rng.pick([' ', '\n', '\t', '\r\n']).repeat(count));
      return rng.chance(0.7)
        ? [concat(space, bytes), `${count} whitespace before`]
        : [concat(bytes, space), `${count} whitespace after`];
    }
    case 4: {
      const [tail, label] = rng.pick<[Uint8Array, string]>([
        [ascii('garbage'), 'garbage'],
        [ascii('{}'), 'a second value'],
        [ascii(','), 'a comma'],
        [new Uint8Array(rng.logInt(4096)), 'NUL padding'],
        [bytes.slice(0, Math.min(bytes.length, 1 << 16)), 'the text again'],
      ]);
      return [concat(bytes, tail), `+ ${label}`];
    }
    case 5: {
      // JSON5-isms: a trailing comma, a comment, single quotes.
      const closer = indexOfChar(bytes, ']}', at);
      const [insert, where, label] = rng.pick<[Uint8Array, number, string]>([
        [ascii(','), closer < 0 ? at : closer, 'a trailing comma'],
        [ascii('// comment\n'), 0, 'a comment first'],
        [ascii('/* comment */'), closer < 0 ? at : closer, 'a block comment'],
      ]);
      if (rng.chance(0.3)) {
        const quoted = bytes.slice();
        for (let i = 0; i < quoted.length; i++) if (quoted[i] === 0x22) quoted[i] = 0x27;
        return [quoted, 'single quotes'];
      }
      return [splice(bytes, where, 0, insert), `${label} @${where}`];
    }
    case 6: {
      // A structural byte swapped or dropped.
      const structural = indexOfChar(bytes, '{}[]:,"', at);
      if (structural < 0) return [bytes, 'no structural byte'];
      const old = String.fromCharCode(bytes[structural]!);
      const replacement = rng.pick(['', '{', '[', '}', ']', ':', ',', '"', "'"]);
      return [
        splice(bytes, structural, 1, ascii(replacement)),
        `${shown(old)} -> ${shown(replacement)} @${structural}`,
      ];
    }
    default: {
      // A raw control character inside a string (JSON allows them only escaped).
      const quote = indexOfChar(bytes, '"', at);
      const where = quote < 0 ? at : quote + 1;
      const control = rng.pick([0x00, 0x01, 0x0a, 0x1b, 0x7f]);
      return [splice(bytes, where, 0, Uint8Array.of(control)), `raw ${hex(control)} @${where}`];
    }
  }
}

function hex(byte: number): string {
  return `0x${byte.toString(16).padStart(2, '0')}`;
}

function hexBytes(bytes: Uint8Array): string {
  return Array.from(bytes, hex).join(' ');
}
