// Our unpickler against two independent decoders on the 12 real snapshots: CPython's pickle
// (the reference) and the pickleparser package (a second JS implementation).

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Parser } from 'pickleparser';
import { describe, expect, it } from 'vitest';
import { runPython } from '../../../test/support/python';
import { realSnapshotPaths } from '../../../test/support/real-snapshots';
import { expectSameValue } from '../../../test/support/same-value';
import { unpickle } from './unpickler';

/** Same encoding as the Python side below: big ints as "<digits>n", bytes as lists. */
function normalize(value: unknown): unknown {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' && !Number.isSafeInteger(value) && Number.isInteger(value)) {
    return `${BigInt(value)}n`;
  }
  if (value instanceof Uint8Array) return [...value];
  if (Array.isArray(value)) return value.map(normalize);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalize(item)]));
  }
  return value;
}

const PYTHON_AS_JSON = `
import json, pickle, sys
def walk(v):
    if isinstance(v, bool) or v is None or isinstance(v, (str, float)): return v
    if isinstance(v, int): return v if abs(v) <= 2**53 - 1 else f"{v}n"
    if isinstance(v, (list, tuple)): return [walk(x) for x in v]
    if isinstance(v, dict): return {str(k): walk(x) for k, x in v.items()}
    if isinstance(v, (bytes, bytearray)): return list(v)
    raise TypeError(type(v))
print(json.dumps(walk(pickle.load(open(sys.argv[1], 'rb')))))
`;

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (_name, path) => {
  const bytes = new Uint8Array(readFileSync(path));

  it('decodes to exactly what CPython decodes', () => {
    const expected: unknown = JSON.parse(runPython(PYTHON_AS_JSON, [path]).toString('utf8'));
    expectSameValue(normalize(unpickle(bytes)), expected);
  });

  it('decodes to what pickleparser decodes (where pickleparser can)', () => {
    let theirs: unknown;
    try {
      theirs = new Parser().parse(Buffer.from(bytes));
    } catch (error) {
      // pickleparser cannot read LONG1 values wider than 8 bytes (a frame line of 2**64-1).
      expect((error as Error).message).toMatch(/too large/);
      expect(bytes.includes(0x8a)).toBe(true);
      return;
    }
    expectSameValue(normalize(unpickle(bytes)), normalize(theirs));
  });
});
