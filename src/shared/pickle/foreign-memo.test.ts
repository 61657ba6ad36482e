import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pythonPickle } from '../../../test/support/python';
import { fileLikeSource } from '../../../test/support/byte-sources';
import { memorySource } from './byte-source';
import { realSnapshotPaths } from '../../../test/support/real-snapshots';
import { indexFrames } from './frame-index';
import { ForeignMemo, type MemoPart } from './foreign-memo';
import type { Memo } from './memo';
import { countMemoCheckpoints, countMemoized } from './opcode-scan';
import { Unpickler } from './unpickler';

/** The serial decoder's memo just before STOP (STOP clears it), every object as decoded. */
function serialMemo(bytes: Uint8Array): Memo {
  const stop = countMemoized(bytes, 0, bytes.length);
  expect(stop.sawStop).toBe(true);
  const unpickler = new Unpickler();
  unpickler.feed(bytes.subarray(0, stop.stoppedAt - 1));
  return (unpickler as unknown as { memo: Memo }).memo;
}

/**
 * The memo parts of bytes cut at `cuts` (opcode boundaries), as a parallel decode counts them;
 * blocks of 7 MEMOIZE opcodes (not 1,024), so that objects are found in many blocks, at their
 * edges too.
 */
function memoParts(bytes: Uint8Array, cuts: readonly number[], block = 7): MemoPart[] {
  // Bytes after STOP (the HTML export's NUL padding) are no part's.
  const end = countMemoized(bytes, 0, bytes.length).stoppedAt;
  const parts: MemoPart[] = [];
  let base = 0;
  for (let i = 0; i < cuts.length; i++) {
    const from = cuts[i]!;
    const counted = countMemoCheckpoints(memorySource(bytes), from, cuts[i + 1] ?? end, block);
    expect(counted.stoppedAt).toBe(i + 1 < cuts.length ? cuts[i + 1] : end);
    parts.push({ ...counted, base, from });
    base += counted.memoized;
  }
  return parts;
}

const isFrame = (value: unknown) =>
  typeof value === 'object' && value !== null && 'filename' in value && 'line' in value;

/**
 * Every object of the memo read again from the bytes equals the serial decoder's; strings, frame
 * dicts and frames lists (what parts name across a split) must all be readable.
 */
function expectMemoReadAgain(
  bytes: Uint8Array,
  cuts: readonly number[],
  from: 'memory' | 'file' = 'memory',
): number {
  const memo = serialMemo(bytes);
  // From a file, each object is read in a window of its own (the CLI's threads).
  const input = from === 'memory' ? bytes : fileLikeSource(bytes);
  const foreign = new ForeignMemo(input, memoParts(bytes, cuts));
  let read = 0;
  for (let index = 0; index < memo.length; index++) {
    const expected = memo.get(index);
    // Frames lists: one in 50 (a file holds ~one per trace entry; each is read the same way).
    const mustRead =
      typeof expected === 'string' ||
      isFrame(expected) ||
      (index % 50 === 0 &&
        Array.isArray(expected) &&
        expected.length > 0 &&
        expected.every(isFrame));
    // What parts name across a split, and a sample of the rest (a trace entry's lookahead steps
    // through the rest of its batch: fine once, too slow for every entry of a file).
    if (!mustRead && index % 500 !== 0) continue;
    // The root and the trace lists are read whole by the serial decoder only.
    if (Array.isArray(expected) && expected.length > 2000) continue;
    if (typeof expected === 'object' && expected !== null && 'device_traces' in expected) continue;
    const value = foreign.get(index);
    if (mustRead) expect(value, `memo entry ${index}`).toBeDefined();
    if (value !== undefined) {
      expect(value, `memo entry ${index}`).toEqual(expected);
      read++;
    }
  }
  return read;
}

function frameCuts(bytes: Uint8Array, parts: number): number[] {
  const frames = indexFrames(bytes);
  if (!('payloadStarts' in frames)) return [0];
  const starts = frames.payloadStarts;
  const cuts = [0];
  for (let i = 1; i < parts; i++) {
    const at = starts[Math.floor((starts.length * i) / parts)];
    if (at !== undefined && at > cuts[cuts.length - 1]!) cuts.push(at);
  }
  return cuts;
}

describe('ForeignMemo', () => {
  it.each(realSnapshotPaths().map((path) => [path.split('/').pop()!, path]))(
    'reads every memoized string, frame and frames list of %s again as the serial decoder made it',
    (_name, path) => {
      const bytes = new Uint8Array(readFileSync(path));
      expect(expectMemoReadAgain(bytes, frameCuts(bytes, 1))).toBeGreaterThan(0);
      // Three parts, each object read in a window of its own as the CLI's threads read a file.
      expect(expectMemoReadAgain(bytes, frameCuts(bytes, 3), 'file')).toBeGreaterThan(0);
    },
  );

  it('reads CPython batches of 1,000 and 1,001 items, tuples, and nested new objects', () => {
    const bytes = pythonPickle(
      `(lambda f: {'a': [f[i % 3] for i in range(1000)], 'b': [f[i % 3] for i in range(1001)],` +
        ` 'c': [dict(f[0], extra=i) for i in range(2001)], 'd': {str(i): i for i in range(1001)},` +
        ` 'e': {'x': {}}, 'g': [[], [], (0, 0), (1, 'two', 3.5), [(0, 0)]], 'h': [{'k': [1]}]})` +
        `([{'filename': 'a.py', 'line': 1, 'name': 'f'}, {'filename': 'b.py', 'line': 2, 'name': 'g'},` +
        ` {'filename': 'c.py', 'line': 2**64 - 1, 'name': 'h' * 300}])`,
    );
    expect(expectMemoReadAgain(bytes, [0])).toBeGreaterThan(10);
    expect(expectMemoReadAgain(bytes, [0], 'file')).toBeGreaterThan(10);
  });
});
