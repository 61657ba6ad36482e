// The JSON form of a snapshot value (what pytorch.org/memory_viz also accepts): the same keys,
// tuples as arrays, integers as numbers. Shared objects are written out in full at every
// reference, as json.dumps does; that is why the JSON of a snapshot is several times its pickle.

import { MemoRef, PyFloat, PyTuple, type PickleValue } from '../pickle/pickle-values';

export function snapshotToJson(value: PickleValue): string {
  return JSON.stringify(toJsonValue(value));
}

function toJsonValue(value: PickleValue): unknown {
  if (value instanceof PyTuple) return value.items.map(toJsonValue);
  if (value instanceof PyFloat) return value.value;
  if (value instanceof MemoRef)
    throw new Error('a MemoRef has no JSON form: pass the object itself');
  if (value instanceof Uint8Array) throw new Error('bytes have no JSON form');
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of value) out[String(key)] = toJsonValue(item);
    return out;
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = toJsonValue(item as PickleValue);
    return out;
  }
  return value;
}
