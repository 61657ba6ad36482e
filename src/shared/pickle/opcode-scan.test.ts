import { describe, expect, it } from 'vitest';
import { runPython } from '../../../test/support/python';
import { indexFrames } from './frame-index';
import { countMemoized, scanMemoObjects, scanMemoObjectsFrom } from './opcode-scan';
import { fileLikeSource } from '../../../test/support/byte-sources';
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
