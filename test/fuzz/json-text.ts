// The JSON form of a snapshot value that mutations made hostile: what json.dumps would write for
// it, where generators/snapshot/json-form.ts (for well-formed values) would throw. Shared objects
// are written in full at each reference (json.dumps does the same), a cycle (a mutation put a
// container inside itself) becomes null, integers of any size are written with all their digits,
// and NaN and infinities are Python's `NaN` / `Infinity` tokens (what json.dumps writes; not JSON)
// or null.

import { MemoRef, PyFloat, PyTuple } from '../../generators/pickle/pickle-values';

export interface JsonTextOptions {
  /** 'python': NaN, Infinity, -Infinity as json.dumps writes them; 'null': as JSON.stringify. */
  nonFinite: 'python' | 'null';
  /** Longer text (shared objects written out in full) gives up: null. */
  maxChars: number;
}

class TooLong extends Error {}

export function jsonTextOf(value: unknown, options: JsonTextOptions): string | null {
  const parts: string[] = [];
  let length = 0;
  const push = (text: string): void => {
    length += text.length;
    if (length > options.maxChars) throw new TooLong();
    parts.push(text);
  };
  const open = new Set<object>();
  const number = (n: number): string => {
    if (Number.isFinite(n)) return Object.is(n, -0) ? '-0.0' : String(n);
    if (options.nonFinite === 'null') return 'null';
    return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
  };
  const write = (v: unknown): void => {
    if (v === null || v === undefined) return push('null');
    switch (typeof v) {
      case 'boolean':
        return push(v ? 'true' : 'false');
      case 'number':
        return push(number(v));
      case 'bigint':
        return push(v.toString());
      case 'string':
        return push(JSON.stringify(v));
      case 'object':
        break;
      default:
        return push('null');
    }
    if (v instanceof PyFloat) {
      const n = v.value;
      return push(Number.isInteger(n) && !Object.is(n, -0) ? `${n}.0` : number(n));
    }
    if (v instanceof MemoRef) return push('null');
    if (v instanceof Uint8Array) return write(Array.from(v));
    if (open.has(v)) return push('null');
    open.add(v);
    if (v instanceof PyTuple || Array.isArray(v)) {
      const items = v instanceof PyTuple ? v.items : (v as unknown[]);
      push('[');
      items.forEach((item, index) => {
        if (index > 0) push(', ');
        write(item);
      });
      push(']');
    } else {
      const entries =
        v instanceof Map
          ? [...(v as Map<unknown, unknown>)].map(([key, item]) => [keyText(key), item] as const)
          : Object.keys(v).map((key) => [key, (v as Record<string, unknown>)[key]] as const);
      push('{');
      entries.forEach(([key, item], index) => {
        push(index > 0 ? ', ' : '');
        push(`${JSON.stringify(key)}: `);
        write(item);
      });
      push('}');
    }
    open.delete(v);
  };
  try {
    write(value);
  } catch (error) {
    if (error instanceof TooLong) return null;
    throw error;
  }
  return parts.join('');
}

/** A Map key as json.dumps writes it (str() of ints, floats and bools; a tuple has no JSON key). */
function keyText(key: unknown): string {
  if (typeof key === 'string') return key;
  if (key === true) return 'true';
  if (key === false) return 'false';
  if (key === null) return 'null';
  if (key instanceof PyFloat) return String(key.value);
  if (key instanceof PyTuple) return `(${key.items.map(String).join(', ')})`;
  return String(key);
}
