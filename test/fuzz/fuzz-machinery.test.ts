// The fuzz suite's own parts: deterministic cases, a scanner that reaches STOP, an oracle that
// accepts a good file and names bad figures, a minimizer that shrinks.

import { describe, expect, it } from 'vitest';
import { tinySnapshot } from '../support/hostile-files';
import { Op } from '../../src/shared/pickle/opcodes';
import { generatedSeeds } from './corpus';
import { minimize } from './minimize';
import { makeCase, MUTATOR_NAMES, QUICK_PROFILE } from './mutators';
import { badNumbers, defectSignature, runCase } from './oracle';
import { scanPickle } from './pickle-scan';

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
});
