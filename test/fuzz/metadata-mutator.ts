// user_metadata (torch.cuda.memory._set_memory_metadata: text, or a dict stored as compact JSON)
// made hostile: JSON text nested thousands deep or with thousands of keys, `__proto__` keys, long
// text with control characters, text that starts like JSON and is not; and values that are not
// text at all (a list or dict nested thousands deep, written as raw pickle opcodes or JSON). Set on
// allocations (so the details, the metadata grouping and the top table meet them), on `annotate`
// entries naming a live block, and in internal_metadata, compile_context and category.

import { jsonTextOf } from './json-text';
import { ascii, shown, type Mutator } from './mutator-kit';
import type { Prng } from './prng';
import { deepJson, deepPickle, RawValues, type DeepShape } from './raw-values';
import type { Obj } from './snapshot-generator';
import { isPlainObject, snapshotValue, traceListsOf } from './snapshot-value';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import type { PickleValue } from '../../generators/pickle/pickle-values';

/** A hostile user_metadata value, and what it is. */
function metadataValue(
  rng: Prng,
  raw: RawValues,
  maxBytes: number,
  maxNesting: number,
): [unknown, string] {
  const depth = rng.logInt(Math.min(maxNesting, maxBytes >> 1));
  switch (rng.below(9)) {
    case 0:
    case 1: {
      const shape = rng.pick<DeepShape>(['list', 'dict', 'list-of-dict']);
      return [deepJson(shape, depth), `JSON text: ${shape} nested ${depth} deep`];
    }
    case 2: {
      const keys = rng.logInt(Math.max(1, Math.floor(maxBytes / 12)));
      const text = `{${Array.from({ length: keys }, (_v, i) => `"k${i}":${i}`).join(',')}}`;
      return [text, `JSON text with ${keys} keys`];
    }
    case 3:
      return [
        rng.pick([
          '{"__proto__": {"polluted": true}}',
          '{"constructor": {"prototype": {"x": 1}}}',
          '{"toString": 1, "valueOf": 2}',
          '[{"__proto__": []}]',
        ]),
        'JSON text with special keys',
      ];
    case 4: {
      const unit = rng.pick([
        'x',
        'line\n',
        '\u001b[2J\u001b[31m',
        '\r',
        '\u0000',
        '\u009b',
        'é',
        '\u{1f600}',
      ]);
      const length = rng.logInt(maxBytes);
      return [
        unit.repeat(Math.max(1, Math.floor(length / unit.length))),
        `text of ${length} x ${shown(unit)}`,
      ];
    }
    case 5: {
      // Starts like JSON, is not: parsed and refused by JSON.parse every time it is shown.
      const open = rng.pick(['{', '[', '"', '-', '1', 't', 'n']);
      return [open.repeat(rng.logInt(maxBytes)), `${shown(open)} repeated (not JSON)`];
    }
    case 6:
    case 7: {
      // Not text: a container nested thousands deep (raw opcodes: the writer would recurse).
      const shape = rng.pick<DeepShape>(['list', 'dict', 'list-of-dict']);
      return [
        raw.add(deepJson(shape, depth), deepPickle(shape, depth)),
        `a ${shape} nested ${depth} deep (not text)`,
      ];
    }
    default:
      return [
        rng.pick<unknown>([{ step: 1, tags: ['a', 'b'] }, ['x'], 1, 1.5, true, null]),
        'a value that is not text',
      ];
  }
}

export const userMetadata: Mutator = (ctx) => {
  const { rng, profile } = ctx;
  const value = snapshotValue(ctx);
  const raw = new RawValues();
  const entries = traceListsOf(value.root).flat().filter(isPlainObject);
  const allocs = entries.filter((entry) => entry.action === 'alloc');
  const notes: string[] = [];
  const rounds = rng.logInt(3);
  for (let i = 0; i < rounds; i++) {
    const [metadata, label] = metadataValue(rng, raw, profile.maxStringBytes, profile.maxNesting);
    const field = rng.pick([
      'user_metadata',
      'user_metadata',
      'user_metadata',
      'internal_metadata',
      'compile_context',
      'category',
    ]);
    const targets = allocs.length > 0 ? allocs : entries;
    if (targets.length === 0) {
      notes.push('no trace entry');
      break;
    }
    const where = rng.below(3);
    if (where === 0) {
      for (const entry of targets) entry[field] = metadata;
      notes.push(`${field} of every allocation: ${label}`);
    } else if (where === 1) {
      rng.pick(targets)[field] = metadata;
      notes.push(`${field} of one allocation: ${label}`);
    } else {
      // An annotate entry naming an allocation (the details list it).
      const target = rng.pick(targets);
      const lists = traceListsOf(value.root);
      const list = lists.find((candidate) => candidate.includes(target)) ?? lists[0]!;
      list.push({
        action: 'annotate',
        addr: target.addr ?? 0,
        size: 0,
        stream: 0,
        time_us: typeof target.time_us === 'number' ? target.time_us + 1 : 1,
        frames: target.frames ?? [],
        user_metadata: metadata,
      } satisfies Obj);
      notes.push(`an annotate entry: ${label}`);
    }
  }
  if (rng.chance(0.25)) {
    const text = jsonTextOf(value.root, { nonFinite: 'null', maxChars: 4 * profile.maxGrowBytes });
    const spliced = text === null ? null : raw.spliceIntoJson(text, 4 * profile.maxGrowBytes);
    if (spliced !== null) {
      return { bytes: ascii(spliced), seed: `${value.seed} as JSON`, note: notes.join('; ') };
    }
  }
  const bytes = dumpToBytes(value.root as PickleValue, { protocol: value.protocol });
  return { bytes: raw.spliceIntoPickle(bytes), seed: value.seed, note: notes.join('; ') };
};
