// Walks the opcodes of a pickle without executing them, so mutators can aim at opcode boundaries,
// length prefixes, memo indices and numbers instead of random bytes. Stops at STOP, at an opcode
// it does not know, or where the data ends.

import { Op } from '../../src/shared/pickle/opcodes';

/** How an opcode's argument is laid out. */
type ArgShape =
  | { kind: 'none' }
  | { kind: 'fixed'; bytes: number }
  /** A little-endian length of `width` bytes, then that many bytes of payload. */
  | { kind: 'sized'; width: 1 | 4 | 8; signed?: boolean }
  /** Text arguments ending in newlines (protocols 0 and 1). */
  | { kind: 'lines'; count: number };

const NONE: ArgShape = { kind: 'none' };

export const OPCODE_SHAPES: ReadonlyMap<number, ArgShape> = new Map<number, ArgShape>([
  [Op.MARK, NONE],
  [Op.STOP, NONE],
  [Op.POP, NONE],
  [Op.POP_MARK, NONE],
  [Op.DUP, NONE],
  [Op.BININT, { kind: 'fixed', bytes: 4 }],
  [Op.BININT1, { kind: 'fixed', bytes: 1 }],
  [Op.BININT2, { kind: 'fixed', bytes: 2 }],
  [Op.NONE, NONE],
  [Op.BINUNICODE, { kind: 'sized', width: 4 }],
  [Op.APPEND, NONE],
  [Op.DICT, NONE],
  [Op.EMPTY_DICT, NONE],
  [Op.APPENDS, NONE],
  [Op.BINGET, { kind: 'fixed', bytes: 1 }],
  [Op.LONG_BINGET, { kind: 'fixed', bytes: 4 }],
  [Op.LIST, NONE],
  [Op.EMPTY_LIST, NONE],
  [Op.BINPUT, { kind: 'fixed', bytes: 1 }],
  [Op.LONG_BINPUT, { kind: 'fixed', bytes: 4 }],
  [Op.SETITEM, NONE],
  [Op.TUPLE, NONE],
  [Op.EMPTY_TUPLE, NONE],
  [Op.SETITEMS, NONE],
  [Op.BINFLOAT, { kind: 'fixed', bytes: 8 }],
  [Op.PROTO, { kind: 'fixed', bytes: 1 }],
  [Op.TUPLE1, NONE],
  [Op.TUPLE2, NONE],
  [Op.TUPLE3, NONE],
  [Op.NEWTRUE, NONE],
  [Op.NEWFALSE, NONE],
  [Op.LONG1, { kind: 'sized', width: 1 }],
  [Op.LONG4, { kind: 'sized', width: 4, signed: true }],
  [Op.BINBYTES, { kind: 'sized', width: 4 }],
  [Op.SHORT_BINBYTES, { kind: 'sized', width: 1 }],
  [Op.SHORT_BINUNICODE, { kind: 'sized', width: 1 }],
  [Op.BINUNICODE8, { kind: 'sized', width: 8 }],
  [Op.BINBYTES8, { kind: 'sized', width: 8 }],
  [Op.EMPTY_SET, NONE],
  [Op.ADDITEMS, NONE],
  [Op.FROZENSET, NONE],
  [Op.MEMOIZE, NONE],
  [Op.FRAME, { kind: 'fixed', bytes: 8 }],
  [Op.BYTEARRAY8, { kind: 'sized', width: 8 }],
  // Code loading (refused by the decoder, but the scanner can step over them).
  [0x63 /* GLOBAL */, { kind: 'lines', count: 2 }],
  [0x69 /* INST */, { kind: 'lines', count: 2 }],
  [0x50 /* PERSID */, { kind: 'lines', count: 1 }],
  [0x93 /* STACK_GLOBAL */, NONE],
  [0x52 /* REDUCE */, NONE],
  [0x62 /* BUILD */, NONE],
  [0x81 /* NEWOBJ */, NONE],
  [0x92 /* NEWOBJ_EX */, NONE],
  [0x6f /* OBJ */, NONE],
  [0x51 /* BINPERSID */, NONE],
  [0x82 /* EXT1 */, { kind: 'fixed', bytes: 1 }],
  [0x83 /* EXT2 */, { kind: 'fixed', bytes: 2 }],
  [0x84 /* EXT4 */, { kind: 'fixed', bytes: 4 }],
]);

export interface ScannedOp {
  /** Offset of the opcode byte. */
  offset: number;
  op: number;
  /** Offset just past the opcode and its argument. */
  end: number;
  /** For sized opcodes: where the length field is and how wide. */
  lengthField: { at: number; width: 1 | 4 | 8 } | null;
  /** Memo entries written before this opcode (MEMOIZE, BINPUT and LONG_BINPUT counted). */
  memoBefore: number;
}

export interface PickleScan {
  ops: ScannedOp[];
  /** Offset of STOP, or -1 when the scan stopped before it. */
  stopAt: number;
  memoCount: number;
}

function readLength(bytes: Uint8Array, at: number, width: 1 | 4 | 8, signed: boolean): number {
  if (width === 1) return bytes[at]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (width === 4) return signed ? view.getInt32(at, true) : view.getUint32(at, true);
  return view.getUint32(at, true) + view.getUint32(at + 4, true) * 2 ** 32;
}

export function scanPickle(bytes: Uint8Array, maxOps = Number.POSITIVE_INFINITY): PickleScan {
  const ops: ScannedOp[] = [];
  let pos = 0;
  let memo = 0;
  while (pos < bytes.length && ops.length < maxOps) {
    const op = bytes[pos]!;
    const shape = OPCODE_SHAPES.get(op);
    if (shape === undefined) break;
    let end = pos + 1;
    let lengthField: ScannedOp['lengthField'] = null;
    switch (shape.kind) {
      case 'none':
        break;
      case 'fixed':
        end += shape.bytes;
        break;
      case 'sized': {
        if (end + shape.width > bytes.length) return { ops, stopAt: -1, memoCount: memo };
        const length = readLength(bytes, end, shape.width, shape.signed === true);
        lengthField = { at: end, width: shape.width };
        if (length < 0) return { ops, stopAt: -1, memoCount: memo };
        end += shape.width + length;
        break;
      }
      case 'lines': {
        for (let line = 0; line < shape.count; line++) {
          const newline = bytes.indexOf(0x0a, end);
          if (newline < 0) return { ops, stopAt: -1, memoCount: memo };
          end = newline + 1;
        }
        break;
      }
    }
    if (end > bytes.length) break;
    ops.push({ offset: pos, op, end, lengthField, memoBefore: memo });
    if (op === Op.MEMOIZE || op === Op.BINPUT || op === Op.LONG_BINPUT) memo++;
    if (op === Op.STOP) return { ops, stopAt: pos, memoCount: memo };
    pos = end;
  }
  return { ops, stopAt: -1, memoCount: memo };
}

/** Offsets where an opcode starts (inserting there keeps every other opcode intact). */
export function opcodeBoundaries(scan: PickleScan): number[] {
  return scan.ops.filter((op) => op.op !== Op.PROTO).map((op) => op.offset);
}
