// A recorded trace given its run's memory timeline: each allocation takes PyTorch's category.
// Checked against the files read independently (zlib + JSON.parse): the bytes of the raw
// timeline's CREATE tuples per category are the bytes of the trace's allocations given that
// category, the leak's 1 MiB per step are the category PyTorch gave them, and a timeline of
// another run is refused.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildAnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { NO_FILE_CATEGORY } from '../../src/shared/analyzed/categories-at-peak';
import { categoriesOf, categoryAt } from '../../src/shared/holders/classify';
import { aliveRowsAt } from '../../src/shared/holders/alive-rows';
import { decodeSnapshot } from '../../src/shared/snapshot/decode-snapshot';
import { enrichWithMemoryTimeline } from '../../src/shared/snapshot/enrich-with-timeline';
import { ActionCode, NO_STRING, type SnapshotModel } from '../../src/shared/snapshot/model';
import { TIMELINE_CATEGORIES } from '../../src/shared/snapshot/memory-timeline-reader';
import { chunksOf } from '../support/analyzed';

const DIR = resolve(import.meta.dirname, '../fixtures/profiler');
const RUNS = ['clean', 'leak', 'dataloader'];
const CREATE = 2;

async function decode(name: string): Promise<SnapshotModel> {
  const bytes = new Uint8Array(readFileSync(resolve(DIR, name)));
  return decodeSnapshot(chunksOf(bytes, 1 << 16), { totalBytes: bytes.length });
}

async function enriched(run: string, form: string) {
  const name = `${run}.memory-timeline.${form}`;
  return enrichWithMemoryTimeline(
    await decode(`${run}.pt.trace.json.gz`),
    await decode(name),
    name,
  );
}

function rawTuples(run: string): [number, number, number, number][] {
  return JSON.parse(
    gunzipSync(readFileSync(resolve(DIR, `${run}.memory-timeline.raw.json.gz`))).toString(),
  ) as [number, number, number, number][];
}

describe('a recorded trace with its memory timeline beside it', () => {
  it.each(RUNS)(
    '%s (.raw.json.gz): every allocation has the category of its CREATE',
    async (run) => {
      const { model, counts } = await enriched(run, 'raw.json.gz');
      expect(counts.matched).toBe(counts.traceAllocations);
      const creates = rawTuples(run).filter(([, action]) => action === CREATE);
      expect(counts.traceAllocations).toBe(creates.length);
      const expected = new Map<string, number>();
      for (const [, , bytes, category] of creates) {
        const name = TIMELINE_CATEGORIES[category]!;
        expected.set(name, (expected.get(name) ?? 0) + bytes);
      }
      const trace = model.traces[0]!;
      const ours = new Map<string, number>();
      for (let row = 0; row < trace.length; row++) {
        if (trace.action[row] !== ActionCode.alloc) continue;
        const id = trace.categoryId![row]!;
        expect(id).not.toBe(NO_STRING);
        const name = model.strings[id]!;
        ours.set(name, (ours.get(name) ?? 0) + trace.sizeBytes[row]!);
      }
      expect(Object.fromEntries(ours)).toEqual(Object.fromEntries(expected));
      expect(model.warnings.some((w) => w.includes('no category'))).toBe(false);
    },
  );

  it.each(RUNS)(
    '%s (.json): most bytes at the peak have a category, the rest are counted',
    async (run) => {
      const { model, counts } = await enriched(run, 'json');
      expect(counts.matched).toBeGreaterThan(counts.traceAllocations / 2);
      const snapshot = buildAnalyzedSnapshot(model, { fileName: run, fileBytes: 1 });
      const figures = snapshot.devices[0]!.figures;
      const none = figures.categoriesAtPeak!.find((row) => row.category === NO_FILE_CATEGORY);
      expect((none?.bytes ?? 0) / figures.active.peakBytes).toBeLessThan(0.5);
      const sum = figures.categoriesAtPeak!.reduce((total, row) => total + row.bytes, 0);
      expect(sum).toBe(figures.active.peakBytes);
      const unmatched = counts.traceAllocations - counts.matched;
      if (unmatched > 0) {
        expect(model.warnings).toContainEqual(expect.stringContaining(`${unmatched} allocation`));
      }
    },
  );

  it("leak: the 1 MiB kept per step are PyTorch's unknown, and Who holds it by category says so", async () => {
    const { model } = await enriched('leak', 'raw.json.gz');
    const leaked = rawTuples('leak').filter(
      ([, action, bytes]) => action === CREATE && bytes === 1_048_576,
    );
    expect(leaked).toHaveLength(6);
    const pytorchSays = new Set(leaked.map(([, , , category]) => TIMELINE_CATEGORIES[category]));
    expect([...pytorchSays]).toEqual(['unknown']);
    const trace = model.traces[0]!;
    const mib: string[] = [];
    for (let row = 0; row < trace.length; row++) {
      if (trace.action[row] === ActionCode.alloc && trace.sizeBytes[row] === 1_048_576)
        mib.push(model.strings[trace.categoryId![row]!]!);
    }
    expect(mib).toEqual(new Array(6).fill('unknown'));
    const snapshot = buildAnalyzedSnapshot(model, { fileName: 'leak', fileBytes: 1 });
    const device = snapshot.devices[0]!;
    const column = categoriesOf(snapshot, device);
    let unknownBytes = 0;
    for (const row of aliveRowsAt(device, device.traceLength - 1)) {
      if (categoryAt(column, row) === 'unknown') unknownBytes += device.allocations.sizeBytes[row]!;
    }
    expect(unknownBytes).toBe(6 * 1_048_576);
    expect(
      device.figures.categoriesAtPeak!.find((row) => row.category === NO_FILE_CATEGORY),
    ).toBeUndefined();
  });

  it('a timeline of another run is refused, naming the file and the times', async () => {
    const trace = await decode('clean.pt.trace.json.gz');
    const other = await decode('leak.memory-timeline.raw.json.gz');
    expect(() =>
      enrichWithMemoryTimeline(trace, other, 'leak.memory-timeline.raw.json.gz'),
    ).toThrow(
      /^not a memory timeline of this trace's run: its times \(2026-.* do not overlap the trace's memory events/,
    );
  });

  it('the files the wrong way round are refused', async () => {
    const trace = await decode('clean.pt.trace.json.gz');
    const timeline = await decode('clean.memory-timeline.json');
    expect(() => enrichWithMemoryTimeline(timeline, trace, 'clean.pt.trace.json.gz')).toThrow(
      'not a memory timeline (torch.profiler',
    );
    expect(() => enrichWithMemoryTimeline(timeline, timeline, 'x.json')).toThrow(
      'this file is not one',
    );
  });
});
