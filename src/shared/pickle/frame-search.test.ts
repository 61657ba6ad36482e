import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileLikeSource } from '../../../test/support/byte-sources';
import { realSnapshotPaths } from '../../../test/support/real-snapshots';
import { COSTLY_READ_WINDOWS, memorySource, windowedSource, type ByteSource } from './byte-source';
import { findFrameNear, indexFrames } from './frame-index';
import { Op } from './opcodes';

// The page's reads cost milliseconds each, so it finds a frame near each cut by searching (a few
// reads) instead of hopping every header from the start, and reads through windows. Both must
// give what the direct readers give.

const FILES = realSnapshotPaths().filter((path) =>
  ['LINYUNLinYun', 'kkaitlyn111', 'Constructor-Sun'].some((prefix) =>
    basename(path).startsWith(prefix),
  ),
);

describe('findFrameNear', () => {
  it.each(FILES.map((path) => [basename(path).split('_')[0]!, path]))(
    'finds the first frame at or after a target, as the frame index does (%s)',
    (_name, path) => {
      const bytes = new Uint8Array(readFileSync(path));
      const index = indexFrames(bytes);
      if (!('payloadStarts' in index)) throw new Error(index.reason);
      const starts = index.payloadStarts;
      let checked = 0;
      for (let target = 2; target < bytes.length; target += 40_009) {
        const expected = starts.find((start) => start - 9 >= target) ?? -1;
        // Past the last frames a chain cannot be verified as far: nothing to find, or the last.
        if (expected < 0) continue;
        expect(findFrameNear(memorySource(bytes), target, 1 << 20), `target ${target}`).toBe(
          expected,
        );
        checked++;
      }
      expect(checked).toBeGreaterThan(10);
    },
  );

  it('finds none where there is no chain of FRAME headers, and is fooled by none of one', () => {
    const noise = new Uint8Array(1 << 18).map((_, index) => (index * 31) % 251);
    expect(findFrameNear(memorySource(noise), 0, 1 << 18)).toBe(-1);
    // One FRAME byte whose length leads nowhere.
    const lone = new Uint8Array(4096);
    lone[100] = Op.FRAME;
    lone[101] = 50;
    expect(findFrameNear(memorySource(lone), 0, 4096)).toBe(-1);
  });
});

describe('windowedSource', () => {
  /** A source whose reads are counted, as a browser's would cost. */
  function counted(bytes: Uint8Array): ByteSource & { reads: number } {
    const inner = fileLikeSource(bytes);
    const source = {
      reads: 0,
      size: bytes.length,
      read(offset: number, length: number) {
        source.reads++;
        return inner.read(offset, length);
      },
    };
    return source;
  }

  it('reads what the source holds, at every offset and length, in far fewer reads', () => {
    const bytes = new Uint8Array(readFileSync(FILES[0]!));
    const inner = counted(bytes);
    const windowed = windowedSource(inner, {
      largeReadBytes: 1 << 20,
      smallReadBytes: 4096,
      smallWindowBytes: 64 << 10,
      smallWindows: 4,
      largeWindowBytes: 512 << 10,
      largeWindows: 2,
    });
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    let asked = 0;
    for (let read = 0; read < 3000; read++) {
      // Sequential 9-byte and 16 KiB reads, scattered ones, and some past the end.
      const offset = read % 3 === 0 ? next() % (bytes.length + 100) : (read * 9001) % bytes.length;
      const length = [9, 100, 16 << 10, 200 << 10, 2 << 20][next() % 5]!;
      const expected = bytes.subarray(offset, Math.min(bytes.length, offset + length));
      // Compared as Buffers: toEqual walks megabytes item by item for minutes.
      const got = windowed.read(offset, length);
      expect(
        Buffer.from(got.buffer, got.byteOffset, got.length).equals(expected),
        `${offset}+${length}`,
      ).toBe(true);
      asked++;
    }
    expect(inner.reads).toBeLessThan(asked * 0.8);
    // Sequential small reads: one window for many.
    const sequential = counted(bytes);
    const page = windowedSource(sequential, COSTLY_READ_WINDOWS);
    for (let offset = 0; offset + 9 <= bytes.length; offset += 65_536) page.read(offset, 9);
    expect(sequential.reads).toBe(Math.ceil(bytes.length / (1 << 20)));
  });
});
