import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chunksOf } from '../../../test/support/analyzed';
import { realSnapshotPath, realSnapshotPaths } from '../../../test/support/real-snapshots';
import { decodeSnapshot, type DecodeOptions } from './decode-snapshot';
import { tinySnapshot } from '../../../test/support/hostile-files';
import { ActionCode, BlockStateCode } from './model';
import { describeFound } from './raw-schema';
import { StackRef, StringListRef } from './stack-interner';

function decode(bytes: Uint8Array, options: DecodeOptions = {}, chunkSize = 1 << 20) {
  return decodeSnapshot(chunksOf(bytes, chunkSize), { totalBytes: bytes.length, ...options });
}

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (_name, path) => {
  const bytes = new Uint8Array(readFileSync(path));

  it('decodes the gzip and HTML containers to the same model', async () => {
    const plain = await decode(bytes);
    expect(await decode(new Uint8Array(gzipSync(bytes)))).toEqual(plain);
    const base64 = Buffer.from(
      Buffer.concat([bytes, Buffer.alloc(3 - (bytes.length % 3))]),
    ).toString('base64');
    const page = `<!DOCTYPE html><html><script>const data = [{"name": "snapshot.pickle", "base64": "${base64}"}];</script></html>`;
    expect(await decode(new TextEncoder().encode(page))).toEqual(plain);
  });
});

describe('decodeSnapshot', () => {
  it('interns frames and stacks: far fewer than the references to them', async () => {
    const model = await decode(new Uint8Array(readFileSync(realSnapshotPath('LINYUN'))));
    const trace = model.traces[0]!;
    const referenced = trace.stackId.filter((id) => id >= 0).length;
    expect(referenced).toBeGreaterThan(10_000);
    expect(model.stacks.offsets.length - 1).toBeLessThan(referenced / 10);
    expect(
      new Set(
        model.frames.filename.map((f, i) => `${f}:${model.frames.line[i]}:${model.frames.name[i]}`),
      ).size,
    ).toBe(model.frames.filename.length);
  });

  it('keeps oom entries with their device_free and no address', async () => {
    const model = await decode(new Uint8Array(readFileSync(realSnapshotPath('Constructor-Sun'))));
    const device1 = model.traces.find((trace) => trace.device === 1)!;
    const oomRow = device1.action.indexOf(ActionCode.oom);
    expect(oomRow).toBeGreaterThan(0);
    expect(Number.isNaN(device1.addr[oomRow])).toBe(true);
    expect(device1.deviceFreeBytes.get(oomRow)).toBeGreaterThan(0);
  });

  it('reports progress and stops when cancelled', async () => {
    const bytes = new Uint8Array(readFileSync(realSnapshotPath('LINYUN')));
    const seen: number[] = [];
    await decode(bytes, { onProgress: (progress) => seen.push(progress.bytesRead) }, 1 << 16);
    expect(seen.at(-1)).toBe(bytes.length);
    const controller = new AbortController();
    const cancelled = decode(
      bytes,
      {
        signal: controller.signal,
        onProgress: (progress) => {
          if (progress.bytesRead > bytes.length / 2) controller.abort();
        },
      },
      1 << 16,
    );
    await expect(cancelled).rejects.toThrow(/abort/i);
  });
});

describe('block states', () => {
  const withState = (state: string) =>
    tinySnapshot((snapshot) => {
      const segment = (snapshot.segments as Record<string, unknown>[])[0]!;
      (segment.blocks as Record<string, unknown>[])[0]!.state = state;
    });

  it("reads PyTorch's other spelling, active_awaiting_free, as active_pending_free", async () => {
    const awaiting = await decode(withState('active_awaiting_free'));
    const pending = await decode(withState('active_pending_free'));
    expect(awaiting.blocks.state[0]).toBe(BlockStateCode.active_pending_free);
    expect(awaiting).toEqual(pending);
  });

  it('refuses a state it does not know, by its path, whatever its name', async () => {
    for (const state of ['exploded', 'toString', '__proto__']) {
      await expect(decode(withState(state))).rejects.toThrow(
        `segments[0].blocks[0].state: '${state}' is not a block state`,
      );
    }
  });
});

describe('a number where a trace entry names its frames', () => {
  // Fuzz campaign seed 28112026 case 3587: the fast path read the number into a reused slot and
  // took the list the entry before left there, opening the file with that entry's stack.
  it('is refused on both decode paths, after an entry that had frames', async () => {
    const bytes = tinySnapshot((snapshot) => {
      const trace = (snapshot.device_traces as Record<string, unknown>[][])[0]!;
      expect(Array.isArray(trace[0]!.frames)).toBe(true);
      trace[2]!.frames = -(2 ** 31);
    });
    const message = /'frames' is not a list \(at byte \d+\)$/;
    await expect(decode(bytes)).rejects.toThrow(message);
    await expect(decode(bytes, { fastTraceEntries: false })).rejects.toThrow(message);
  });
});

describe('a frames list standing where a segment belongs', () => {
  // Fuzz seed 31337 case 27598 (minimized, kept as a fixture): a memo get puts a trace entry's
  // frames list into `segments`. The fast path holds that list as a StackRef, which zod took for a
  // dict without keys ("segments[8].device: expected an integer, found nothing") while the
  // generic path said list.
  it('is named a list on both decode paths', async () => {
    const bytes = new Uint8Array(
      readFileSync('test/fixtures/fuzz/frames-list-as-segment-seed31337-case27598.pickle'),
    );
    const message = /segments\[8\]: expected a dict, found a list$/;
    await expect(decode(bytes)).rejects.toThrow(message);
    await expect(decode(bytes, { fastTraceEntries: false })).rejects.toThrow(message);
  });
});

describe('an empty forward_frames list', () => {
  // Fuzz seed 20261128 case 17827 (kept as a fixture; cutting bytes breaks the pickle, so it does
  // not shrink): entry 40's forward_frames is []; the fast path put an empty list into the
  // forward_frames table that no row named, the generic path none. Entry 13, an annotation, has
  // the empty tuple as its stream: annotations are read leniently (they change no figure), and
  // both paths ignore it.
  it('gives the same model on both decode paths', async () => {
    const bytes = new Uint8Array(
      readFileSync('test/fixtures/fuzz/empty-forward-frames-seed20261128-case17827.pickle'),
    );
    const fast = await decode(bytes);
    expect(fast).toEqual(await decode(bytes, { fastTraceEntries: false }));
    const forwardFrames = fast.forwardFrames!;
    for (let list = 0; list + 1 < forwardFrames.offsets.length; list++) {
      expect(forwardFrames.offsets[list + 1]!).toBeGreaterThan(forwardFrames.offsets[list]!);
    }
  });
});

describe('an aside entry with frames', () => {
  // Fuzz seed 20261129 case 29048 (minimized, kept as a fixture): an alloc turned user_defined
  // keeps its frames list. The fast path interns a frames list as it reads it, before it knows
  // the entry's action; the generic path interned only rows' and annotations' stacks, so the two
  // stacks tables differed by that one stack.
  it('gives the same model on both decode paths', async () => {
    const bytes = new Uint8Array(
      readFileSync('test/fixtures/fuzz/user-defined-with-frames-seed20261129-case29048.pickle'),
    );
    const fast = await decode(bytes);
    expect(fast.stacks.offsets.length).toBeGreaterThan(1);
    expect(await decode(bytes, { fastTraceEntries: false })).toEqual(fast);
  });
});

describe('fuzz seed 20261130 case 17047', () => {
  // allocator_settings was a memo reference to an entry's forward_frames list: the fast path holds
  // that list as a StringListRef and named it "a trace entry", the generic path "a list".
  it("names the fast path's stand-ins for lists as lists", () => {
    expect(describeFound(new StringListRef(0, 1))).toBe('a list');
    expect(describeFound(new StackRef(0))).toBe('a list');
  });
  // Minimized, the case became another difference (kept as a fixture): an empty list as a dict
  // key was taken for an empty tuple on the generic path and refused on the fast path, which
  // holds it as a frames list. A list is never a Python key: both refuse it, in the same words.
  it('refuses a list as a dict key on both decode paths, in the same words', async () => {
    const bytes = new Uint8Array(
      readFileSync('test/fixtures/fuzz/list-as-dict-key-seed20261130-case17047.pickle'),
    );
    const message = 'a dict key that is a list, a dict or a tuple of containers';
    await expect(decode(bytes)).rejects.toThrow(message);
    await expect(decode(bytes, { fastTraceEntries: false })).rejects.toThrow(message);
  });
});

describe('fuzz seed 20261131 case 3000', () => {
  // A byte flip renamed host_traces[26]'s `stream` to `forward_frames`, so the entry reads
  // `forward_frames: 0`. The fast path took values[] for it, which still held the device trace's
  // last list (the reader reuses its slots across dicts), and gave the free a forward_frames list;
  // the generic path none (a number is not a list). No host entry has a list (pickle.load says so).
  it('gives a number as forward_frames no list, on both decode paths', async () => {
    const bytes = new Uint8Array(
      readFileSync('test/fixtures/fuzz/forward-frames-number-seed20261131-case3000.pickle'),
    );
    const fast = await decode(bytes);
    expect(await decode(bytes, { fastTraceEntries: false })).toEqual(fast);
    const withLists = fast.traces.filter((trace) => trace.forwardFramesId?.some((id) => id >= 0));
    expect(withLists.length).toBeGreaterThan(0);
    const hostTrace = fast.traces.at(-1)!;
    expect(hostTrace.forwardFramesId?.[26]).toBe(-1);
    expect(hostTrace.forwardFramesId?.every((id) => id === -1)).toBe(true);
  });
});

describe('fuzz seed 20261132 case 11884', () => {
  // A trace entry's key became a memo reference to a forward_frames list: no Python dict has a
  // list for a key (pickle.load refuses the file: unhashable type). The generic path named it by
  // the list's items, the fast path "[object Object]" (its stand-in for the list); both now
  // refuse it, in the words any dict's list key gets.
  it('refuses a list as a trace entry key on both decode paths, in the same words', async () => {
    const bytes = new Uint8Array(
      readFileSync('test/fixtures/fuzz/list-as-trace-key-seed20261132-case11884.pickle'),
    );
    const message = 'a dict key that is a list, a dict or a tuple of containers';
    await expect(decode(bytes)).rejects.toThrow(message);
    await expect(decode(bytes, { fastTraceEntries: false })).rejects.toThrow(message);
  });
});

describe('fuzz seed 20261136 case 8067', () => {
  // allocator_settings.max_split_size is a memo reference to a trace entry's frames list:
  // pickle.load reads that list of two frame dicts there. The generic path kept it; the fast
  // path, holding the list as its stand-in, dropped it as "not a plain setting value".
  it('reads a frames list named by a setting as the list it is, on both decode paths', async () => {
    const bytes = new Uint8Array(
      readFileSync('test/fixtures/fuzz/frames-list-as-setting-seed20261136-case8067.pickle'),
    );
    const fast = await decode(bytes);
    expect(await decode(bytes, { fastTraceEntries: false })).toEqual(fast);
    const frame = { filename: 'torch/nn/modules/module.py', line: 737, name: 'backward' };
    expect(fast.allocatorSettings?.['max_split_size']).toEqual([frame, frame]);
    expect(fast.warnings.filter((warning) => warning.startsWith('allocator_settings'))).toEqual([]);
  });
});

describe('fuzz seed 20261133 case 1247', () => {
  // device_traces[1] is a memo reference to an entry's empty frames list: pickle.load reads an
  // empty list there, an empty trace for device 1. The generic path opened it; the fast path,
  // holding that list as its stand-in (a reference to a stack), refused "found a list".
  it('reads a frames list named as a device trace as the list it is, on both decode paths', async () => {
    const bytes = new Uint8Array(
      readFileSync('test/fixtures/fuzz/frames-list-as-device-trace-seed20261133-case1247.pickle'),
    );
    const fast = await decode(bytes);
    expect(await decode(bytes, { fastTraceEntries: false })).toEqual(fast);
    expect(fast.traces.map((trace) => trace.device)).toEqual([0]);
  });

  it('refuses a non-empty frames list named as a device trace in the same words', async () => {
    // Entry 0's frames list (memo 14, two frames) named as device_traces[1] instead (BINGET 35 at
    // 616 -> BINGET 14): a list of frame dicts, not of trace entries.
    const bytes = new Uint8Array(
      readFileSync('test/fixtures/fuzz/frames-list-as-device-trace-seed20261133-case1247.pickle'),
    );
    expect([bytes[616], bytes[617]]).toEqual([0x68, 35]);
    bytes[617] = 14;
    const message =
      "device_traces[1] holds values that are not trace entries (dicts with an 'action'), e.g. a dict";
    await expect(decode(bytes)).rejects.toThrow(message);
    await expect(decode(bytes, { fastTraceEntries: false })).rejects.toThrow(message);
  });
});
