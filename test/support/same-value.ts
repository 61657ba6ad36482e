// A fast first look for the tests that compare whole decoded models or unpickled values (millions
// of typed-array elements, deep trees): vitest's toEqual walks every element generically and
// takes seconds per comparison. sameValue answers "certainly equal" quickly (typed arrays compared
// as bytes); when it cannot, toEqual decides and writes its diff, so the verdict is toEqual's.

import { expect } from 'vitest';

export function expectSameValue(actual: unknown, expected: unknown, message?: string): void {
  if (!sameValue(actual, expected)) expect(actual, message).toEqual(expected);
}

/** True only where toEqual would pass too (stricter: any doubt returns false). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (ArrayBuffer.isView(a)) {
    const other = b as ArrayBufferView;
    return (
      a.byteLength === other.byteLength &&
      Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
        Buffer.from(other.buffer, other.byteOffset, other.byteLength),
      )
    );
  }
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], other[i])) return false;
    return true;
  }
  if (a instanceof Map) {
    const other = b as Map<unknown, unknown>;
    if (a.size !== other.size) return false;
    for (const [key, value] of a)
      if (!other.has(key) || !sameValue(value, other.get(key))) return false;
    return true;
  }
  if (a instanceof Set) return false;
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}
