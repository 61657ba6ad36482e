// The limits that keep work and memory linear in the file, whatever its declared lengths, counts,
// indices or nesting say.

import { describe, expect, it } from 'vitest';
import { StackInterner } from '../snapshot/stack-interner';
import { TraceTableBuilder } from '../snapshot/trace-table-builder';
import { Op } from './opcodes';
import { MAX_NESTING_DEPTH, MAX_PAYLOAD_BYTES, Unpickler, unpickle } from './unpickler';

function pickle(...body: number[]): Uint8Array {
  return Uint8Array.from([Op.PROTO, 4, ...body]);
}

function u32(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
}

function feedInChunks(unpickler: Unpickler, bytes: Uint8Array, size: number): unknown {
  for (let at = 0; at < bytes.length && !unpickler.done; at += size) {
    unpickler.feed(bytes.subarray(at, at + size));
  }
  return unpickler.finish();
}

describe('memo indices', () => {
  it('refuses an index that skips ahead, and one written twice', () => {
    expect(() =>
      unpickle(pickle(Op.EMPTY_LIST, Op.LONG_BINPUT, ...u32(1_000_000), Op.STOP)),
    ).toThrow('memo index 1,000,000 skips ahead of the 0 objects stored so far (at byte 3)');
    expect(() => unpickle(pickle(Op.EMPTY_LIST, Op.BINPUT, 0, Op.BINPUT, 0, Op.STOP))).toThrow(
      'memo index 0 is written twice (at byte 5)',
    );
  });

  it('refuses a read of an index never written, however large', () => {
    expect(() => unpickle(pickle(Op.LONG_BINGET, ...u32(2 ** 31), Op.STOP))).toThrow(
      'memo entry 2,147,483,648 is read before it was written (at byte 2)',
    );
  });
});

describe('nesting and the stack', () => {
  it(`refuses MARKs nested deeper than ${MAX_NESTING_DEPTH}`, () => {
    const marks = new Array<number>(MAX_NESTING_DEPTH + 1).fill(Op.MARK);
    expect(() => unpickle(pickle(...marks))).toThrow(/nested more than 4,096 levels deep/);
    const fine = new Array<number>(MAX_NESTING_DEPTH).fill(Op.MARK);
    const lists = new Array<number>(MAX_NESTING_DEPTH).fill(Op.LIST);
    expect(() => unpickle(pickle(...fine, ...lists, Op.STOP))).not.toThrow();
  });

  it('refuses more values on the stack than the limit, at any chunking', () => {
    const nones = pickle(Op.MARK, ...new Array<number>(5000).fill(Op.NONE), Op.LIST, Op.STOP);
    for (const size of [1, 7, 1 << 16]) {
      const unpickler = new Unpickler({ limits: { maxStackValues: 1000 } });
      expect(() => feedInChunks(unpickler, nones, size)).toThrow(
        /more than 1,000 values on the pickle stack at once/,
      );
    }
  });

  it('does not count consumed trace entries: a whole trace in one APPENDS (the C++ pickler) decodes', () => {
    const entry = [
      Op.EMPTY_DICT,
      Op.MARK,
      Op.SHORT_BINUNICODE,
      6,
      ...new TextEncoder().encode('action'),
      Op.SHORT_BINUNICODE,
      8,
      ...new TextEncoder().encode('snapshot'),
      Op.SETITEMS,
    ];
    const count = 5000;
    const bytes = pickle(
      Op.EMPTY_LIST,
      Op.MARK,
      ...new Array<number[]>(count).fill(entry).flat(),
      Op.APPENDS,
      Op.STOP,
    );
    for (const fast of [true, false]) {
      const table = new TraceTableBuilder(new StackInterner());
      const unpickler = new Unpickler({
        interceptor: table,
        ...(fast ? { flatDictConsumer: table } : {}),
        limits: { maxStackValues: 1000 },
      });
      feedInChunks(unpickler, bytes, 1 << 16);
      expect(table.rows).toBe(count);
    }
  });
});

describe('declared lengths', () => {
  it('refuses a length beyond the file at once, and one beyond any snapshot field', () => {
    const huge = pickle(Op.BINUNICODE8, 0, 0, 0, 0, 0, 1, 0, 0, 0x61, 0x62);
    const unpickler = new Unpickler({ totalBytes: huge.length });
    expect(() => unpickler.feed(huge)).toThrow(
      'declares a string of 1,099,511,627,776 bytes, but the file has only 2 bytes left (at byte 2)',
    );
    const long = pickle(Op.BINBYTES, ...u32(MAX_PAYLOAD_BYTES + 1));
    expect(() => new Unpickler().feed(long)).toThrow(
      /declares a bytes value of 67,108,865 bytes; no field of a memory snapshot is longer than 67,108,864 bytes/,
    );
  });

  it('refuses an integer longer than 1 KiB (decoding one costs its length squared)', () => {
    const bytes = pickle(Op.LONG4, ...u32(130_000), ...new Array<number>(16).fill(1));
    expect(() => new Unpickler().feed(bytes)).toThrow(
      'an integer of 130,000 bytes; the numbers of a memory snapshot fit in 8 (at byte 2)',
    );
  });

  it('gathers a long string in one buffer, whatever the chunking', () => {
    const text = 'é'.repeat(100_000);
    const encoded = new TextEncoder().encode(text);
    const head = pickle(Op.BINUNICODE, ...u32(encoded.length));
    const bytes = new Uint8Array(head.length + encoded.length + 1);
    bytes.set(head);
    bytes.set(encoded, head.length);
    bytes[bytes.length - 1] = Op.STOP;
    for (const size of [1, 3, 1000, 65_536, 1 << 20]) {
      expect(feedInChunks(new Unpickler({ totalBytes: bytes.length }), bytes, size)).toBe(text);
    }
  });
});

describe('what a snapshot never holds', () => {
  it('refuses a list (or a list holding itself) as a dict key, and names set opcodes', () => {
    expect(() =>
      unpickle(
        pickle(
          Op.EMPTY_DICT,
          Op.EMPTY_LIST,
          Op.MEMOIZE,
          Op.BINGET,
          0,
          Op.APPEND,
          Op.NONE,
          Op.SETITEM,
          Op.STOP,
        ),
      ),
    ).toThrow(
      /a dict key that is a list, a dict or a tuple of containers; a Python dict cannot have one/,
    );
    expect(
      unpickle(
        pickle(
          Op.EMPTY_DICT,
          Op.BININT1,
          1,
          Op.BININT1,
          2,
          Op.TUPLE2,
          Op.NONE,
          Op.SETITEM,
          Op.STOP,
        ),
      ),
    ).toEqual({
      '(1, 2)': null,
    });
    expect(() => unpickle(pickle(Op.EMPTY_SET, Op.STOP))).toThrow(
      'pickle opcode EMPTY_SET (a set) is not used by memory snapshots (at byte 2)',
    );
  });
});

describe('containers', () => {
  it('refuses more lists, dicts and tuples than the bytes read justify', () => {
    const count = (1 << 18) + 10;
    const bytes = new Uint8Array(count + 4);
    bytes.set([Op.PROTO, 4, Op.MARK]);
    bytes.fill(Op.EMPTY_LIST, 3);
    bytes[bytes.length - 1] = Op.LIST;
    expect(() => unpickle(bytes)).toThrow(
      /more lists, dicts and tuples than a memory snapshot holds \(past the first 262,144, a snapshot takes 8 bytes or more of file for each\)$/,
    );
  });
});
