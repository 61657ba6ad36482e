// The byte-level fast path reads the newest fields itself (pool_id tuples, forward_frames lists
// of strings, unknown keys); whatever the bytes, it must reach the verdict the generic path
// reaches: the same refusal, or the same model. Checked on a snapshot with every newest field,
// cut and flipped at many places.

import { describe, expect, it } from 'vitest';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import { Prng } from '../../generators/snapshot/prng';
import { makeNewestSnapshot } from '../../generators/snapshot/newest-fields-snapshot';
import { NO_LIST } from '../../src/shared/snapshot/model';
import { decodeBytes } from '../support/analyzed';

const bytes = dumpToBytes(makeNewestSnapshot({ seed: 2 }).value);

async function verdict(input: Uint8Array, fastTraceEntries: boolean): Promise<string> {
  try {
    const model = await decodeBytes(input, { fastTraceEntries });
    return JSON.stringify(model, (_key, value: unknown) =>
      ArrayBuffer.isView(value)
        ? Array.from(value as Uint8Array)
        : value instanceof Map
          ? [...value]
          : value,
    );
  } catch (error) {
    return `refused: ${error instanceof Error ? error.message : String(error)}`;
  }
}

describe('the fast path on the newest fields', () => {
  it('decodes the intact file as the generic path does', async () => {
    const fast = await verdict(bytes, true);
    expect(fast.startsWith('refused')).toBe(false);
    expect(fast).toBe(await verdict(bytes, false));
  });

  it('agrees with the generic path on 300 damaged copies', async () => {
    const prng = new Prng(9);
    let refused = 0;
    for (let i = 0; i < 300; i++) {
      const copy = bytes.slice(0, i % 3 === 0 ? prng.int(2, bytes.length - 1) : bytes.length);
      if (i % 3 !== 0) {
        for (let flips = 0; flips < 1 + (i % 4); flips++) {
          copy[prng.int(2, copy.length - 2)] = prng.int(0, 255);
        }
      }
      const [fast, generic] = await Promise.all([verdict(copy, true), verdict(copy, false)]);
      expect(fast, `case ${i}`).toBe(generic);
      if (fast.startsWith('refused')) refused++;
    }
    // Both outcomes occur: the damage is not all fatal, nor all harmless.
    expect(refused).toBeGreaterThan(10);
    expect(refused).toBeLessThan(300);
  });
});

describe('slots of one trace entry never leak into the next', () => {
  // The fast path does not clear its value slots between entries (only their kinds): an entry
  // without a key must read as absent even when the entry before had a value there.
  it('reads an annotation without a time or text after entries that had both', async () => {
    const frames = [{ filename: 'train.py', line: 3, name: 'step' }];
    const entry = (fields: Record<string, unknown>) => ({ stream: 0, frames, ...fields });
    const snapshot = {
      segments: [],
      device_traces: [
        [
          entry({ action: 'alloc', addr: 4096, size: 512, time_us: 1000, user_metadata: 'a' }),
          entry({ action: 'annotate', addr: 4096, size: 0, time_us: 'soon', user_metadata: 'b' }),
          entry({ action: 'annotate', addr: 4096, size: 0 }),
        ],
      ],
    };
    const input = dumpToBytes(snapshot as never);
    const fast = await verdict(input, true);
    expect(fast.startsWith('refused')).toBe(false);
    expect(fast).toBe(await verdict(input, false));
    const model = await decodeBytes(input, { fastTraceEntries: true });
    expect(model.strings).toEqual(['a', 'b']);
  });
});

describe('an empty forward_frames', () => {
  // The fast path interned [] as a list of the table that no row named, where the generic path
  // reads it as none: the two models differed (fuzz campaign seed 20261128, case 17827).
  it('is none on both paths, and no list of the table', async () => {
    const frames = [{ filename: 'train.py', line: 3, name: 'step' }];
    const entry = (fields: Record<string, unknown>) => ({ stream: 0, frames, ...fields });
    const snapshot = {
      segments: [],
      device_traces: [
        [
          entry({ action: 'alloc', addr: 4096, size: 512, forward_frames: [] }),
          entry({ action: 'alloc', addr: 8192, size: 512, forward_frames: ['model.py:7', 'x'] }),
          entry({ action: 'alloc', addr: 12288, size: 512, forward_frames: [] }),
        ],
      ],
    };
    const input = dumpToBytes(snapshot as never);
    const fast = await verdict(input, true);
    expect(fast.startsWith('refused')).toBe(false);
    expect(fast).toBe(await verdict(input, false));
    const model = await decodeBytes(input, { fastTraceEntries: true });
    expect(Array.from(model.forwardFrames!.offsets)).toEqual([0, 2]);
    expect(Array.from(model.traces[0]!.forwardFramesId!)).toEqual([NO_LIST, 0, NO_LIST]);
  });
});
