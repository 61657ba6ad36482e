// The shape the bench prints beside its figures (bench/bench-inputs.ts), recorded by the generator
// as it writes, against CPython's own reading of the file: trace entries, frames per entry, and
// which frames lists are new in the file (the rest are the same object as an earlier one: a memo
// reference, whether the earlier one was in the segments or in an earlier entry).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import { formatInputShapes, shapeOf } from '../../bench/bench-inputs';
import { runPython } from '../support/python';

const PROGRAM = `
import sys, pickle, json
with open(sys.argv[1], 'rb') as f:
    snapshot = pickle.load(f)
seen = set()
for segment in snapshot['segments']:
    seen.add(id(segment.get('frames')))
    for block in segment['blocks']:
        if 'frames' in block:
            seen.add(id(block['frames']))
entries = frames = new = 0
for trace in snapshot['device_traces']:
    for entry in trace:
        entries += 1
        frames += len(entry['frames'])
        if id(entry['frames']) not in seen:
            new += 1
            seen.add(id(entry['frames']))
print(json.dumps({'devices': len(snapshot['device_traces']), 'entries': entries, 'frames': frames, 'new': new}))
`;

const dir = mkdtempSync(join(tmpdir(), 'allocscope-shape-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the bench inputs' shape", () => {
  it('is what CPython reads in the file (entries, frames per entry, new frames lists)', () => {
    const path = join(dir, 'shape.pickle');
    const result = generateLargeSnapshot(path, 3_000_000, { seed: 1 });
    const shape = shapeOf(result);
    const python = JSON.parse(runPython(PROGRAM, [path]).toString('utf8')) as {
      devices: number;
      entries: number;
      frames: number;
      new: number;
    };
    expect(shape.devices).toBe(python.devices);
    expect(shape.traceEntries).toBe(python.entries);
    expect(shape.framesPerEntry).toBeCloseTo(python.frames / python.entries, 9);
    expect(shape.newFrameListShare).toBeCloseTo(python.new / python.entries, 9);
    // Shaped like the real snapshots of public projects (issue 25: 30-70 frames in an entry's
    // stack, two thirds of the lists new); entries without a stack (segment events) lower the mean.
    expect(shape.framesPerEntry).toBeGreaterThanOrEqual(20);
    expect(shape.framesPerEntry).toBeLessThanOrEqual(70);
    expect(shape.newFrameListShare).toBeGreaterThan(0.4);
    expect(shape.newFrameListShare).toBeLessThan(0.9);
    const table = formatInputShapes([
      {
        size: { label: '3MB', bytes: 3_000_000 },
        path,
        bytes: result.bytes,
        generatedSeconds: 0,
        shape,
      },
    ]);
    expect(table).toContain(`| 3MB | ${(result.bytes / 1e6).toFixed(1)} | 2 | ${python.entries} |`);
  });
});
