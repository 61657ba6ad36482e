// Damaged memory timelines (the recorded ones cut short, a number replaced by another token,
// tuples shuffled) either open or are refused in words (UnreadableInputError): never a crash,
// never a bug report. Planted shapes get the exact refusal docs/bad-input.md gives.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { isUnreadableInput } from '../../src/shared/errors/unreadable-input';
import { buildAnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { decodeSnapshot } from '../../src/shared/snapshot/decode-snapshot';
import { chunksOf } from '../support/analyzed';

const DIR = resolve(import.meta.dirname, '../fixtures/profiler');
const TEXTS = {
  levels: readFileSync(resolve(DIR, 'leak.memory-timeline.json'), 'utf8'),
  raw: gunzipSync(readFileSync(resolve(DIR, 'leak.memory-timeline.raw.json.gz'))).toString(),
};

async function outcome(text: string): Promise<'opened' | string> {
  try {
    const model = await decodeSnapshot(chunksOf(new TextEncoder().encode(text), 4096));
    buildAnalyzedSnapshot(model, { fileName: 'x', fileBytes: text.length });
    return 'opened';
  } catch (error) {
    if (isUnreadableInput(error)) return (error as Error).message;
    throw error;
  }
}

/** A small seeded generator (mulberry32): the same damage every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKENS = ['-1', '0', '1e400', '"x"', 'null', '[]', '{}', '1.5', '-99999999', '9'];

describe('damaged memory timelines are opened or refused in words', () => {
  for (const [form, text] of Object.entries(TEXTS)) {
    it(`${form}: cut short anywhere`, async () => {
      const next = random(7);
      for (let i = 0; i < 40; i++) {
        const at = Math.floor(next() * text.length);
        const result = await outcome(text.slice(0, at));
        // Cut inside the document: never a valid one.
        expect(result).not.toBe('opened');
      }
    });

    it(`${form}: a number replaced by another token`, async () => {
      const next = random(11);
      const numbers = [...text.matchAll(/-?\d+/g)];
      for (let i = 0; i < 60; i++) {
        const match = numbers[Math.floor(next() * numbers.length)]!;
        const token = TOKENS[Math.floor(next() * TOKENS.length)]!;
        const damaged =
          text.slice(0, match.index) + token + text.slice(match.index + match[0].length);
        await outcome(damaged);
      }
    });
  }

  it('raw: tuples out of time order are refused where time goes back', async () => {
    const tuples = JSON.parse(TEXTS.raw) as number[][];
    const swapped = [...tuples];
    [swapped[20], swapped[40]] = [swapped[40]!, swapped[20]!];
    expect(await outcome(JSON.stringify(swapped))).toMatch(
      /^not a PyTorch memory timeline of a known shape: its times go back at \[21\]/,
    );
  });
});
