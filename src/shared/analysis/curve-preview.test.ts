// The curves drawn while a file decodes, against the analysis of the whole file: each list's
// buckets are the lowest and highest of the final curves (materialized by the analysis, less their
// baselines) over the bucket's rows, whatever the chunks the file came in.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../../generators/snapshot/generate-large-snapshot';
import { chunksOf } from '../../../test/support/analyzed';
import { realSnapshotPath } from '../../../test/support/real-snapshots';
import { buildAnalyzedSnapshotData } from '../analyzed/analyzed-snapshot';
import { decodeSnapshot } from '../snapshot/decode-snapshot';
import { ActionCode } from '../snapshot/model';
import type { TraceRowsSoFar } from '../snapshot/trace-table-builder';
import {
  CurvePreview,
  PREVIEW_BUCKETS,
  PREVIEW_MAX_LISTS,
  type CurvePreviewData,
  type CurvePreviewList,
} from './curve-preview';
import { analyzeSnapshot } from './snapshot-analysis';

const scratch = mkdtempSync(join(tmpdir(), 'curve-preview-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Decoded {
  /** The preview after each progress report, and after the last byte. */
  previews: CurvePreviewData[];
  expected: ExpectedList[];
}

interface ExpectedList {
  allocated: Float64Array;
  reserved: Float64Array;
  freeing: string;
}

/** Decodes `bytes` in chunks, following the rows at every progress report as the worker does. */
async function decodeFollowing(bytes: Uint8Array, chunk: number): Promise<Decoded> {
  const preview = new CurvePreview();
  const previews: CurvePreviewData[] = [];
  let rows: TraceRowsSoFar | null = null;
  const model = await decodeSnapshot(chunksOf(bytes, chunk), {
    totalBytes: bytes.length,
    onTraceRows: (soFar) => (rows = soFar),
    onProgress: () => {
      if (rows === null) return;
      preview.follow(rows);
      previews.push(preview.data());
    },
  });
  preview.follow(rows!);
  previews.push(preview.data());
  // What the analysis makes of the whole file: each device's curves, less their baselines.
  const analysis = analyzeSnapshot(model);
  const data = buildAnalyzedSnapshotData(model, { fileName: 'f', fileBytes: bytes.length });
  const expected = data.devices
    .filter((device) => device.traceLength > 0)
    .map((device) => {
      const analyzed = analysis.devices.find((d) => d.device === device.device)!;
      return {
        allocated: device.activeBytes.map((value) => value - analyzed.active.baselineBytes),
        reserved: device.reservedBytes.map((value) => value - analyzed.reserved.baselineBytes),
        freeing: analyzed.freeing.primary,
      };
    });
  return { previews, expected };
}

/** The buckets of `values` (bucketRows rows each): lowest and highest. */
function bucketsOf(values: Float64Array, bucketRows: number): { low: number[]; high: number[] } {
  const low: number[] = [];
  const high: number[] = [];
  for (let first = 0; first < values.length; first += bucketRows) {
    const bucket = values.subarray(first, Math.min(values.length, first + bucketRows));
    low.push(Math.min(...bucket));
    high.push(Math.max(...bucket));
  }
  return { low, high };
}

function expectListMatches(list: CurvePreviewList, expected: ExpectedList): void {
  expect(list.rows).toBe(expected.allocated.length);
  expect(list.freeing).toBe(expected.freeing);
  const allocated = bucketsOf(expected.allocated, list.bucketRows);
  const reserved = bucketsOf(expected.reserved, list.bucketRows);
  expect([...list.allocatedLow]).toEqual(allocated.low);
  expect([...list.allocatedHigh]).toEqual(allocated.high);
  expect([...list.reservedLow]).toEqual(reserved.low);
  expect([...list.reservedHigh]).toEqual(reserved.high);
}

describe('the curves drawn while a file decodes', () => {
  it.each([
    ['LINYUN', 64 << 10],
    ['Constructor', 7_001],
    ['Maphsge4', 1 << 20],
    ['a0kuma', 333],
  ])(
    'end as the analysis of the whole file, less its baselines: %s in chunks of %d',
    async (prefix, chunk) => {
      const bytes = new Uint8Array(readFileSync(realSnapshotPath(prefix)));
      const { previews, expected } = await decodeFollowing(bytes, chunk);
      const last = previews.at(-1)!;
      expect(expected.length).toBeGreaterThan(0);
      expect(last.lists).toHaveLength(expected.length);
      expect(last.listCount).toBe(expected.length);
      last.lists.forEach((list, index) => expectListMatches(list, expected[index]!));
    },
  );

  it('grows as the rows arrive, two devices of a generated file, buckets merged past 512 rows', async () => {
    const path = join(scratch, 'two-devices.pickle');
    const generated = generateLargeSnapshot(path, 3_000_000, { seed: 7 });
    const bytes = new Uint8Array(readFileSync(path));
    const { previews, expected } = await decodeFollowing(bytes, 256 << 10);
    expect(expected).toHaveLength(2);
    const rowsSeen = previews.map((preview) =>
      preview.lists.reduce((sum, list) => sum + list.rows, 0),
    );
    // Rows appear while the file is read, never go back, and end as the file's entries.
    expect(rowsSeen.filter((rows) => rows > 0 && rows < rowsSeen.at(-1)!).length).toBeGreaterThan(
      3,
    );
    for (let i = 1; i < rowsSeen.length; i++)
      expect(rowsSeen[i]!).toBeGreaterThanOrEqual(rowsSeen[i - 1]!);
    expect(rowsSeen.at(-1)).toBe(generated.devices.reduce((sum, d) => sum + d.traceEntries, 0));
    const last = previews.at(-1)!;
    last.lists.forEach((list, index) => {
      expect(list.bucketRows).toBeGreaterThan(1);
      expect(list.allocatedHigh.length).toBeLessThanOrEqual(PREVIEW_BUCKETS);
      expect(list.allocatedHigh.length).toBeGreaterThan(PREVIEW_BUCKETS / 2);
      expectListMatches(list, expected[index]!);
    });
  });
});

/** Rows as a decoder holds them: one list per entry of `lists`, each (action, size) pairs. */
function rowsOf(lists: [number, number][][]): TraceRowsSoFar {
  const all = lists.flat();
  const ranges = new Map<unknown, { first: number; count: number }>();
  let first = 0;
  for (const list of lists) {
    ranges.set(list, { first, count: list.length });
    first += list.length;
  }
  return {
    action: Uint8Array.from(all.map(([action]) => action)),
    sizeBytes: Float64Array.from(all.map(([, size]) => size)),
    ranges,
  };
}

describe('the curves drawn while a file decodes, by hand', () => {
  const { alloc, free_requested, free_completed, segment_alloc } = ActionCode;

  it('count free_requested as the end of an allocation until a free_completed shows up', () => {
    const preview = new CurvePreview();
    const entries: [number, number][] = [
      [segment_alloc, 100],
      [alloc, 10],
      [free_requested, 10],
    ];
    preview.follow(rowsOf([entries]));
    expect(preview.data().lists[0]).toMatchObject({ freeing: 'free_requested' });
    expect([...preview.data().lists[0]!.allocatedHigh]).toEqual([0, 10, 0]);
    // The same list, grown: from now on free_completed ends allocations, for every row so far
    // (the rule of the whole trace).
    preview.follow(rowsOf([[...entries, [free_completed, 10]]]));
    const list = preview.data().lists[0]!;
    expect(list.freeing).toBe('free_completed');
    expect([...list.allocatedHigh]).toEqual([0, 10, 10, 0]);
    expect([...list.reservedHigh]).toEqual([100, 100, 100, 100]);
  });

  it(`follow at most ${PREVIEW_MAX_LISTS} lists, and count the rest`, () => {
    const lists = Array.from({ length: PREVIEW_MAX_LISTS + 5 }, (_, index): [number, number][] => [
      [alloc, index + 1],
    ]);
    const preview = new CurvePreview();
    preview.follow(rowsOf(lists));
    const data = preview.data();
    expect(data.lists).toHaveLength(PREVIEW_MAX_LISTS);
    expect(data.listCount).toBe(PREVIEW_MAX_LISTS + 5);
    expect(data.lists.map((list) => list.allocatedHigh[0])).toEqual(
      lists.slice(0, PREVIEW_MAX_LISTS).map((entries) => entries[0]![1]),
    );
  });
});
