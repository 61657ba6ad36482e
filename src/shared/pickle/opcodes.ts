// Pickle opcodes (CPython Lib/pickle.py). Only plain-data opcodes are decoded; the ones that
// import or call Python code are listed separately so they can be refused by name.

export const Op = {
  MARK: 0x28, // (
  STOP: 0x2e, // .
  POP: 0x30, // 0
  POP_MARK: 0x31, // 1
  DUP: 0x32, // 2
  BININT: 0x4a, // J
  BININT1: 0x4b, // K
  BININT2: 0x4d, // M
  NONE: 0x4e, // N
  BINUNICODE: 0x58, // X
  APPEND: 0x61, // a
  DICT: 0x64, // d
  EMPTY_DICT: 0x7d, // }
  APPENDS: 0x65, // e
  BINGET: 0x68, // h
  LONG_BINGET: 0x6a, // j
  LIST: 0x6c, // l
  EMPTY_LIST: 0x5d, // ]
  BINPUT: 0x71, // q
  LONG_BINPUT: 0x72, // r
  SETITEM: 0x73, // s
  TUPLE: 0x74, // t
  EMPTY_TUPLE: 0x29, // )
  SETITEMS: 0x75, // u
  BINFLOAT: 0x47, // G
  // protocol 2
  PROTO: 0x80,
  TUPLE1: 0x85,
  TUPLE2: 0x86,
  TUPLE3: 0x87,
  NEWTRUE: 0x88,
  NEWFALSE: 0x89,
  LONG1: 0x8a,
  LONG4: 0x8b,
  // protocol 3
  BINBYTES: 0x42, // B
  SHORT_BINBYTES: 0x43, // C
  // protocol 4
  SHORT_BINUNICODE: 0x8c,
  BINUNICODE8: 0x8d,
  BINBYTES8: 0x8e,
  EMPTY_SET: 0x8f,
  ADDITEMS: 0x90,
  FROZENSET: 0x91,
  MEMOIZE: 0x94,
  FRAME: 0x95,
  // protocol 5
  BYTEARRAY8: 0x96,
} as const;

/** Opcodes that make the unpickler import, construct or call Python objects. */
export const CODE_LOADING_OPCODES: ReadonlyMap<number, string> = new Map([
  [0x63, 'GLOBAL'],
  [0x93, 'STACK_GLOBAL'],
  [0x52, 'REDUCE'],
  [0x62, 'BUILD'],
  [0x81, 'NEWOBJ'],
  [0x92, 'NEWOBJ_EX'],
  [0x69, 'INST'],
  [0x6f, 'OBJ'],
  [0x50, 'PERSID'],
  [0x51, 'BINPERSID'],
  [0x82, 'EXT1'],
  [0x83, 'EXT2'],
  [0x84, 'EXT4'],
]);

/**
 * Opcodes that are valid pickle but never appear in a snapshot, with what they make: the text
 * protocols' forms (a protocol 2+ pickler never writes them), sets, out-of-band buffers.
 */
export const UNSUPPORTED_OPCODES: ReadonlyMap<number, { name: string; what: string }> = new Map([
  [0x49, { name: 'INT', what: 'a text-protocol int' }],
  [0x4c, { name: 'LONG', what: 'a text-protocol long' }],
  [0x53, { name: 'STRING', what: 'a text-protocol string' }],
  [0x54, { name: 'BINSTRING', what: 'a Python 2 str' }],
  [0x55, { name: 'SHORT_BINSTRING', what: 'a Python 2 str' }],
  [0x56, { name: 'UNICODE', what: 'a text-protocol string' }],
  [0x46, { name: 'FLOAT', what: 'a text-protocol float' }],
  [0x67, { name: 'GET', what: 'a text-protocol memo reference' }],
  [0x70, { name: 'PUT', what: 'a text-protocol memo entry' }],
  [0x8f, { name: 'EMPTY_SET', what: 'a set' }],
  [0x90, { name: 'ADDITEMS', what: 'items added to a set' }],
  [0x91, { name: 'FROZENSET', what: 'a frozenset' }],
  [0x97, { name: 'NEXT_BUFFER', what: 'an out-of-band buffer' }],
  [0x98, { name: 'READONLY_BUFFER', what: 'a read-only buffer' }],
]);
