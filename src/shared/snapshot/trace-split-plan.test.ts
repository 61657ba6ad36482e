import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../../generators/snapshot/generate-large-snapshot';
import { pythonPickle } from '../../../test/support/python';
import { realSnapshotPaths } from '../../../test/support/real-snapshots';
import { countMemoized } from '../pickle/opcode-scan';
import { indexFrames } from '../pickle/frame-index';
import type { Memo } from '../pickle/memo';
import { CONSUMED_DICT, Unpickler } from '../pickle/unpickler';
import { StackInterner } from './stack-interner';
import { TraceTableBuilder } from './trace-table-builder';
import { planTraceSplit } from './trace-split-plan';
import { fileLikeSource } from '../../../test/support/byte-sources';

const CUDA_SNAPSHOTS = ['expandable', 'leak', 'oom'].map((name) =>
  resolve(import.meta.dirname, `../../../test/fixtures/cuda-h200/${name}.pickle`),
);

/** The serial decoder's state after the opcodes before `offset` (the private fields, read here only). */
function serialStateAt(bytes: Uint8Array, offset: number) {
  const traceTable = new TraceTableBuilder(new StackInterner());
  const unpickler = new Unpickler({ interceptor: traceTable, flatDictConsumer: traceTable });
  unpickler.feed(bytes.subarray(0, offset));
  const internals = unpickler as unknown as { stack: unknown[]; marks: number[]; memo: Memo };
  return {
    bytesDecoded: unpickler.bytesDecoded,
    stack: internals.stack,
    marks: internals.marks,
    memoLength: internals.memo.length,
  };
}

/**
 * Checks every split of the plan against a serial decode up to it: an opcode boundary, a trace
 * list below an open MARK with only trace entries above it, and the memo as long as the MEMOIZE
 * opcodes the scan counted before it.
 */
function expectSplitsHold(bytes: Uint8Array, starts: readonly number[]): void {
  expect(starts[0]).toBe(0);
  let memoBase = 0;
  for (let part = 1; part < starts.length; part++) {
    const start = starts[part]!;
    expect(start).toBeGreaterThan(starts[part - 1]!);
    const counted = countMemoized(bytes, starts[part - 1]!, start);
    expect(counted.stoppedAt).toBe(start);
    expect(counted.sawStop).toBe(false);
    memoBase += counted.memoized;
    const state = serialStateAt(bytes, start);
    expect(state.bytesDecoded).toBe(start);
    expect(state.memoLength).toBe(memoBase);
    expect(state.marks.length).toBeGreaterThan(0);
    const mark = state.marks[state.marks.length - 1]!;
    const list = state.stack[mark - 1];
    expect(Array.isArray(list) && !Object.isFrozen(list)).toBe(true);
    const above = state.stack.slice(mark);
    expect(above.length).toBeGreaterThan(0);
    expect(above.every((value) => value === CONSUMED_DICT)).toBe(true);
  }
  // The last part reaches STOP, counting the rest of the memo.
  const last = countMemoized(bytes, starts[starts.length - 1]!, bytes.length);
  expect(last.sawStop).toBe(true);
}

// A snapshot written by CPython's own pickler: its framing, its memo, its APPENDS batches of 1000
// (with a last batch of one entry: `entry APPEND`), and LONG_BINGET past memo index 255.
const PYTHON_SNAPSHOT = `(lambda frames: {
  'segments': [{'device': 0, 'address': 1 << 40, 'total_size': 1 << 21, 'blocks': [], 'frames': frames[:3]}],
  'device_traces': [
    [dict(action=['alloc', 'free_requested', 'free_completed'][i % 3], addr=(1 << 40) + 512 * (i // 3),
          size=512 + i, stream=0, time_us=1_700_000_000_000_000 + i,
          frames=[frames[(i * 7 + k) % len(frames)] for k in range(3 + i % 11)])
     for i in range(n)]
    for n in (30001, 0, 17000)],
  'allocator_settings': {'expandable_segments': False},
})([{'filename': f'f{j}.py', 'line': j, 'name': f'fn{j}'} for j in range(400)])`;

describe('planTraceSplit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'allocscope-split-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(
    [...realSnapshotPaths(), ...CUDA_SNAPSHOTS].map((path) => [path.split('/').pop()!, path]),
  )('splits %s only at trace entries the serial decoder agrees on', (_name, path) => {
    const bytes = new Uint8Array(readFileSync(path));
    const frames = indexFrames(bytes);
    if (!('payloadStarts' in frames)) throw new Error(frames.reason);
    for (const parts of [1, 2, 3, 7]) {
      const split = planTraceSplit(bytes, parts);
      if (!('plan' in split)) {
        // Small files whose segments outweigh their trace (or that have none) stay on one worker.
        expect(split.reason).toBe('no trace entry in the first half of the file');
        expect(frames.payloadStarts.length).toBeLessThan(8);
        continue;
      }
      expect(split.plan.starts.length).toBeLessThanOrEqual(parts);
      // Files of several frames are cut as asked (a frame is 64 KiB; a part needs one).
      if (frames.payloadStarts.length > 2 * parts) {
        expect(split.plan.starts.length).toBe(parts);
      }
      expectSplitsHold(bytes, split.plan.starts);
      // Read at offsets (the CLI's threads), in windows small enough to cut opcodes: the same plan.
      for (const windowBytes of [5, 4096]) {
        const source = fileLikeSource(bytes);
        expect(planTraceSplit(source, parts, { windowBytes })).toEqual(split);
        // Never the file at once: the search near each cut reads its window (1 MiB) and no more.
        expect(source.counts.largest).toBeLessThanOrEqual(Math.max(windowBytes, (1 << 20) + 8));
      }
      // The page's plan: a frame searched for near each cut, not every header read. The same
      // cuts, from a few reads.
      const searching = fileLikeSource(bytes);
      const searched = planTraceSplit(searching, parts, { frames: 'search' });
      expect(searched).toEqual({ plan: { ...split.plan, frames: null } });
    }
  });

  it.each([4, 5])('splits a CPython pickle of protocol %i at 1, 2, 3 and 7 parts', (protocol) => {
    const bytes = pythonPickle(PYTHON_SNAPSHOT, protocol);
    for (const parts of [1, 2, 3, 7]) {
      const split = planTraceSplit(bytes, parts);
      if (!('plan' in split)) throw new Error(split.reason);
      expect(split.plan.starts.length).toBe(parts);
      expectSplitsHold(bytes, split.plan.starts);
    }
  });

  it('splits a generated snapshot of two devices, also with a search window of one entry', () => {
    const path = join(dir, 'generated.pickle');
    generateLargeSnapshot(path, 3_000_000, { seed: 7 });
    const bytes = new Uint8Array(readFileSync(path));
    for (const parts of [2, 3, 7, 16]) {
      const split = planTraceSplit(bytes, parts);
      if (!('plan' in split)) throw new Error(split.reason);
      expect(split.plan.starts.length).toBe(parts);
      expectSplitsHold(bytes, split.plan.starts);
      const narrow = planTraceSplit(bytes, parts, { searchBytes: 64 });
      if (!('plan' in narrow)) throw new Error(narrow.reason);
      expectSplitsHold(bytes, narrow.plan.starts);
    }
  });

  it('keeps one part for protocols without frames, and for what is not a pickle', () => {
    const snapshot = PYTHON_SNAPSHOT.replace('for n in (30001, 0, 17000)', 'for n in (3000,)');
    expect(planTraceSplit(pythonPickle(snapshot, 2), 2)).toEqual({
      reason: 'protocol 2 has no frames',
    });
    expect(planTraceSplit(pythonPickle(snapshot, 3), 2)).toEqual({
      reason: 'protocol 3 has no frames',
    });
    expect(planTraceSplit(new Uint8Array([0x1f, 0x8b, 8, 0]), 2)).toEqual({
      reason: 'not a pickle of protocol 2+',
    });
    expect(planTraceSplit(new TextEncoder().encode('{"segments": []}'), 2)).toEqual({
      reason: 'not a pickle of protocol 2+',
    });
  });

  it('keeps one part when no trace entry names a memoized action key', () => {
    const bytes = pythonPickle(
      `{'segments': [{'blocks': list(range(100000))}], 'device_traces': [[]]}`,
    );
    expect(planTraceSplit(bytes, 4)).toEqual({
      reason: 'no trace entry in the first half of the file',
    });
  });
});
