// The budget of items in lists, dicts and tuples (item-budget.ts): a file makes no more than its
// bytes justify, the refusal reads the same at any chunking and through either decode path, and
// what real snapshots hold (2 bytes or more per item) decodes. Most cases lower the floor (the
// number of items allowed whatever the size) to 1,000, so that 1-byte chunks stay quick; the
// first one runs at the real floor.

import { describe, expect, it } from 'vitest';
import { StackInterner } from '../snapshot/stack-interner';
import { TraceTableBuilder } from '../snapshot/trace-table-builder';
import { BYTES_PER_ITEM, MIN_ITEM_BUDGET } from './item-budget';
import { Op } from './opcodes';
import { Unpickler, unpickle, type UnpicklerOptions } from './unpickler';

const CHUNK_SIZES = [1, 7, 1 << 16];
const FLOOR = 1000;
const LOW_FLOOR = { limits: { minItemBudget: FLOOR } } satisfies UnpicklerOptions;
const refusal = (floor: string, offset: number): string =>
  `more items in lists, dicts and tuples than a memory snapshot holds (past the first ${floor}, a snapshot takes 2 bytes or more of file for each) (at byte ${offset})`;

/** A pickle written opcode by opcode: PROTO 4 first, STOP on build(). */
class PickleBytes {
  private bytes = new Uint8Array(1 << 16);
  length = 0;

  constructor() {
    this.push(Op.PROTO, 4);
  }

  push(...ops: number[]): this {
    this.reserve(ops.length);
    this.bytes.set(ops, this.length);
    this.length += ops.length;
    return this;
  }

  /** `op` `count` times. */
  fill(op: number, count: number): this {
    this.reserve(count);
    this.bytes.fill(op, this.length, this.length + count);
    this.length += count;
    return this;
  }

  /** `ops` `count` times. */
  repeat(ops: readonly number[], count: number): this {
    for (let i = 0; i < count; i++) this.push(...ops);
    return this;
  }

  /** MARK, `count` NONE, APPENDS: `count` items into the list on the stack. */
  nones(count: number): this {
    for (let left = count; left > 0; left -= 100_000) {
      this.push(Op.MARK).fill(Op.NONE, Math.min(left, 100_000)).push(Op.APPENDS);
    }
    return this;
  }

  build(): Uint8Array {
    return this.push(Op.STOP).bytes.slice(0, this.length);
  }

  private reserve(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + more));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

function verdictOf(bytes: Uint8Array, size: number, options: UnpicklerOptions = {}): string {
  const unpickler = new Unpickler(options);
  try {
    for (let at = 0; at < bytes.length && !unpickler.done; at += size) {
      unpickler.feed(bytes.subarray(at, at + size));
    }
    unpickler.finish();
  } catch (error) {
    return (error as Error).message;
  }
  return 'decoded';
}

const text = (value: string): number[] => [
  Op.SHORT_BINUNICODE,
  value.length,
  ...new TextEncoder().encode(value),
];

describe('items in lists, dicts and tuples', () => {
  it('refuses one NONE per byte past the first 1,048,576 items', () => {
    // MARK, 100,000 NONE, APPENDS into one list, 20 times (the gzip held 1,370). The
    // 11th APPENDS brings 1,100,000 items, at byte 2 + 1 + 11 × 100,002 - 1.
    const bomb = new PickleBytes().push(Op.EMPTY_LIST).nones(2_000_000).build();
    expect(verdictOf(bomb, 1 << 16)).toBe(refusal('1,048,576', 2 + 11 * 100_002));
    expect(MIN_ITEM_BUDGET).toBe(1_048_576);
  });

  it('says the same at chunks of 1 B, 7 B and 64 KiB', () => {
    const bomb = new PickleBytes().push(Op.EMPTY_LIST).nones(10_000).build();
    for (const size of CHUNK_SIZES) {
      // The first APPENDS brings 10,000 items, more than 1,000 and than 10,003 bytes / 2.
      expect(verdictOf(bomb, size, LOW_FLOOR), `chunks of ${size}`).toBe(refusal('1,000', 10_004));
    }
  });

  it('counts dict pairs, tuple and list items, refused at the opcode that goes past', () => {
    const cases: [string, number[]][] = [
      ['SETITEMS', [Op.EMPTY_DICT, Op.MARK, ...new Array<number>(22).fill(Op.NONE), Op.SETITEMS]],
      [
        'SETITEM',
        [Op.EMPTY_DICT, ...new Array<number[]>(11).fill([Op.NONE, Op.NONE, Op.SETITEM]).flat()],
      ],
      ['DICT', [Op.MARK, ...new Array<number>(22).fill(Op.NONE), Op.DICT]],
      ['LIST', [Op.MARK, ...new Array<number>(11).fill(Op.NONE), Op.LIST]],
      ['TUPLE', [Op.MARK, ...new Array<number>(11).fill(Op.NONE), Op.TUPLE]],
      ['TUPLE3', new Array<number[]>(4).fill([Op.NONE, Op.NONE, Op.NONE, Op.TUPLE3]).flat()],
      ['TUPLE2', new Array<number[]>(6).fill([Op.NONE, Op.NONE, Op.TUPLE2]).flat()],
      ['TUPLE1', new Array<number[]>(11).fill([Op.NONE, Op.TUPLE1]).flat()],
      ['APPEND', [Op.EMPTY_LIST, ...new Array<number[]>(11).fill([Op.NONE, Op.APPEND]).flat()]],
    ];
    for (const [name, construct] of cases) {
      // 990 NONE in a list, then what makes 11 items or more.
      const bytes = new PickleBytes()
        .push(Op.EMPTY_LIST)
        .nones(FLOOR - 10)
        .push(...construct)
        .build();
      // The construct's last opcode, just before STOP, goes past.
      expect(verdictOf(bytes, 7, LOW_FLOOR), name).toBe(refusal('1,000', bytes.length - 2));
    }
  });

  it(`decodes ${BYTES_PER_ITEM} bytes per item however many (a frames list of BINGETs)`, () => {
    // [frame, frame, …]: BINGET 0 is what a real frames list holds, two bytes an item.
    const count = 100 * FLOOR;
    const batch = [Op.MARK, ...new Array<number[]>(1000).fill([Op.BINGET, 0]).flat(), Op.APPENDS];
    const bytes = new PickleBytes()
      .push(Op.EMPTY_DICT, Op.MEMOIZE, Op.POP, Op.EMPTY_LIST)
      .repeat(batch, count / 1000)
      .build();
    expect((unpickle(bytes, LOW_FLOOR) as unknown[]).length).toBe(count);
  });

  it('counts a trace entry’s frames list alike on the fast and the generic path', () => {
    // A frame dict (memo 0, 3 items), a list of 690 NONE, then trace entries whose frames lists
    // (70 BINGET 0 each) take the items from 973 past 1,000 in the fifth entry: refused at its
    // APPENDS, whichever path reads the entry and wherever the chunks fall.
    const frame = [
      ...[Op.EMPTY_DICT, Op.MEMOIZE, Op.MARK],
      ...[...text('filename'), ...text('a.py'), ...text('line'), Op.BININT1, 1],
      ...[...text('name'), ...text('f'), Op.SETITEMS],
    ];
    const entry = [
      ...[Op.EMPTY_DICT, Op.MEMOIZE, Op.MARK, ...text('action'), ...text('snapshot')],
      ...[...text('frames'), Op.EMPTY_LIST, Op.MEMOIZE, Op.MARK],
      ...new Array<number[]>(70).fill([Op.BINGET, 0]).flat(),
      ...[Op.APPENDS, Op.SETITEMS],
    ];
    const head = new PickleBytes()
      .push(Op.EMPTY_LIST, Op.MARK, ...frame, Op.EMPTY_LIST)
      .nones(690)
      .push(Op.EMPTY_LIST, Op.MARK);
    const entriesStart = head.length;
    const bytes = head.repeat(entry, 10).push(Op.APPENDS, Op.APPENDS).build();
    const appendsOfFifth = entriesStart + 5 * entry.length - 2;
    for (const fast of [true, false]) {
      for (const size of CHUNK_SIZES) {
        const table = new TraceTableBuilder(new StackInterner());
        const options = {
          ...LOW_FLOOR,
          interceptor: table,
          ...(fast ? { flatDictConsumer: table } : {}),
        };
        expect(verdictOf(bytes, size, options), `fast: ${fast}, chunks of ${size}`).toBe(
          refusal('1,000', appendsOfFifth),
        );
      }
    }
  });
});

describe('the memo', () => {
  it('refuses a memo opcode right after another (the same object memoized again)', () => {
    const bomb = new PickleBytes().push(Op.NONE).fill(Op.MEMOIZE, 1000).build();
    for (const size of CHUNK_SIZES) {
      expect(verdictOf(bomb, size)).toBe(
        'the same object is memoized twice in a row; a pickler memoizes each object once (at byte 4)',
      );
    }
    const binput = new PickleBytes().push(Op.NONE, Op.BINPUT, 0, Op.MEMOIZE).build();
    expect(verdictOf(binput, 1)).toBe(
      'the same object is memoized twice in a row; a pickler memoizes each object once (at byte 5)',
    );
  });
});
