// The gzip container in the decoder: real snapshots still open (a small machine's limit, their
// trailer read as the CLI reads it), bytes after the member are refused alike at every chunk
// size, and bombs are refused early however they lie (trailer, start, a pipe with no size),
// while a limit the user chose lets a large file through.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chunksOf } from '../../../test/support/analyzed';
import { gzipOfRepeats, repeatedTrace, traceBlock } from '../../../test/support/gzip-bomb';
import { tinySnapshot } from '../../../test/support/hostile-files';
import { runPython } from '../../../test/support/python';
import { realSnapshotPath, realSnapshotPaths } from '../../../test/support/real-snapshots';
import { decodeSnapshot, type DecodeOptions } from './decode-snapshot';
import { BYTES_AFTER_GZIP, gzipIsizeFrom } from './gzip-stream';
import { MAX_UNPACK_RATIO, type MemoryLimit } from './unpacked-budget';
import { concat } from '../../../test/support/bytes';

const MiB = 2 ** 20;
const GiB = 2 ** 30;

/** What the CLI allows on a machine of 1 GiB. */
const SMALL_MACHINE: MemoryLimit = { bytes: GiB, source: "this machine's memory", chosen: false };

/** Decodes a file as the CLI does: its size and its trailer known. */
function decodeFile(bytes: Uint8Array, options: DecodeOptions = {}, chunkSize = 1 << 20) {
  return decodeSnapshot(chunksOf(bytes, chunkSize), {
    totalBytes: bytes.length,
    gzipIsize: gzipIsizeFrom(bytes.subarray(0, 2), bytes.subarray(bytes.length - 4)),
    ...options,
  });
}

function gzip9(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(gzipSync(bytes, { level: 9 }));
}

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (_name, path) => {
  it('opens gzipped (-9) within a small machine, its trailer read', async () => {
    const bytes = new Uint8Array(readFileSync(path));
    const plain = await decodeFile(bytes);
    expect(await decodeFile(gzip9(bytes), { memoryLimit: SMALL_MACHINE })).toEqual(plain);
  });
});

describe('a compressed snapshot', () => {
  it('opens in its JSON form, which compresses past the ratio (the floor lets it through)', async () => {
    const path = realSnapshotPath('Yiyi');
    const json = runPython(
      // Compact, as JSON.stringify writes it: 76 times smaller gzipped.
      'import json, pickle, sys\njson.dump(pickle.load(open(sys.argv[1], "rb")), sys.stdout, separators=(",", ":"))',
      [path],
    );
    const packed = gzip9(json);
    expect(json.length / packed.length).toBeGreaterThan(MAX_UNPACK_RATIO);
    const fromJson = await decodeFile(packed, { memoryLimit: SMALL_MACHINE });
    const fromPickle = await decodeFile(new Uint8Array(readFileSync(path)));
    expect(fromJson.segments).toEqual(fromPickle.segments);
    expect(fromJson.traces).toEqual(fromPickle.traces);
  });
});

describe('bytes after the gzip member', () => {
  const pickle = tinySnapshot();
  const member = gzip9(pickle);
  const half = pickle.length >> 1;
  const cases: [string, Uint8Array][] = [
    ['one zero byte', concat(member, new Uint8Array(1))],
    ['512 zero bytes', concat(member, new Uint8Array(512))],
    ['garbage', concat(member, new TextEncoder().encode('garbage\n'))],
    ['another member', concat(member, gzip9(new TextEncoder().encode('more')))],
    [
      'the snapshot in two members',
      concat(gzip9(pickle.subarray(0, half)), gzip9(pickle.subarray(half))),
    ],
  ];

  it.each(cases)(
    '%s: refused alike at chunks of 1 B, 7 B, 64 KiB and 1 MiB',
    async (_name, bytes) => {
      for (const chunkSize of [1, 7, 64 << 10, 1 << 20]) {
        await expect(decodeFile(bytes, {}, chunkSize), `chunks of ${chunkSize}`).rejects.toThrow(
          BYTES_AFTER_GZIP,
        );
      }
    },
  );

  it('half a member after it: refused', async () => {
    await expect(decodeFile(concat(member, member.subarray(0, 12)))).rejects.toThrow(/gzip data/);
  });

  it('nothing after it: opens at every chunk size', async () => {
    const plain = await decodeFile(pickle);
    for (const chunkSize of [1, 7, 64 << 10, 1 << 20])
      expect(await decodeFile(member, {}, chunkSize)).toEqual(plain);
  });
});

describe('a gzip bomb', () => {
  /** 11 MB of gzip unpacking to 2.8 GiB of trace entries, as in issue 20. */
  const bomb = (options: Parameters<typeof gzipOfRepeats>[1] = {}) =>
    gzipOfRepeats(repeatedTrace(2000, 17_045, 1), options);

  /** Decodes, and says how much of the file had been read when it was refused, and the CPU time. */
  async function refusal(bytes: Uint8Array, options: DecodeOptions = {}) {
    let bytesRead = 0;
    const started = process.cpuUsage();
    const error = await decodeSnapshot(chunksOf(bytes, 64 << 10), {
      onProgress: (progress) => void (bytesRead = progress.bytesRead),
      ...options,
    }).then(
      () => null,
      (thrown: unknown) => thrown as Error,
    );
    const cpu = process.cpuUsage(started);
    return { message: error?.message ?? 'opened', bytesRead, ms: (cpu.user + cpu.system) / 1000 };
  }

  it('is refused at once from its trailer and its first MiBs', async () => {
    const bytes = bomb();
    const { message, bytesRead, ms } = await refusal(bytes, {
      totalBytes: bytes.length,
      gzipIsize: gzipIsizeFrom(bytes.subarray(0, 2), bytes.subarray(bytes.length - 4)),
    });
    expect(message).toMatch(/^the gzip data unpacks to 2\.8 GiB \(says its trailer\), 258 times/);
    expect(bytesRead).toBeLessThan(MiB);
    expect(ms).toBeLessThan(1000);
  });

  it('is refused when its trailer lies (1,000 bytes)', async () => {
    const bytes = bomb({ isize: 1000 });
    const { message, bytesRead } = await refusal(bytes, {
      totalBytes: bytes.length,
      gzipIsize: 1000,
    });
    expect(message).toMatch(/^the gzip data would unpack to about 2\.\d GiB, 2\d\d times its size/);
    expect(bytesRead).toBeLessThan(MiB);
  });

  it('is refused when its start lies (a stretch that compresses as snapshots do)', async () => {
    const trace = repeatedTrace(2000, 17_045, 1);
    // 3,000 pairs at times that do not repeat: 260 KB that compress about 4 times.
    let seed = 7;
    const noise = traceBlock(3000, () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return 1_700_000_000_000_000 + seed;
    });
    const bytes = gzipOfRepeats({ ...trace, head: concat(trace.head, noise) });
    const { message, bytesRead } = await refusal(bytes, { totalBytes: bytes.length });
    expect(message).toMatch(/^the gzip data would unpack to about \d\.\d GiB/);
    expect(bytesRead).toBeLessThan(2 * MiB);
  });

  it('is cut off from a pipe once it has unpacked past the limit', async () => {
    const { message, bytesRead } = await refusal(bomb(), {
      memoryLimit: { bytes: 60 * MiB, source: 'set by --max-memory', chosen: true },
    });
    expect(message).toMatch(
      /^the gzip data unpacks to more than \d+\.\d MiB, \d+ times the \d+\.\d KiB read so far: .* over the limit of 60\.0 MiB \(set by --max-memory\)$/,
    );
    expect(bytesRead).toBeLessThan(MiB);
  });

  it('of modest size opens where the user chose a limit large enough', async () => {
    // A snapshot, then 200 MiB of zeros after its STOP: unpacked (and checked), not decoded.
    const pickle = tinySnapshot();
    const bytes = gzipOfRepeats(
      { head: pickle, body: new Uint8Array(MiB), repeats: 200, tail: new Uint8Array(0) },
      { crc: true },
    );
    const options = { totalBytes: bytes.length };
    expect((await refusal(bytes, { ...options, memoryLimit: SMALL_MACHINE })).message).toMatch(
      /^the gzip data .* over the limit of 96\.0 MiB for a file of 2\d\d\.\d KiB/,
    );
    const chosen: MemoryLimit = { bytes: GiB, source: 'set by --max-memory', chosen: true };
    expect(await decodeFile(bytes, { memoryLimit: chosen })).toEqual(await decodeFile(pickle));
  });
});
