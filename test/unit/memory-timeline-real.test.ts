// The memory timelines real PyTorch 2.13 wrote (test/fixtures/profiler, export_memory_timeline's
// .json and .raw.json.gz of the three recorded runs), opened on their own: the figures by
// category at the active peak, from both forms, against the files read independently here
// (zlib + JSON.parse): the raw tuples summed per category, and the .json's highest row.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildAnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { categoriesOf, categoryAt } from '../../src/shared/holders/classify';
import { aliveRowsAt } from '../../src/shared/holders/alive-rows';
import { decodeSnapshot } from '../../src/shared/snapshot/decode-snapshot';
import { CPU_DEVICE } from '../../src/shared/snapshot/model';
import { TIMELINE_CATEGORIES } from '../../src/shared/snapshot/memory-timeline-reader';
import { chunksOf } from '../support/analyzed';

const DIR = resolve(import.meta.dirname, '../fixtures/profiler');
const RUNS = ['clean', 'leak', 'dataloader'];
const FORMS = ['memory-timeline.json', 'memory-timeline.raw.json.gz'];

async function open(name: string, chunk = 1 << 16) {
  const bytes = new Uint8Array(readFileSync(resolve(DIR, name)));
  const model = await decodeSnapshot(chunksOf(bytes, chunk), { totalBytes: bytes.length });
  return buildAnalyzedSnapshot(model, { fileName: name, fileBytes: bytes.length });
}

/** The raw tuples summed per category, in file order: the levels at the highest total. */
function rawPeak(run: string): { total: number; levels: number[] } {
  const tuples = JSON.parse(
    gunzipSync(readFileSync(resolve(DIR, `${run}.memory-timeline.raw.json.gz`))).toString(),
  ) as [number, number, number, number][];
  const levels = new Array<number>(8).fill(0);
  let best = { total: -1, levels: [...levels] };
  for (const [, , bytes, category] of tuples) {
    levels[category]! += bytes;
    const total = levels.reduce((a, b) => a + b, 0);
    if (total > best.total) best = { total, levels: [...levels] };
  }
  return best;
}

/** The .json's row with the highest total (its first level, PyTorch's unused 0, left out). */
function jsonPeak(run: string): { total: number; levels: number[] } {
  const [, sizes] = JSON.parse(
    readFileSync(resolve(DIR, `${run}.memory-timeline.json`), 'utf8'),
  ) as [number[], number[][]];
  let best = { total: -1, levels: [] as number[] };
  for (const row of sizes) {
    const levels = row.slice(1);
    const total = levels.reduce((a, b) => a + b, 0);
    if (total > best.total) best = { total, levels };
  }
  return best;
}

describe('memory timelines recorded with PyTorch, opened alone', () => {
  it.each(RUNS.flatMap((run) => FORMS.map((form) => [run, form] as const)))(
    "%s.%s: the bytes by PyTorch category at the peak are the file's own",
    async (run, form) => {
      const snapshot = await open(`${run}.${form}`);
      expect(snapshot.source).toBe('memory-timeline');
      expect(snapshot.devices.map((d) => d.device)).toEqual([CPU_DEVICE]);
      const device = snapshot.devices[0]!;
      const raw = rawPeak(run);
      const json = jsonPeak(run);
      // The two exports of one run agree with each other (PyTorch's .json is the raw coalesced
      // per microsecond), and both forms give exactly those figures.
      expect(json).toEqual(raw);
      expect(device.figures.active.peakBytes).toBe(raw.total);
      const figures = device.figures.categoriesAtPeak!;
      expect(figures.map((row) => row.category)).toEqual([...TIMELINE_CATEGORIES]);
      expect(figures.map((row) => row.bytes)).toEqual(raw.levels);
      // The same from the allocations alive at the peak (what the timeline and Who holds it read).
      const rows = aliveRowsAt(device, device.figures.active.peakEventIndex);
      let sum = 0;
      for (const row of rows) sum += device.allocations.sizeBytes[row]!;
      expect(sum).toBe(raw.total);
    },
  );

  it.each(RUNS)('%s: both forms end with the same bytes per category as the file', async (run) => {
    const [levels, rawForm] = await Promise.all(FORMS.map((form) => open(`${run}.${form}`)));
    const [, sizes] = JSON.parse(
      readFileSync(resolve(DIR, `${run}.memory-timeline.json`), 'utf8'),
    ) as [number[], number[][]];
    const last = sizes
      .at(-1)!
      .slice(1)
      .reduce((a, b) => a + b, 0);
    expect(levels!.devices[0]!.figures.active.finalBytes).toBe(last);
    expect(rawForm!.devices[0]!.figures.active.finalBytes).toBe(last);
  });

  it("leak: the 6 MiB kept by leak_step are PyTorch's unknown, in Who holds it by category too", async () => {
    const snapshot = await open('leak.memory-timeline.raw.json.gz');
    const device = snapshot.devices[0]!;
    const figures = device.figures.categoriesAtPeak!;
    expect(figures.find((row) => row.category === 'unknown')).toEqual({
      category: 'unknown',
      bytes: 6 * 1_048_576,
      allocations: 6,
    });
    const column = categoriesOf(snapshot, device);
    const byCategory = new Map<string, number>();
    for (const row of aliveRowsAt(device, device.figures.active.peakEventIndex)) {
      const category = categoryAt(column, row);
      byCategory.set(
        category,
        (byCategory.get(category) ?? 0) + device.allocations.sizeBytes[row]!,
      );
    }
    expect(Object.fromEntries(byCategory)).toEqual({
      parameter: 38_440,
      gradient: 44_112,
      unknown: 6 * 1_048_576,
    });
  });

  it.each(FORMS)('%s: the verdict does not depend on where the chunks fall', async (form) => {
    const whole = await open(`dataloader.${form}`, 1 << 20);
    const cut = await open(`dataloader.${form}`, 7);
    expect(cut.devices[0]!.figures).toEqual(whole.devices[0]!.figures);
  });
});
