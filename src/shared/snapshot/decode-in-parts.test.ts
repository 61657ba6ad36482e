import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../../generators/snapshot/generate-large-snapshot';
import { decodeBytes } from '../../../test/support/analyzed';
import { fileLikeSource } from '../../../test/support/byte-sources';
import { realSnapshotPaths } from '../../../test/support/real-snapshots';
import {
  decodeInParts,
  decodeScannedPart,
  joinParts,
  layOutParts,
  scanPart,
} from './decode-in-parts';
import { partShares } from './part-shares';
import { NOT_SCANNED, opcodeEnd } from '../pickle/opcode-scan';
import { Op } from '../pickle/opcodes';

const CUDA_FIXTURES = ['expandable.pickle', 'leak.pickle', 'oom.pickle'].map((name) =>
  join('test/fixtures/cuda-h200', name),
);

/** Decodes in 2, 3 and 7 parts; each model must equal the serial one. Returns how many split. */
async function expectSameModelInParts(
  bytes: Uint8Array,
  splits: readonly number[] = [2, 3, 7],
): Promise<number> {
  const serial = await decodeBytes(bytes);
  let split = 0;
  for (const parts of splits) {
    if (layOutParts(bytes, parts) === null) continue;
    const model = await decodeInParts(bytes, parts);
    expect(model, `${parts} parts fell back`).not.toBeNull();
    expect(model).toEqual(serial);
    // The CLI's cuts (a larger first part: part-shares.ts), read as the CLI's threads read a
    // file: at the first count (the CLI's jobs tests run the built command at 2 and 7).
    if (parts === splits[0]) {
      const fromFile = await decodeInParts(fileLikeSource(bytes), parts, partShares(parts));
      expect(fromFile, `${parts} parts read at offsets fell back`).not.toBeNull();
      expect(fromFile).toEqual(serial);
    }
    split++;
  }
  return split;
}

describe('a pickle decoded in parts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'allocscope-parts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the serial model for every real snapshot that can be cut', async () => {
    const split: string[] = [];
    for (const path of [...realSnapshotPaths(), ...CUDA_FIXTURES]) {
      const bytes = new Uint8Array(readFileSync(path));
      if ((await expectSameModelInParts(bytes, [2, 7])) > 0) split.push(basename(path));
    }
    // Files of one frame (the CUDA ones), and those whose trace starts past the middle of the
    // file, stay on one worker.
    expect(split.map((name) => name.split('_')[0])).toEqual([
      'Constructor-Sun',
      'LINYUNLinYun',
      'Maphsge4',
      'cherryni2022',
      'kkaitlyn111',
      'silmont2000',
    ]);
  });

  it('gives the serial model for a generated snapshot of two devices (parts cross a list end)', async () => {
    const path = join(dir, 'generated.pickle');
    generateLargeSnapshot(path, 2_000_000, { seed: 11 });
    const bytes = new Uint8Array(readFileSync(path));
    expect(await expectSameModelInParts(bytes)).toBe(3);
  });
});

describe('a damaged pickle decoded in parts', () => {
  // Byte flips inside the later parts (where a part decodes on its own): in parts, the file
  // either decodes to the serial model or falls back (null) to the serial decoder, whose error or
  // model is then the answer. Never a model where the serial decoder refuses, never another one.
  it.each(['kkaitlyn111'])(
    'never gives a model the serial decoder would not (%s)',
    async (prefix) => {
      const path = realSnapshotPaths().find((file) => basename(file).startsWith(prefix))!;
      const original = new Uint8Array(readFileSync(path));
      const layout = layOutParts(original, 3)!;
      let seed = 20261129;
      const random = (n: number): number => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return seed % n;
      };
      const outcomes = { same: 0, fellBack: 0, refusedBoth: 0 };
      for (let trial = 0; trial < 30; trial++) {
        const bytes = original.slice();
        const from = layout.starts[1]!;
        if (trial % 2 === 0) {
          // A number's bytes after a BININT (0x4a): most are one (an address, a size, a time),
          // and the file still decodes, to other figures.
          const at = bytes.indexOf(0x4a, from + random(bytes.length - from));
          if (at > 0 && at + 4 < bytes.length) bytes[at + 1 + random(4)] = random(256);
        } else {
          for (let flips = 1 + random(3); flips > 0; flips--) {
            bytes[from + random(bytes.length - from)] = random(256);
          }
        }
        const serial = await decodeBytes(bytes).catch((error: unknown) => error as Error);
        const inParts = await decodeInParts(bytes, 3);
        if (inParts === null) {
          outcomes[serial instanceof Error ? 'refusedBoth' : 'fellBack']++;
          continue;
        }
        expect(serial).not.toBeInstanceOf(Error);
        expect(inParts).toEqual(serial);
        outcomes.same++;
      }
      // Most random flips break an opcode (both refuse); a number changed still decodes, and
      // there both must agree.
      expect(outcomes.same).toBeGreaterThanOrEqual(5);
      expect(outcomes.refusedBoth).toBeGreaterThanOrEqual(5);
    },
  );
});

describe('references to earlier parts turned elsewhere', () => {
  // A later part finds each object of an earlier part it names by scanning the block of the
  // earlier part's memo count that holds it (blockStarts). References retargeted at random
  // objects of the first part (frames lists, frame dicts, strings, consumed trace entries, keys):
  // in parts, the serial model or null (the serial decoder answers), never another model.
  it('gives the serial model or falls back, for BINGET and LONG_BINGET indexes changed at random', async () => {
    const path = realSnapshotPaths().find((file) => basename(file).startsWith('silmont2000'))!;
    const original = new Uint8Array(readFileSync(path));
    const layout = layOutParts(original, 2)!;
    const base = layout.memoBases[1]!;
    const view = new DataView(original.buffer, original.byteOffset, original.byteLength);
    // Every memo read of the second part, found by stepping its opcodes.
    const gets: { at: number; long: boolean }[] = [];
    for (let at = layout.starts[1]!; at < original.length;) {
      const op = original[at]!;
      if (op === Op.BINGET || op === Op.LONG_BINGET) gets.push({ at, long: op === Op.LONG_BINGET });
      const after = opcodeEnd(original, view, at, original.length);
      if (after === NOT_SCANNED) break;
      at = after;
    }
    const indexOf = (get: { at: number; long: boolean }): number =>
      get.long ? view.getUint32(get.at + 1, true) : original[get.at + 1]!;
    // Those that name an object of the first part, as 4-byte indexes.
    const foreign = gets.filter((get) => get.long && indexOf(get) < base);
    expect(foreign.length).toBeGreaterThan(100);
    let seed = 20261129;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const outcomes = { same: 0, fellBack: 0, refusedBoth: 0 };
    for (let trial = 0; trial < 24; trial++) {
      const bytes = original.slice();
      const edit = new DataView(bytes.buffer);
      for (let edits = 1 + random(2); edits > 0; edits--) {
        // Every third trial: a reference to nothing at all (both must refuse); else one to a
        // random object of the first part.
        const get = foreign[random(foreign.length)]!;
        if (trial % 3 === 2) edit.setUint32(get.at + 1, 0xfffffff0, true);
        // Another object of the first part that the part names elsewhere (often one of the
        // same kind: a frames list for a frames list), or any object below the part's base.
        else if (trial % 2 === 0)
          edit.setUint32(get.at + 1, indexOf(foreign[random(foreign.length)]!), true);
        else edit.setUint32(get.at + 1, random(base), true);
      }
      const serial = await decodeBytes(bytes).catch((error: unknown) => error as Error);
      const inParts = await decodeInParts(bytes, 2);
      if (inParts === null) {
        outcomes[serial instanceof Error ? 'refusedBoth' : 'fellBack']++;
        continue;
      }
      expect(serial, `trial ${trial}`).not.toBeInstanceOf(Error);
      expect(inParts, `trial ${trial}`).toEqual(serial);
      outcomes.same++;
    }
    // References to nothing are refused by both; retargeted ones often still decode, and then in
    // parts as serially.
    expect(outcomes.refusedBoth).toBeGreaterThanOrEqual(8);
    expect(outcomes.same).toBeGreaterThanOrEqual(5);
    expect(outcomes.same + outcomes.fellBack + outcomes.refusedBoth).toBe(24);
  });
});

describe('a cut that is not where the serial decoder stands', () => {
  // The page finds frames by searching near each cut (findFrameNear), which bytes inside a string
  // can fool: whatever the cut, the parts must give the serial model or null, never another.
  it('gives null (the serial decoder then answers) for cuts a few bytes off a trace entry', async () => {
    const path = realSnapshotPaths().find((file) => basename(file).startsWith('LINYUNLinYun'))!;
    const bytes = new Uint8Array(readFileSync(path));
    const serial = await decodeBytes(bytes);
    const layout = layOutParts(bytes, 2)!;
    const cut = layout.starts[1]!;
    for (const shift of [-3, -1, 1, 2, 3, 4, 5, 9]) {
      const starts = [0, cut + shift];
      const scan = scanPart(bytes, starts, 0);
      const part = scan === null ? null : decodeScannedPart(bytes, starts, 1, [scan]);
      const model = await joinParts(bytes, starts, [part]);
      // Each shift lands mid-entry (or mid-opcode): not a state a part may start from.
      expect(model, `shift ${shift}`).toBeNull();
    }
    // And at the cut itself, the serial model.
    const starts = [0, cut];
    const part = decodeScannedPart(bytes, starts, 1, [scanPart(bytes, starts, 0)!]);
    expect(await joinParts(bytes, starts, [part])).toEqual(serial);
  });
});
