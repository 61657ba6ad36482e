// Values the writers cannot make, put into a snapshot value as placeholders and swapped in once it
// is written: a list nested 100,000 deep (the pickle writer and JSON.stringify recurse, and would
// overflow the stack long before the decoder does), `{},{},…` spliced into a JSON list, a number
// JSON can hold but JS cannot (1e400), a key written twice. Each placeholder is a string unique to
// its case; where the writer puts it (once: strings are memoized) is where the raw form goes.

import { Op } from '../../src/shared/pickle/opcodes';
import { ascii, concat, littleEndian, repeat } from './mutator-kit';

/** Raw forms by placeholder, for the pickle and for the JSON form. */
export class RawValues {
  readonly pickle = new Map<string, Uint8Array>();
  readonly json = new Map<string, string>();
  /** Keys written as another key (duplicate keys, `__proto__`) in the JSON form. */
  readonly jsonKeys = new Map<string, string>();
  private count = 0;

  /** A placeholder for a value written as `json` in the JSON form and `pickle` in the pickle. */
  add(json: string, pickle: Uint8Array | null = null): string {
    const placeholder = `@@raw-${this.count++}-${json.length}@@`;
    this.json.set(placeholder, json);
    if (pickle !== null) this.pickle.set(placeholder, pickle);
    return placeholder;
  }

  /** A placeholder key written as `key` (any text, even one already in the dict) in the JSON form. */
  addKey(key: string): string {
    const placeholder = `@@key-${this.count++}@@`;
    this.jsonKeys.set(placeholder, key);
    return placeholder;
  }

  /** The pickle with each placeholder string opcode replaced by its raw opcodes. */
  spliceIntoPickle(bytes: Uint8Array): Uint8Array {
    let out = bytes;
    for (const [placeholder, raw] of this.pickle) {
      const text = ascii(placeholder);
      const at = indexOf(out, text);
      if (at < 0) continue;
      // SHORT_BINUNICODE len text, or BINUNICODE len32 text (protocols 2 and 3).
      const header =
        at >= 2 && out[at - 2] === Op.SHORT_BINUNICODE
          ? 2
          : at >= 5 && out[at - 5] === Op.BINUNICODE
            ? 5
            : -1;
      if (header < 0) continue;
      out = concat(out.subarray(0, at - header), raw, out.subarray(at + text.length));
    }
    return out;
  }

  /** The JSON text with each quoted placeholder replaced by its raw text; null past maxChars. */
  spliceIntoJson(text: string, maxChars = Number.POSITIVE_INFINITY): string | null {
    if (this.json.size === 0 && this.jsonKeys.size === 0) return text;
    let length = text.length;
    const spliced = text.replace(/"@@(?:raw|key)-[0-9-]+@@"/g, (quoted) => {
      const placeholder = quoted.slice(1, -1);
      const key = this.jsonKeys.get(placeholder);
      const replacement =
        this.json.get(placeholder) ?? (key === undefined ? quoted : JSON.stringify(key));
      length += replacement.length - quoted.length;
      // A raw value written at each reference of a shared object: given up, as jsonTextOf does.
      return length > maxChars ? '' : replacement;
    });
    return length > maxChars ? null : spliced;
  }
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength).indexOf(
    Buffer.from(needle.buffer, needle.byteOffset, needle.byteLength),
  );
}

// ---- deep values, as pickle opcodes and as JSON text ----

export type DeepShape = 'list' | 'dict' | 'list-of-dict';

function unicode(text: string): Uint8Array {
  const data = ascii(text);
  return concat(Uint8Array.of(Op.BINUNICODE), littleEndian(BigInt(data.length), 4), data);
}

/** A value nested `depth` deep, as pickle opcodes (one value on the stack when done). */
export function deepPickle(shape: DeepShape, depth: number): Uint8Array {
  const key = unicode('a');
  switch (shape) {
    case 'list':
      // EMPTY_LIST x depth, APPEND x (depth - 1): [[[...]]].
      return concat(
        new Uint8Array(depth).fill(Op.EMPTY_LIST),
        new Uint8Array(depth - 1).fill(Op.APPEND),
      );
    case 'dict':
      // {'a': {'a': ... 1}}: EMPTY_DICT 'a' x depth, the innermost value, SETITEM x depth.
      return concat(
        repeat(concat(Uint8Array.of(Op.EMPTY_DICT), key), depth),
        Uint8Array.of(Op.BININT1, 1),
        new Uint8Array(depth).fill(Op.SETITEM),
      );
    default: {
      // [{'a': [{'a': ... }]}]: EMPTY_LIST EMPTY_DICT 'a' per level, then SETITEM APPEND per level.
      const half = Math.max(1, depth >> 1);
      return concat(
        repeat(concat(Uint8Array.of(Op.EMPTY_LIST, Op.EMPTY_DICT), key), half),
        Uint8Array.of(Op.NONE),
        repeat(Uint8Array.of(Op.SETITEM, Op.APPEND), half),
      );
    }
  }
}

/** The same value as JSON text. */
export function deepJson(shape: DeepShape, depth: number): string {
  switch (shape) {
    case 'list':
      return `${'['.repeat(depth)}${']'.repeat(depth)}`;
    case 'dict':
      return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    default: {
      const half = Math.max(1, depth >> 1);
      return `${'[{"a":'.repeat(half)}null${'}]'.repeat(half)}`;
    }
  }
}
