import { describe, expect, it } from 'vitest';
import { runPython } from '../../../test/support/python';
import { indexFrames } from './frame-index';
import {
  blockStarts,
  countMemoCheckpoints,
  countMemoCheckpointsAhead,
  countMemoized,
  scanMemoObjects,
  scanMemoObjectsFrom,
} from './opcode-scan';
import { memorySource } from './byte-source';
import { fileLikeSource, streamedSource } from '../../../test/support/byte-sources';
import { realSnapshotPath } from '../../../test/support/real-snapshots';
import { readFileSync } from 'node:fs';

// CPython's pickle and its own opcode walker (pickletools.genops): the bytes, then where each
// opcode starts and which are MEMOIZE, as JSON on the last line.
const PROGRAM = `
import sys, pickle, pickletools, json, base64
strings = [f'name{i}' for i in range(300)]
value = {'strings': strings, 'again': strings[::-1], 'long': 'x' * 70000, 'text': 'y' * 300,
         'numbers': [0, 255, 256, 65535, 65536, -1, 2**40, -2**40, 2**64 - 1, 10**700, 1.5],
         'tuples': [(), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4)], 'flags': [True, False, None],
         'bytes': [b'ab', b'c' * 300], 'nested': {'k': [[], {}]}}
data = pickle.dumps(value, protocol=int(sys.argv[1]))
ops = [(pos, op.name) for op, arg, pos in pickletools.genops(data)]
print(base64.b64encode(data).decode())
print(json.dumps({'starts': [pos for pos, name in ops], 'memoize': [pos for pos, name in ops if name == 'MEMOIZE'], 'frames': [pos for pos, name in ops if name == 'FRAME']}))
`;

function cpython(protocol: number) {
  const [data, ops] = runPython(PROGRAM, [String(protocol)])
    .toString('utf8')
    .trim()
    .split('\n');
  const { starts, memoize, frames } = JSON.parse(ops!) as {
    starts: number[];
    memoize: number[];
    frames: number[];
  };
  return { bytes: new Uint8Array(Buffer.from(data!, 'base64')), starts, memoize, frames };
}

describe('countMemoized', () => {
  it.each([4, 5])(
    'counts the MEMOIZE opcodes pickletools finds before every cut, protocol %i',
    (protocol) => {
      const { bytes, starts, memoize } = cpython(protocol);
      expect(memoize.length).toBeGreaterThan(300); // LONG_BINGET past index 255
      const boundaries = new Set(starts);
      let opcode = 0;
      for (let cut = 1; cut < bytes.length; cut += cut < 4096 ? 1 : 97) {
        while (opcode + 1 < starts.length && starts[opcode + 1]! <= cut) opcode++;
        const counted = countMemoized(bytes, 0, cut);
        // At a boundary the scan reaches the cut; inside an opcode it stops where that one starts.
        const expectedStop = boundaries.has(cut) ? cut : starts[opcode]!;
        expect(counted.stoppedAt).toBe(expectedStop);
        expect(counted.memoized).toBe(memoize.filter((pos) => pos < expectedStop).length);
        expect(counted.sawStop).toBe(false);
      }
      const whole = countMemoized(bytes, 0, bytes.length);
      expect(whole).toEqual({ memoized: memoize.length, stoppedAt: bytes.length, sawStop: true });
      // From any boundary to the end, the counts add up.
      const middle = starts[Math.floor(starts.length / 2)]!;
      expect(
        countMemoized(bytes, 0, middle).memoized +
          countMemoized(bytes, middle, bytes.length).memoized,
      ).toBe(memoize.length);
    },
  );

  it('stops at opcodes a snapshot never holds, and at BINPUT numbering', () => {
    // GLOBAL (code loading) after PROTO 4.
    expect(countMemoized(new Uint8Array([0x80, 4, 0x63, 0x6f, 0x73]), 0, 5)).toEqual({
      memoized: 0,
      stoppedAt: 2,
      sawStop: false,
    });
    // Protocol 2: EMPTY_LIST BINPUT 0.
    expect(countMemoized(new Uint8Array([0x80, 2, 0x5d, 0x71, 0, 0x2e]), 0, 6)).toEqual({
      memoized: 0,
      stoppedAt: 3,
      sawStop: false,
    });
  });
});

describe('indexFrames', () => {
  it.each([4, 5])(
    'hops to every frame pickletools finds, over an unframed long string, protocol %i',
    (protocol) => {
      const { bytes, frames } = cpython(protocol);
      expect(frames.length).toBeGreaterThan(1);
      expect(indexFrames(bytes)).toEqual({
        protocol,
        payloadStarts: frames.map((pos) => pos + 9),
        end: bytes.length,
      });
    },
  );
});

describe('scanMemoObjectsFrom (a file read window by window)', () => {
  it.each([4, 5])(
    "gives scanMemoObjects's answer at every window size, across a 70 kB string, protocol %i",
    (protocol) => {
      const { bytes, starts } = cpython(protocol);
      for (const from of [0, starts[Math.floor(starts.length / 3)]!]) {
        for (const to of [bytes.length, starts[Math.floor((starts.length * 2) / 3)]! + 1]) {
          const whole = scanMemoObjects(bytes, from, to);
          // 7 bytes: most opcodes cut; 4 KiB: the long string grows the window to 128 KiB.
          for (const windowBytes of [7, 64, 4096, 1 << 20]) {
            const source = fileLikeSource(bytes);
            expect(scanMemoObjectsFrom(source, from, to, windowBytes)).toEqual(whole);
            expect(source.counts.largest).toBeLessThanOrEqual(Math.max(windowBytes, 1 << 17));
          }
        }
      }
    },
  );

  it('gives the same starts on a real snapshot, read in windows of 64 kB', () => {
    const bytes = new Uint8Array(readFileSync(realSnapshotPath('LINYUN')));
    const from = 2;
    const whole = scanMemoObjects(bytes, from, bytes.length);
    expect(whole.memoized).toBeGreaterThan(1000);
    const source = fileLikeSource(bytes);
    expect(scanMemoObjectsFrom(source, from, bytes.length, 1 << 16)).toEqual(whole);
    // Each byte read about once (an opcode cut by a window is read again in the next).
    expect(source.counts.bytes).toBeLessThan(bytes.length * 1.01);
  });

  it('stops where scanMemoObjects stops, without growing its window, at an opcode it does not know', () => {
    // PROTO 4, EMPTY_LIST MEMOIZE, then GLOBAL.
    const bytes = new Uint8Array([0x80, 4, 0x5d, 0x94, 0x63, 0x6f, 0x73, 0x0a, 0x2e]);
    const source = fileLikeSource(bytes);
    const windowed = scanMemoObjectsFrom(source, 0, bytes.length, 3);
    expect(windowed).toEqual(scanMemoObjects(bytes, 0, bytes.length));
    expect(windowed.stoppedAt).toBe(4);
    expect(source.counts.largest).toBe(3);
  });
});

describe('countMemoCheckpoints and blockStarts (a part counted, its objects found again)', () => {
  it.each([4, 5])(
    'counts as pickletools and checkpoints after every block-th MEMOIZE, at every window size, protocol %i',
    (protocol) => {
      const { bytes, starts, memoize } = cpython(protocol);
      for (const from of [0, starts[Math.floor(starts.length / 3)]!]) {
        for (const to of [bytes.length, starts[Math.floor((starts.length * 2) / 3)]! + 1]) {
          const counted = countMemoized(bytes, from, to);
          const inRange = memoize.filter((pos) => pos >= from && pos < counted.stoppedAt);
          for (const block of [1, 7, 1024]) {
            // pickletools' MEMOIZE positions: block b + 1 begins after the ((b + 1) * block)-th.
            const expected = inRange
              .filter((_, i) => (i + 1) % block === 0)
              .map((pos) => pos + 1 - from);
            for (const windowBytes of [7, 64, 4096, 1 << 20]) {
              const source = fileLikeSource(bytes);
              const checkpoints = countMemoCheckpoints(source, from, to, block, windowBytes);
              expect(checkpoints).toEqual({ ...counted, block, checkpoints: expect.anything() });
              expect([...checkpoints.checkpoints]).toEqual(expected);
              expect(source.counts.largest).toBeLessThanOrEqual(Math.max(windowBytes, 1 << 17));
            }
          }
        }
      }
    },
  );

  it.each([4, 5])(
    "finds scanMemoObjects' starts block by block, tuples and a 70 kB string too, protocol %i",
    (protocol) => {
      const { bytes, starts } = cpython(protocol);
      for (const from of [0, starts[Math.floor(starts.length / 3)]!]) {
        const whole = scanMemoObjects(bytes, from, bytes.length);
        for (const block of [1, 2, 3, 7, 1024]) {
          const counted = {
            ...countMemoCheckpoints(memorySource(bytes), from, bytes.length, block),
            from,
          };
          const found: number[] = [];
          for (let index = 0; index * block < counted.memoized; index++) {
            const source = index % 2 === 0 ? memorySource(bytes) : fileLikeSource(bytes);
            found.push(...blockStarts(source, counted, index)!);
          }
          expect(found).toEqual([...whole.starts]);
          expect(blockStarts(memorySource(bytes), counted, -1)).toBeNull();
          expect(
            blockStarts(memorySource(bytes), counted, Math.ceil(counted.memoized / block)),
          ).toBeNull();
        }
      }
    },
  );

  it('finds the starts of a real snapshot block by block, and refuses a block not as counted', () => {
    const bytes = new Uint8Array(readFileSync(realSnapshotPath('LINYUN')));
    const from = 2;
    const whole = scanMemoObjects(bytes, from, bytes.length);
    const counted = {
      ...countMemoCheckpoints(fileLikeSource(bytes), from, bytes.length, 100),
      from,
    };
    expect(counted.memoized).toBe(whole.memoized);
    const found: number[] = [];
    for (let index = 0; index * 100 < counted.memoized; index++) {
      found.push(...blockStarts(fileLikeSource(bytes), counted, index)!);
    }
    expect(found).toEqual([...whole.starts]);
    // A checkpoint one MEMOIZE off (the bytes are not those counted): the block is refused.
    const moved = counted.checkpoints.slice();
    moved[2] = counted.checkpoints[1]! + 1;
    expect(blockStarts(memorySource(bytes), { ...counted, checkpoints: moved }, 2)).toBeNull();
  });
});

describe('countMemoCheckpointsAhead (a part counted from a stream, as the page reads it)', () => {
  it.each([4, 5])(
    'gives countMemoCheckpoints its answer for chunks of any size, across a 70 kB string, protocol %i',
    async (protocol) => {
      const { bytes, starts } = cpython(protocol);
      for (const from of [0, starts[Math.floor(starts.length / 3)]!]) {
        for (const to of [bytes.length, starts[Math.floor((starts.length * 2) / 3)]! + 1]) {
          const expected = countMemoCheckpoints(memorySource(bytes), from, to, 7);
          for (const chunkBytes of [1, 2, 3, 7, 64, 4099, 1 << 20]) {
            const source = streamedSource(bytes, chunkBytes);
            const counted = await countMemoCheckpointsAhead(source, from, to, 7);
            expect(counted, `chunks of ${chunkBytes}`).toEqual(expected);
            // Read once, as a stream; the offsets are not read at all.
            expect(source.counts.bytes).toBe(0);
            expect(source.streamed.bytes).toBeLessThanOrEqual(Math.min(to, bytes.length) - from);
          }
        }
      }
    },
  );

  it('stops where countMemoCheckpoints stops at an opcode it does not know, and ends the stream', async () => {
    // PROTO 4, EMPTY_LIST MEMOIZE, then GLOBAL, then bytes a stream must not be read for.
    const bytes = new Uint8Array([
      0x80,
      4,
      0x5d,
      0x94,
      0x63,
      0x6f,
      0x73,
      0x0a,
      ...new Array(64).fill(0x4e),
      0x2e,
    ]);
    const expected = countMemoCheckpoints(memorySource(bytes), 0, bytes.length);
    expect(expected.stoppedAt).toBe(4);
    const source = streamedSource(bytes, 8);
    expect(await countMemoCheckpointsAhead(source, 0, bytes.length)).toEqual(expected);
    expect(source.streamed.cancelled).toBe(1);
    expect(source.streamed.bytes).toBe(8);
  });

  it('counts a real snapshot from a stream as from offsets', async () => {
    const bytes = new Uint8Array(readFileSync(realSnapshotPath('LINYUN')));
    const expected = countMemoCheckpoints(fileLikeSource(bytes), 2, bytes.length);
    expect(expected.checkpoints.length).toBeGreaterThan(1);
    expect(await countMemoCheckpointsAhead(streamedSource(bytes, 65536), 2, bytes.length)).toEqual(
      expected,
    );
  });
});
