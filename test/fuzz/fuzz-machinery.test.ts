// The fuzz suite's own parts: deterministic cases, a scanner that reaches STOP, an oracle that
// accepts a good file and names bad figures, a minimizer that shrinks.

import { readFileSync } from 'node:fs';
import { crc32, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tinySnapshot } from '../support/hostile-files';
import { realSnapshotPath } from '../support/real-snapshots';
import { decodeInParts } from '../../src/shared/snapshot/decode-in-parts';
import { decodeSnapshot } from '../../src/shared/snapshot/decode-snapshot';
import { Op } from '../../src/shared/pickle/opcodes';
import { unpickle } from '../../src/shared/pickle/unpickler';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import { pyFloat } from '../../generators/pickle/pickle-values';
import { generatedSeeds } from './corpus';
import { crc32Repeated, gzipHeader, gzipTrailer, highRatio, PLAIN_HEADER } from './gzip-build';
import { jsonTextOf } from './json-text';
import { minimize } from './minimize';
import { ascii, concat, repeat, shown } from './mutator-kit';
import { makeCase, MUTATOR_NAMES, QUICK_PROFILE } from './mutators';
import {
  badNumbers,
  controlCharacterDefects,
  DEFAULT_LIMITS,
  defectSignature,
  runCase,
} from './oracle';
import { scanPickle } from './pickle-scan';
import { deepJson, deepPickle, RawValues } from './raw-values';

/** How deep the first items of nested lists and dicts go (iteratively: no recursion limit). */
function depthOf(value: unknown): number {
  let depth = 0;
  let at = value;
  while (typeof at === 'object' && at !== null) {
    depth++;
    at = Array.isArray(at) ? at[0] : (at as Record<string, unknown>).a;
  }
  return depth;
}

describe('fuzz machinery', () => {
  const seeds = generatedSeeds();

  it('scans a pickle opcode by opcode up to its STOP', () => {
    const bytes = tinySnapshot();
    const scan = scanPickle(bytes);
    expect(scan.stopAt).toBe(bytes.length - 1);
    expect(scan.ops[0]!.op).toBe(Op.PROTO);
    expect(scan.memoCount).toBeGreaterThan(5);
  });

  it('makes the same case from the same seed and index, and lets every mutator take turns', () => {
    for (let index = 0; index < MUTATOR_NAMES.length * 2; index++) {
      const a = makeCase(5, index, seeds, QUICK_PROFILE);
      const b = makeCase(5, index, seeds, QUICK_PROFILE);
      expect(a.mutator).toBe(MUTATOR_NAMES[index % MUTATOR_NAMES.length]);
      expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
      expect(a.note).toBe(b.note);
    }
  });

  it('passes a good snapshot and a clean refusal', async () => {
    const good = await runCase(tinySnapshot());
    expect(good.verdict).toBe('opened');
    expect(good.defects).toEqual([]);
    const cut = await runCase(tinySnapshot().subarray(0, 100));
    expect(cut.verdict).toBe('refused');
    expect(cut.message).toMatch(/truncated/);
  });

  it('decodes a framed pickle in parts too, and names a decode in parts that is not the serial one', async () => {
    // A real snapshot of protocol 4 that the plan cuts (in 2 or 3 parts, by its length).
    const bytes = new Uint8Array(readFileSync(realSnapshotPath('silmont2000')));
    const good = await runCase(bytes);
    expect(good.defects).toEqual([]);
    const partsStep = good.steps.find((step) => step.name.startsWith('parts: '));
    expect(partsStep?.name).toBe(`parts: ${2 + (bytes.length % 2)} threads' decode, played on one`);
    // The product's decoder does cut it: its model is the serial one.
    expect(await decodeInParts(bytes, 2 + (bytes.length % 2))).not.toBeNull();

    // A decoder that answers another file's model, or opens a file the serial decoder refuses.
    const other = await decodeSnapshot(
      (async function* () {
        yield tinySnapshot();
      })(),
    );
    const wrong = { ...DEFAULT_LIMITS, partsDecoder: async () => other };
    expect((await runCase(bytes, {}, wrong)).defects.map((defect) => defect.check)).toEqual([
      'parts-differ',
    ]);
    const refused = await runCase(bytes.subarray(0, 5000), {}, wrong);
    expect(refused.verdict).toBe('defect');
    expect(refused.defects.map((defect) => defect.check)).toEqual(['parts-differ']);
    // Giving up (null, or throwing: the product catches it) is the fallback to one thread.
    const givesUp = async () => Promise.reject(new Error('a part was lost'));
    const outcome = await runCase(bytes, {}, { ...DEFAULT_LIMITS, partsDecoder: givesUp });
    expect(outcome.defects).toEqual([]);
  });

  it('names negative and non-finite figures, but not signed fields or -1 moments', () => {
    const document = {
      reserved_bytes: { final: -1, peak: Number.NaN },
      active_bytes: { peak_event_index: -1 },
      atPeak: { event: -1, totals: { internalWasteBytes: -5 } },
      groups: [{ stream: -3, cachedFreeBytes: Number.POSITIVE_INFINITY }],
      allocator_settings: { max_split_size: -1 },
    };
    expect(badNumbers(document)).toEqual([
      'reserved_bytes.final = -1',
      'reserved_bytes.peak = NaN',
      'groups[0].cachedFreeBytes = Infinity',
    ]);
  });

  it('groups defects that differ only in numbers', () => {
    const a = defectSignature({
      check: 'memory',
      message: 'grew by 301 MiB at byte 12',
      detail: '',
    });
    const b = defectSignature({
      check: 'memory',
      message: 'grew by 999 MiB at byte 7',
      detail: '',
    });
    expect(a).toBe(b);
  });

  it('minimizes an input while the predicate holds', async () => {
    const input = new Uint8Array(1000).fill(1);
    input[700] = 9;
    const small = await minimize(input, async (candidate) => candidate.includes(9));
    expect(Array.from(small)).toEqual([9]);
  });

  it('builds high-ratio gzip members that zlib inflates, CRC-32 and ISIZE right', () => {
    const prefix = ascii('{"device_traces": [');
    const suffix = ascii(']}');
    const body = highRatio(prefix, ascii('{}, '), 8 << 20, suffix);
    const member = concat(
      gzipHeader(PLAIN_HEADER),
      body.deflated,
      gzipTrailer(body.crc, body.size),
    );
    expect(member.length).toBeLessThan(body.size / 500);
    const inflated = gunzipSync(member);
    expect(inflated.length).toBe(body.size);
    expect(inflated.subarray(0, prefix.length).toString()).toBe('{"device_traces": [');
    expect(inflated.subarray(inflated.length - 6).toString()).toBe('{}, ]}');
    const block = ascii('abc');
    expect(crc32Repeated(crc32(block), block.length, 1001)).toBe(crc32(repeat(block, 1001)));
  });

  it('splices values nested too deep for the writers into a pickle and the JSON form', () => {
    for (const shape of ['list', 'dict', 'list-of-dict'] as const) {
      const raw = new RawValues();
      const value = { user_metadata: raw.add(deepJson(shape, 6), deepPickle(shape, 6)), x: 1 };
      for (const protocol of [2, 4] as const) {
        const pickled = unpickle(raw.spliceIntoPickle(dumpToBytes(value, { protocol })));
        const json = JSON.parse(raw.spliceIntoJson(JSON.stringify(value))!) as unknown;
        expect(JSON.parse(JSON.stringify(pickled))).toEqual(json);
      }
    }
    const raw = new RawValues();
    const deep = { v: raw.add(deepJson('list', 50_000), deepPickle('list', 50_000)) };
    const decoded = unpickle(raw.spliceIntoPickle(dumpToBytes(deep))) as { v: unknown };
    expect(depthOf(decoded.v)).toBe(50_000);
    expect(raw.spliceIntoJson(JSON.stringify(deep), 1000)).toBeNull();
  });

  it('writes hostile values as json.dumps would, cycles as null', () => {
    const cycle: unknown[] = [1];
    cycle.push(cycle);
    const value = { big: 2n ** 70n, nan: pyFloat(Number.NaN), one: pyFloat(1), cycle };
    expect(jsonTextOf(value, { nonFinite: 'python', maxChars: 1000 })).toBe(
      '{"big": 1180591620717411303424, "nan": NaN, "one": 1.0, "cycle": [1, null]}',
    );
    expect(jsonTextOf(value, { nonFinite: 'null', maxChars: 10 })).toBeNull();
  });

  it('names control characters in text outputs, not newlines and tabs', () => {
    const defects = controlCharacterDefects([
      { name: 'summary text', text: 'fine\n\tfine' },
      { name: 'top text', text: 'model.py:1 evil\u001b[31mred', variant: '--by frame' },
      { name: 'top text', text: 'again\u009b' },
      { name: 'report text', text: 'C1 \u0085 next line' },
    ]);
    expect(defects.map((defect) => defect.message)).toEqual([
      'top text holds control character U+001B',
      'report text holds control character U+0085',
    ]);
    // Notes of cases are printed too: what a terminal acts on is escaped there.
    expect(shown('a\u009b2J\u001b\u202e')).toBe('"a\\u009b2J\\u001b\\u202e"');
  });
});
