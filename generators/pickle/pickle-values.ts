// The JS side of the Python values the test pickle writer can emit. JS has no tuple and no
// integral float, and arrays already mean lists, so those two get small wrapper classes; a
// MemoRef lets streaming code point back at an object it wrote earlier without keeping it alive.

/** A Python tuple (arrays are lists). */
export class PyTuple {
  constructor(readonly items: readonly PickleValue[]) {}
}

/** A Python float; only needed when the value is integral (1.0), since a plain JS number that is
 *  an integer is pickled as an int, and any other number already is a float. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** A back-reference (BINGET / LONG_BINGET) to the object stored at a memo index, as returned by
 *  the writer's beginList() / beginDict() / memoIndexOf(). */
export class MemoRef {
  constructor(readonly index: number) {}
}

/** Values usable as dict keys in a Map (plain objects only have string keys). */
export type PickleKey = string | number | bigint | boolean | null | PyTuple | PyFloat;

/** A plain object is a dict with str keys, written in Object.keys order (beware: integer-like keys
 *  such as "1" come first in JS; use a Map when the order of such keys matters). */
export type PickleDict = { readonly [key: string]: PickleValue };

export type PickleValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | PyFloat
  | PyTuple
  | MemoRef
  | Uint8Array
  | readonly PickleValue[]
  | PickleDict
  | ReadonlyMap<PickleKey, PickleValue>;

export function tuple(...items: PickleValue[]): PyTuple {
  return new PyTuple(items);
}

export function pyFloat(value: number): PyFloat {
  return new PyFloat(value);
}
