// The test pickle writer must write what CPython writes: Python has to load every output to the
// same value, and for each protocol the bytes must equal CPython's own pickle.dumps of the value
// with the same sharing (checked both by re-dumping what Python loaded and, for protocol 4, by
// building the same structure in Python source).

import { afterAll, describe, expect, it } from 'vitest';
import { startPythonOracle } from '../support/python-oracle';
import {
  dumpToBytes,
  PickleWriter,
  type PickleProtocol,
} from '../../generators/pickle/pickle-writer';
import {
  MemoRef,
  PyFloat,
  PyTuple,
  pyFloat,
  tuple,
  type PickleValue,
} from '../../generators/pickle/pickle-values';

const PROTOCOLS: readonly PickleProtocol[] = [2, 3, 4, 5];

/** Python's view of a value, as JSON that keeps int / float / tuple / bytes apart. */
const TAG_PY = `
import json, pickle, struct, sys
def tag(v):
    if v is None or isinstance(v, (bool, str)): return v
    if isinstance(v, int): return {"i": str(v)}
    if isinstance(v, float): return {"f": struct.pack(">d", v).hex()}
    if isinstance(v, list): return [tag(x) for x in v]
    if isinstance(v, tuple): return {"t": [tag(x) for x in v]}
    if isinstance(v, dict): return {"d": [[tag(k), tag(x)] for k, x in v.items()]}
    if isinstance(v, bytes): return {"b": v.hex()}
    raise TypeError(type(v))
`;

const oracle = startPythonOracle();
afterAll(() => oracle.close());

function python(script: string, input?: Uint8Array): Promise<string> {
  return oracle.run(script, input);
}

async function pythonTagged(bytes: Uint8Array): Promise<unknown> {
  return JSON.parse(await python(`${TAG_PY}\nprint(json.dumps(tag(pickle.loads(INPUT))))`, bytes));
}

/** CPython's bytes for the value Python loaded from ours (same sharing, since loading keeps it). */
async function pythonRedump(bytes: Uint8Array, protocol: number): Promise<string> {
  return (
    await python(
      `import pickle\nv = pickle.loads(INPUT)\nprint(pickle.dumps(v, ${protocol}).hex())`,
      bytes,
    )
  ).trim();
}

async function pythonEval(bytes: Uint8Array, expression: string): Promise<unknown> {
  return JSON.parse(
    await python(
      `import json, pickle\nv = pickle.loads(INPUT)\nprint(json.dumps(${expression}))`,
      bytes,
    ),
  );
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

function floatHex(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x, false);
  return hex(new Uint8Array(view.buffer));
}

/** The JS side of TAG_PY. */
function tag(v: PickleValue): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') {
    return Number.isInteger(v) ? { i: BigInt(v).toString() } : { f: floatHex(v) };
  }
  if (typeof v === 'bigint') return { i: v.toString() };
  if (v instanceof PyFloat) return { f: floatHex(v.value) };
  if (v instanceof PyTuple) return { t: v.items.map(tag) };
  if (v instanceof Uint8Array) return { b: hex(v) };
  if (v instanceof MemoRef) throw new Error('no MemoRef in expected values');
  if (Array.isArray(v)) return v.map(tag);
  if (v instanceof Map) return { d: [...v.entries()].map(([k, x]) => [tag(k), tag(x)]) };
  return { d: Object.entries(v).map(([k, x]) => [k, tag(x)]) };
}

function frame(name: string, filename: string, line: number | bigint): PickleValue {
  return { name, filename, line };
}

function sampleValues(): Record<string, PickleValue> {
  const f1 = frame('forward', '/home/user/model.py', 42);
  const f2 = frame(
    '_call_impl',
    '/opt/conda/lib/python3.11/site-packages/torch/nn/modules/module.py',
    1747,
  );
  const f3 = frame('start_thread', '??', 2n ** 64n - 1n);
  const stack = [f1, f2, f3];
  const pool = tuple(0, 0);
  const manyFrames = Array.from({ length: 300 }, (_, i) =>
    frame(`fn_${i % 37}`, `/src/file_${i % 11}.py`, i),
  );
  return {
    scalars: {
      none: null,
      t: true,
      f: false,
      zero: 0,
      small: 255,
      int2: 256,
      int2max: 65535,
      int4: 65536,
      int31: 0x7fffffff,
      long1: 0x80000000,
      neg1: -1,
      neg129: -129,
      negInt32: -0x80000000,
      negLong: -0x80000001,
      addr: 140_737_488_355_328,
      timeUs: 1_712_345_678_901_234,
      maxSafe: Number.MAX_SAFE_INTEGER,
      minSafe: Number.MIN_SAFE_INTEGER,
      u64max: 2n ** 64n - 1n,
      i64min: -(2n ** 63n),
      i64minMinus: -(2n ** 63n) - 1n,
      huge: 2n ** 2100n + 12345n,
      hugeNeg: -(2n ** 2100n),
      pow256: 256n ** 255n,
      half: 0.5,
      negFloat: -1.25,
      big: 1e308,
      tiny: 5e-324,
      one: pyFloat(1),
      negZero: pyFloat(-0),
      nan: NaN,
      inf: -Infinity,
      unicode: 'héllo wörld ✓ 𝄞 日本語',
      empty: '',
    },
    nested: {
      list: [1, [2, [3, [4, []]]], {}],
      tuples: [
        tuple(),
        tuple(1),
        tuple(1, 'a'),
        tuple(1, 'a', null),
        tuple(1, 2, 3, 4, 5),
        tuple(tuple(), tuple(0)),
      ],
      map: new Map<string | number | PyTuple, PickleValue>([
        [1, 'one'],
        ['1', 'string one'],
        [tuple(0, 0), 'pool'],
      ]),
    },
    // bytes need protocol 3+ (protocol 2 pickles them through a REDUCE, which is not plain data).
    bytes: {
      short: new Uint8Array([0, 1, 2, 255]),
      medium: new Uint8Array(300).fill(7),
      long: new Uint8Array(66_000).fill(3),
      list: [new Uint8Array(0), 'after'],
    },
    sharedFrames: {
      segments: [
        {
          address: 139_637_976_727_552,
          frames: stack,
          blocks: [{ frames: stack }, { frames: [f1, f2] }],
        },
      ],
      device_traces: [
        [
          { action: 'alloc', frames: [f1, f2, f3] },
          { action: 'free_requested', frames: stack },
        ],
        [],
      ],
      segment_pool_id: [pool, pool, tuple(0, 0)],
    },
    batches: {
      l1: [1],
      l2: [1, 2],
      l999: Array.from({ length: 999 }, (_, i) => i),
      l1000: Array.from({ length: 1000 }, (_, i) => i),
      l1001: Array.from({ length: 1001 }, (_, i) => i),
      l2500: Array.from({ length: 2500 }, (_, i) => i * 1000),
      d1: { only: 1 },
      d1000: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i])),
      d1001: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i])),
      m2000: new Map(Array.from({ length: 2000 }, (_, i) => [i, -i] as const)),
    },
    manyMemo: {
      frames: manyFrames,
      again: manyFrames.slice(0, 50),
      strings: manyFrames.map((_, i) => `s${i}`),
    },
    bigFrames: {
      // > 64 KiB forces several frames; the long str bypasses framing.
      before: Array.from({ length: 20_000 }, (_, i) => ({
        addr: 140_000_000_000_000 + i * 512,
        size: i,
      })),
      longText: 'x'.repeat(70_000) + 'é',
      after: Array.from({ length: 20_000 }, (_, i) => [i, `v${i % 100}`]),
    },
  };
}

describe('PickleWriter vs CPython', () => {
  const values = sampleValues();
  for (const [name, value] of Object.entries(values)) {
    for (const protocol of PROTOCOLS) {
      if (name === 'bytes' && protocol < 3) continue;
      it(`${name}, protocol ${protocol}: Python loads it, and re-dumps the same bytes`, async () => {
        const bytes = dumpToBytes(value, { protocol });
        expect(bytes[0]).toBe(0x80);
        expect(bytes[1]).toBe(protocol);
        // As JSON text: a deep comparison of 40,000 entries costs seconds, the text milliseconds.
        expect(JSON.stringify(await pythonTagged(bytes))).toBe(JSON.stringify(tag(value)));
        expect(await pythonRedump(bytes, protocol)).toBe(hex(bytes));
      });
    }
  }

  it('refuses bytes at protocol 2', () => {
    expect(() => dumpToBytes(new Uint8Array(1), { protocol: 2 })).toThrow(/protocol 3/);
  });

  it('keeps JS identity as Python identity', async () => {
    const bytes = dumpToBytes(values.sharedFrames!);
    const checks = await pythonEval(
      bytes,
      `[v['segments'][0]['frames'] is v['device_traces'][0][1]['frames'],
        v['segments'][0]['blocks'][0]['frames'] is v['segments'][0]['frames'],
        v['device_traces'][0][0]['frames'] is v['segments'][0]['frames'],
        v['device_traces'][0][0]['frames'][0] is v['segments'][0]['frames'][0],
        v['segment_pool_id'][0] is v['segment_pool_id'][1],
        v['segment_pool_id'][0] is v['segment_pool_id'][2]]`,
    );
    expect(checks).toEqual([true, true, false, true, true, false]);
  });

  it('protocol 4 matches pickle.dumps of the same structure built in Python', async () => {
    const f1 = frame('forward', '/home/user/model.py', 42);
    const f2 = frame('start_thread', '??', 2n ** 64n - 1n);
    const stack = [f1, f2];
    const entries = Array.from({ length: 3000 }, (_, i) => ({
      action: i % 2 === 0 ? 'alloc' : 'free_completed',
      addr: 139_637_976_727_552 + (i % 7) * 512,
      size: 1024 * (i + 1),
      stream: 0,
      time_us: 1_712_345_678_901_234 + i,
      compile_context: 'N/A',
      frames: i % 3 === 0 ? stack : [f1, f2],
    }));
    const value: PickleValue = {
      segments: [
        {
          device: 0,
          address: 139_637_976_727_552,
          segment_pool_id: tuple(0, 0),
          is_expandable: false,
          frames: stack,
          blocks: [{ state: 'active_allocated', frames: stack }],
        },
      ],
      device_traces: [entries, []],
      allocator_settings: {
        max_split_size: -1,
        garbage_collection_threshold: pyFloat(0),
        ratio: 0.25,
      },
      external_annotations: [
        { stage: 'START', name: 'ProfilerStep#3', device: 0, time_us: 1_712_345_678_901_234 },
      ],
      text: 'héllo ✓ 𝄞',
    };
    const expected = (
      await python(`
import pickle
f1 = {'name': 'forward', 'filename': '/home/user/model.py', 'line': 42}
f2 = {'name': 'start_thread', 'filename': '??', 'line': 2**64 - 1}
stack = [f1, f2]
entries = [{'action': 'alloc' if i % 2 == 0 else 'free_completed',
            'addr': 139637976727552 + (i % 7) * 512, 'size': 1024 * (i + 1), 'stream': 0,
            'time_us': 1712345678901234 + i, 'compile_context': 'N/A',
            'frames': stack if i % 3 == 0 else [f1, f2]} for i in range(3000)]
value = {
    'segments': [{'device': 0, 'address': 139637976727552, 'segment_pool_id': (0, 0),
                  'is_expandable': False, 'frames': stack,
                  'blocks': [{'state': 'active_allocated', 'frames': stack}]}],
    'device_traces': [entries, []],
    'allocator_settings': {'max_split_size': -1, 'garbage_collection_threshold': 0.0, 'ratio': 0.25},
    'external_annotations': [{'stage': 'START', 'name': 'ProfilerStep#3', 'device': 0, 'time_us': 1712345678901234}],
    'text': 'h\\u00e9llo \\u2713 \\U0001d11e',
}
print(pickle.dumps(value, 4).hex())
`)
    ).trim();
    expect(hex(dumpToBytes(value, { protocol: 4 }))).toBe(expected);
  });
});

describe('PickleWriter streaming', () => {
  /** Streams every container except those in `whole` (shared ones), announcing sizes so that
   *  one-item containers come out as CPython writes them. */
  function stream(w: PickleWriter, v: PickleValue, whole: Set<unknown>): void {
    const isLeaf = (x: PickleValue): boolean => x === null || typeof x !== 'object' || whole.has(x);
    if (Array.isArray(v) && !whole.has(v) && (v as PickleValue[]).every(isLeaf)) {
      // Lists of leaves go through newList(), the fast path for throwaway lists.
      w.newList(v as PickleValue[]);
    } else if (Array.isArray(v) && !whole.has(v)) {
      w.beginList(v.length);
      for (const item of v as PickleValue[]) stream(w, item, whole);
      w.endList();
    } else if (
      v !== null &&
      typeof v === 'object' &&
      Object.getPrototypeOf(v) === Object.prototype &&
      !whole.has(v)
    ) {
      w.beginDict(Object.keys(v).length);
      for (const [k, x] of Object.entries(v as Record<string, PickleValue>)) {
        w.key(k);
        stream(w, x, whole);
      }
      w.endDict();
    } else {
      w.value(v);
    }
  }

  function streamToBytes(
    v: PickleValue,
    whole: Set<unknown>,
    protocol: PickleProtocol,
  ): Uint8Array {
    const chunks: Buffer[] = [];
    const w = new PickleWriter((chunk) => chunks.push(Buffer.from(chunk)), { protocol });
    w.start();
    stream(w, v, whole);
    w.finish();
    expect(w.bytesWritten).toBe(Buffer.concat(chunks).length);
    return new Uint8Array(Buffer.concat(chunks));
  }

  for (const protocol of PROTOCOLS) {
    it(`writes the same bytes as dump(), protocol ${protocol}`, async () => {
      const f1 = frame('forward', '/home/user/model.py', 42);
      const stack = [f1, frame('main', 'train.py', 7)];
      const value: PickleValue = {
        segments: [
          { address: 1, frames: stack, blocks: [{ frames: stack }] },
          { a: 1, b: [] },
        ],
        device_traces: [
          Array.from({ length: 2001 }, (_, i) => ({ action: 'alloc', addr: i, frames: [f1] })),
          [{ action: 'oom', device_free: 5 }],
          [],
        ],
        d1000: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, [i, i]])),
        d2: { x: [1], y: { z: 1 } },
        one: [[{ k: [{ a: 1, b: 2 }] }]],
        leaves: [[], [1], [f1, 'x', 2.5], Array.from({ length: 1500 }, (_, i) => i), [[f1]]],
        tail: 'end',
      };
      const whole = new Set<unknown>([stack, f1]);
      const bytes = streamToBytes(value, whole, protocol);
      expect(hex(bytes)).toBe(hex(dumpToBytes(value, { protocol })));
      // As JSON text: a deep comparison of 40,000 entries costs seconds, the text milliseconds.
      expect(JSON.stringify(await pythonTagged(bytes))).toBe(JSON.stringify(tag(value)));
    });
  }

  it('returns memo indices that MemoRef can point back to', async () => {
    const chunks: Buffer[] = [];
    const w = new PickleWriter((chunk) => chunks.push(Buffer.from(chunk)));
    w.start();
    w.beginList();
    const inner = w.beginList();
    w.value('a');
    w.value('b');
    w.endList();
    w.value(new MemoRef(inner));
    w.endList();
    w.finish();
    const bytes = new Uint8Array(Buffer.concat(chunks));
    expect(await pythonEval(bytes, '[v, v[0] is v[1]]')).toEqual([
      [
        ['a', 'b'],
        ['a', 'b'],
      ],
      true,
    ]);
  });

  it('stays loadable when the only item of a list is streamed (MARK form)', async () => {
    const chunks: Buffer[] = [];
    const w = new PickleWriter((chunk) => chunks.push(Buffer.from(chunk)), { protocol: 2 });
    w.start();
    w.beginList();
    w.beginDict();
    w.setItem('k', 1);
    w.endDict();
    w.endList();
    w.finish();
    expect(await pythonTagged(new Uint8Array(Buffer.concat(chunks)))).toEqual([
      { d: [['k', { i: '1' }]] },
    ]);
  });

  it('rejects misuse', () => {
    const w = new PickleWriter(() => {});
    expect(() => w.value(1)).toThrow(/start/);
    w.start();
    w.beginDict();
    expect(() => w.value(1)).toThrow(/key/);
    w.key('a');
    expect(() => w.endDict()).toThrow();
    const v = new PickleWriter(() => {});
    v.start();
    v.beginList(1);
    v.value(1);
    expect(() => v.value(2)).toThrow(/one/);
    expect(() => new PickleWriter(() => {}, { protocol: 1 as PickleProtocol })).toThrow(RangeError);
  });
});
