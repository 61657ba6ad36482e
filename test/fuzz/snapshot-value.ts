// The snapshot as a JS value to mutate (a seed decoded, tinySnapshot(), or a generated one), the
// places in it a mutation can replace, and values of the wrong type to put there. Written back
// with the test pickle writer (dumpValue) or as the JSON form (json-form-mutator.ts).

import { unpickle } from '../../src/shared/pickle/unpickler';
import { tinySnapshot } from '../support/hostile-files';
import {
  MemoRef,
  PyFloat,
  PyTuple,
  pyFloat,
  tuple,
  type PickleValue,
} from '../../generators/pickle/pickle-values';
import { dumpToBytes, type PickleProtocol } from '../../generators/pickle/pickle-writer';
import { pickSeed, type MutatorContext } from './mutator-kit';
import type { Prng } from './prng';
import { generateSnapshot, type Obj } from './snapshot-generator';

export interface Slot {
  category: string;
  path: string;
  holder: Obj | unknown[];
  key: string | number;
}

const CATEGORIES = [
  'top',
  'segment',
  'block',
  'history',
  'trace-list',
  'trace-entry',
  'frame',
  'stack',
  'annotation',
  'settings',
  'pool-id',
  'other',
] as const;

export function isPlainObject(value: unknown): value is Obj {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof PyTuple) &&
    !(value instanceof PyFloat) &&
    !(value instanceof MemoRef) &&
    !(value instanceof Uint8Array) &&
    !(value instanceof Map)
  );
}

type RecordKind =
  | 'root'
  | 'segments-list'
  | 'segment'
  | 'blocks-list'
  | 'block'
  | 'history-list'
  | 'history'
  | 'traces-list'
  | 'trace-list'
  | 'trace-entry'
  | 'frames-list'
  | 'frame'
  | 'annotations-list'
  | 'annotation'
  | 'settings'
  | 'other';

const CHILD_KIND: Partial<Record<RecordKind, Record<string, RecordKind>>> = {
  root: {
    segments: 'segments-list',
    device_traces: 'traces-list',
    traces: 'traces-list',
    allocator_settings: 'settings',
    external_annotations: 'annotations-list',
  },
  segment: { blocks: 'blocks-list', frames: 'frames-list' },
  block: { frames: 'frames-list', history: 'history-list' },
  history: { frames: 'frames-list' },
  'trace-entry': { frames: 'frames-list' },
};

const ITEM_KIND: Partial<Record<RecordKind, RecordKind>> = {
  'segments-list': 'segment',
  'blocks-list': 'block',
  'history-list': 'history',
  'traces-list': 'trace-list',
  'trace-list': 'trace-entry',
  'frames-list': 'frame',
  'annotations-list': 'annotation',
};

/** The category of a slot: which record a field belongs to, or which record a list item is. */
const SLOT_CATEGORY: Record<RecordKind, string> = {
  root: 'top',
  'segments-list': 'segment',
  segment: 'segment',
  'blocks-list': 'block',
  block: 'block',
  'history-list': 'history',
  history: 'history',
  'traces-list': 'trace-list',
  'trace-list': 'trace-entry',
  'trace-entry': 'trace-entry',
  'frames-list': 'stack',
  frame: 'frame',
  'annotations-list': 'annotation',
  annotation: 'annotation',
  settings: 'settings',
  other: 'other',
};

/** Every replaceable place in the snapshot, with what kind of record it belongs to. */
export function collectSlots(root: unknown): { slots: Slot[]; containers: object[] } {
  const slots: Slot[] = [];
  const containers: object[] = [];
  const seen = new Set<object>();
  const visit = (value: unknown, path: string, kind: RecordKind): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (value instanceof PyTuple) {
      value.items.forEach((_item, index) =>
        slots.push({
          category: 'pool-id',
          path: `${path}[${index}]`,
          holder: value.items as unknown[],
          key: index,
        }),
      );
      return;
    }
    if (Array.isArray(value)) {
      containers.push(value);
      const itemKind = ITEM_KIND[kind] ?? 'other';
      value.forEach((item, index) => {
        slots.push({
          category: SLOT_CATEGORY[kind],
          path: `${path}[${index}]`,
          holder: value,
          key: index,
        });
        visit(item, `${path}[${index}]`, itemKind);
      });
      return;
    }
    if (isPlainObject(value)) {
      containers.push(value);
      for (const key of Object.keys(value)) {
        slots.push({ category: SLOT_CATEGORY[kind], path: `${path}.${key}`, holder: value, key });
        visit(value[key], `${path}.${key}`, CHILD_KIND[kind]?.[key] ?? 'other');
      }
    }
  };
  visit(root, 'root', Array.isArray(root) ? 'segments-list' : 'root');
  return { slots, containers };
}

/**
 * A copy of a value graph that keeps its sharing (and the writer's wrapper classes). Tuples the
 * unpickler decoded (frozen arrays) become the writer's PyTuple, so they are written back as tuples
 * and can be mutated like the generated ones.
 */
function cloneGraph<T>(value: T): T {
  const copies = new Map<object, unknown>();
  const clone = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const known = copies.get(v);
    if (known !== undefined) return known;
    if (v instanceof PyTuple) {
      const items: unknown[] = [];
      const copy = new PyTuple(items as PickleValue[]);
      copies.set(v, copy);
      for (const item of v.items) items.push(clone(item));
      return copy;
    }
    if (v instanceof PyFloat || v instanceof MemoRef || v instanceof Uint8Array || v instanceof Map)
      return v;
    if (Array.isArray(v) && Object.isFrozen(v)) {
      const items: unknown[] = [];
      copies.set(v, new PyTuple(items as PickleValue[]));
      for (const item of v) items.push(clone(item));
      return copies.get(v);
    }
    if (Array.isArray(v)) {
      const copy: unknown[] = [];
      copies.set(v, copy);
      for (const item of v) copy.push(clone(item));
      return copy;
    }
    const copy: Obj = {};
    copies.set(v, copy);
    for (const [key, item] of Object.entries(v)) copy[key] = clone(item);
    return copy;
  };
  return clone(value) as T;
}

export function deepList(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function hostileValue(
  rng: Prng,
  containers: readonly object[],
  protocol: PickleProtocol,
): [unknown, string] | 'delete' {
  switch (rng.below(30)) {
    case 0:
      return ['x', "'x'"];
    case 1:
      return ['', "''"];
    case 2:
      return [rng.pick(['alloc', 'oom', 'inactive', 'large', 'START', '0,0']), 'a known word'];
    case 3:
      return [-1, '-1'];
    case 4:
      return [-(2 ** 31), '-2^31'];
    case 5:
      return [-(2 ** 53), '-2^53'];
    case 6:
      return [-(2n ** 70n), '-2^70'];
    case 7:
      return [pyFloat(Number.NaN), 'NaN'];
    case 8:
      return [pyFloat(rng.pick([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])), 'inf'];
    case 9:
      return [pyFloat(rng.pick([-0, 0, 1])), 'integral float'];
    case 10:
      return [rng.pick([1.5, 0.1, 1e300, -2.5]), 'float'];
    case 11:
      return [rng.pick([2 ** 53, 2 ** 60, 2 ** 64]), 'huge number'];
    case 12:
      return [rng.pick([2n ** 63n, 2n ** 64n - 1n, 2n ** 200n]), 'huge bigint'];
    case 13:
      return [null, 'None'];
    case 14:
      return [rng.chance(0.5), 'bool'];
    case 15:
      return [[], '[]'];
    case 16:
      return [[[[1]]], 'nested list'];
    case 17:
      return [[1, 'a', null, pyFloat(Number.NaN)], 'mixed list'];
    case 18:
      return [deepList(rng.pick([100, 1000, 2000])), 'deep list'];
    case 19:
      return [{}, '{}'];
    case 20:
      return [{ action: 'alloc', size: 1, addr: 1 }, 'a dict'];
    case 21:
      return [
        new Map<never, PickleValue>([
          [1 as never, 2],
          [tuple(1, 2) as never, 'x'],
        ]),
        'dict with non-str keys',
      ];
    case 22:
      return [tuple(), '()'];
    case 23:
      return [tuple(1, 2, 3, 4), 'tuple of 4'];
    case 24:
      return protocol >= 3 ? [Uint8Array.of(1, 2, 3), 'bytes'] : ['bytes', "'bytes'"];
    case 25:
    case 26:
    case 27:
      return containers.length > 0
        ? [rng.pick(containers), 'a shared object of the snapshot']
        : [null, 'None'];
    case 28:
      return rng.chance(0.5) ? 'delete' : ['x'.repeat(rng.logInt(1 << 20)), 'long string'];
    default:
      return [Array.from({ length: rng.logInt(100_000) }, (_v, i) => i), 'long list of ints'];
  }
}

export function applyWrongTypes(rng: Prng, root: unknown, protocol: PickleProtocol): string {
  const { slots, containers } = collectSlots(root);
  if (slots.length === 0) return 'nothing to replace';
  const notes: string[] = [];
  const count = rng.logInt(3);
  for (let i = 0; i < count; i++) {
    // Pick a record kind first, so rare kinds (settings, annotations) get their share.
    const present = CATEGORIES.filter((category) =>
      slots.some((slot) => slot.category === category),
    );
    const category = present.length > 0 && rng.chance(0.85) ? rng.pick(present) : null;
    const candidates =
      category === null ? slots : slots.filter((slot) => slot.category === category);
    const slot = rng.pick(candidates);
    const value = hostileValue(rng, containers, protocol);
    if (value === 'delete') {
      if (Array.isArray(slot.holder)) slot.holder.splice(slot.key as number, 1);
      else delete slot.holder[slot.key as string];
      notes.push(`${slot.path} deleted`);
    } else {
      if (Array.isArray(slot.holder)) slot.holder[slot.key as number] = value[0];
      else slot.holder[slot.key as string] = value[0];
      notes.push(`${slot.path} = ${value[1]}`);
    }
  }
  return notes.join('; ');
}

export interface SnapshotValue {
  root: unknown;
  protocol: PickleProtocol;
  seed: string;
}

/** A snapshot as a JS value to mutate: tinySnapshot(), a generated one, or a seed decoded. */
export function snapshotValue(ctx: MutatorContext): SnapshotValue {
  const { rng } = ctx;
  const roll = rng.next();
  if (roll < 0.25) {
    let root: unknown = null;
    tinySnapshot((snapshot) => {
      root = cloneGraph(snapshot);
    });
    return { root, protocol: 4, seed: 'tinySnapshot()' };
  }
  if (roll < 0.6) {
    const seed = pickSeed(ctx);
    try {
      const root = cloneGraph(unpickle(seed.bytes));
      const protocol = Math.min(5, Math.max(2, seed.bytes[1] ?? 4)) as PickleProtocol;
      return { root, protocol: protocol < 3 ? 3 : protocol, seed: `${seed.name} (as a value)` };
    } catch {
      // Not a plain pickle (never for the seeds we have): fall through to a generated one.
    }
  }
  const generated = generateSnapshot(rng);
  return {
    root: generated.root,
    protocol: generated.protocol,
    seed: `generated (protocol ${generated.protocol})`,
  };
}

export function dumpValue(value: SnapshotValue): Uint8Array {
  return dumpToBytes(value.root as PickleValue, { protocol: value.protocol });
}

export function traceListsOf(root: unknown): Obj[][] {
  if (!isPlainObject(root)) return [];
  const lists = root.device_traces ?? root.traces;
  return Array.isArray(lists) ? (lists.filter((list) => Array.isArray(list)) as Obj[][]) : [];
}
