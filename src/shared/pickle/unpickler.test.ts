import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pythonPickle } from '../../../test/support/python';
import { realSnapshotPath } from '../../../test/support/real-snapshots';
import { CodeLoadingRefusedError, PickleError } from './pickle-error';
import { Unpickler, unpickle } from './unpickler';

function decodeInChunks(bytes: Uint8Array, chunkSize: number): unknown {
  const unpickler = new Unpickler();
  for (let offset = 0; offset < bytes.length; offset += chunkSize) {
    unpickler.feed(bytes.subarray(offset, offset + chunkSize));
  }
  return unpickler.finish();
}

describe('unpickler on CPython output', () => {
  it.each([2, 3, 4, 5])('decodes plain data written with protocol %i', (protocol) => {
    const value = unpickle(
      pythonPickle(
        `{'a': [1, -1, 255, 256, 65535, 65536, -2**31, 2**31, 2**40, -2**40, 1.5, -0.0, True, False, None],` +
          ` 'text': 'héllo ✓', 'long': 'x' * 300, 'tuple': (1, 'two', 3.0), 'one': (7,), 'empty': (),` +
          // Protocol 2 can only write bytes through a code-loading GLOBAL, so bytes start at 3.
          ` 'bytes': ${protocol >= 3 ? "b'\\x00\\x01'" : 'None'}, 'nested': {'k': [[], {}]}}`,
        protocol,
      ),
    );
    expect(value).toEqual({
      a: [
        1,
        -1,
        255,
        256,
        65535,
        65536,
        -(2 ** 31),
        2 ** 31,
        2 ** 40,
        -(2 ** 40),
        1.5,
        -0,
        true,
        false,
        null,
      ],
      text: 'héllo ✓',
      long: 'x'.repeat(300),
      tuple: [1, 'two', 3],
      one: [7],
      empty: [],
      bytes: protocol >= 3 ? new Uint8Array([0, 1]) : null,
      nested: { k: [[], {}] },
    });
  });

  it('decodes LONG1/LONG4 exactly, negative values and values beyond 2^53 included', () => {
    const values = unpickle(
      pythonPickle(
        '[2**47 + 12345, 1757253255954476, -1757253255954476, 2**53 - 1, -(2**53 - 1), 2**53, 2**64 - 1, -2**63, -2**70, 2**2100]',
      ),
    );
    expect(values).toEqual([
      2 ** 47 + 12345,
      1757253255954476,
      -1757253255954476,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      2n ** 53n,
      2n ** 64n - 1n,
      -(2n ** 63n),
      -(2n ** 70n),
      2n ** 2100n,
    ]);
  });

  it('keeps objects that Python shared as one JS object (memo identity)', () => {
    const value = unpickle(
      pythonPickle(
        "(lambda f: (lambda s: [{'frames': s}, {'frames': s}, s])([f, f]))({'filename': 'a.py', 'line': 1, 'name': 'f'})",
      ),
    ) as [{ frames: unknown[] }, { frames: unknown[] }, unknown[]];
    expect(value[0].frames).toBe(value[1].frames);
    expect(value[0].frames).toBe(value[2]);
    expect(value[0].frames[0]).toBe(value[0].frames[1]);
  });

  it('decodes dicts and lists with more than 1000 items (batched SETITEMS/APPENDS)', () => {
    const value = unpickle(
      pythonPickle('{"l": list(range(2500)), "d": {str(i): i for i in range(2500)}}'),
    ) as {
      l: number[];
      d: Record<string, number>;
    };
    expect(value.l).toHaveLength(2500);
    expect(value.l[2499]).toBe(2499);
    expect(Object.keys(value.d)).toHaveLength(2500);
    expect(value.d['1234']).toBe(1234);
  });

  it('gives the same result whatever the chunk boundaries', () => {
    const bytes = pythonPickle("{'k': ['x' * 70000, 2**60, 1.25, [{'a': 1}] * 3, 'é' * 10]}");
    const whole = unpickle(bytes);
    for (const size of [1, 2, 3, 7, 64, 4096]) expect(decodeInChunks(bytes, size)).toEqual(whole);
  });

  it('ignores bytes after STOP (the HTML export pads with NULs)', () => {
    const bytes = pythonPickle("{'a': 1}");
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes);
    expect(unpickle(padded)).toEqual({ a: 1 });
  });

  it('keeps a "__proto__" key as data', () => {
    const value = unpickle(pythonPickle("{'__proto__': 1, 'b': 2}")) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toBe(1);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});

describe('unpickler refuses what is not plain data', () => {
  it.each([
    ['collections.OrderedDict()', 4],
    ['collections.Counter("ab")', 2],
    ['set([1])', 2],
    ['complex(1, 2)', 4],
  ])('refuses %s (loads Python code)', (expression, protocol) => {
    const bytes = pythonPickle(expression, protocol);
    expect(() => unpickle(bytes)).toThrow(CodeLoadingRefusedError);
    expect(() => unpickle(bytes)).toThrow(
      /not a memory snapshot: the file asks to load Python code \(opcode [A-Z_]+ at byte \d+\)/,
    );
  });

  it('names the opcode and byte offset', () => {
    // PROTO 2, GLOBAL 'os\nsystem\n' ...
    const bytes = new Uint8Array([
      0x80,
      0x02,
      0x63,
      ...new TextEncoder().encode('os\nsystem\n'),
      0x2e,
    ]);
    expect(() => unpickle(bytes)).toThrow('(opcode GLOBAL at byte 2)');
  });

  it('reports empty input', () => {
    expect(() => unpickle(new Uint8Array(0))).toThrow(/empty input/);
  });

  it('reports a wrong first byte', () => {
    expect(() => unpickle(new TextEncoder().encode('{"json": true}'))).toThrow(
      /not a pickle of protocol 2 to 5: the first byte is 0x7b/,
    );
  });

  it('reports protocols it does not read', () => {
    expect(() => unpickle(pythonPickle('[1]', 1))).toThrow(PickleError);
    expect(() => unpickle(new Uint8Array([0x80, 0x06, 0x4e, 0x2e]))).toThrow(
      /unsupported pickle protocol 6/,
    );
  });

  it('reports an unknown opcode with its offset', () => {
    expect(() => unpickle(new Uint8Array([0x80, 0x04, 0xff]))).toThrow(
      'unknown pickle opcode 0xff: the file is corrupt, or not a pickle (at byte 2)',
    );
  });

  it('reports a memo read before write', () => {
    expect(() => unpickle(new Uint8Array([0x80, 0x04, 0x68, 0x05, 0x2e]))).toThrow(
      /memo entry 5 is read before/,
    );
  });

  it('never crashes or hangs on truncation of a real snapshot, at any of many offsets', () => {
    const bytes = new Uint8Array(readFileSync(realSnapshotPath('a0kuma')));
    const offsets = new Set<number>();
    for (let i = 0; i < 2048; i++) offsets.add(i);
    for (let i = 2048; i < bytes.length; i += 97) offsets.add(i);
    for (const length of offsets) {
      const truncated = bytes.subarray(0, length);
      expect(() => unpickle(truncated), `truncated at ${length}`).toThrow(PickleError);
      try {
        unpickle(truncated);
      } catch (error) {
        expect((error as Error).message).toMatch(
          length === 0 ? /empty input/ : /truncated|at byte \d+/,
        );
      }
    }
  });

  it('never crashes or hangs on random bytes after a valid header', () => {
    let seed = 12345;
    const random = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 24;
    };
    for (let trial = 0; trial < 2000; trial++) {
      const bytes = new Uint8Array(2 + (trial % 200));
      bytes[0] = 0x80;
      bytes[1] = 4;
      for (let i = 2; i < bytes.length; i++) bytes[i] = random();
      try {
        unpickle(bytes);
      } catch (error) {
        expect(error).toBeInstanceOf(PickleError);
      }
    }
  });
});
