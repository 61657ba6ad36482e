// The profiler traces real PyTorch 2.13 wrote (test/fixtures/profiler, recorded by
// generators/record-profiler-traces.py), against what the files themselves say, read
// independently here (zlib + JSON.parse): the active curve is PyTorch's `Total Allocated` at
// every memory event, every allocation alive at the peak has an op and a frame of the script,
// the leaking run's first leak suspect grows by the planted bytes per step, the clean runs
// do not grow, and the verdict never depends on where the reader's chunks fall.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildAnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { allocationOp } from '../../src/shared/analyzed/allocation-op';
import { eventMarkers } from '../../src/shared/chart/timeline-markers';
import { deviceLabel } from '../../src/shared/format/words';
import { renderTimelineSvg } from '../../src/shared/render/timeline-svg';
import { colorByFor, colorBysOf } from '../../src/shared/holders/band-coloring';
import {
  groupingApplies,
  groupRows,
  NO_OPS_RECORDED,
  OUTSIDE_OPS,
} from '../../src/shared/holders/group-by';
import { stepsOf } from '../../src/shared/steps/find-steps';
import { analyzeGrowth } from '../../src/shared/steps/growth';
import { phasesOf } from '../../src/shared/steps/phases';
import { decodeSnapshot } from '../../src/shared/snapshot/decode-snapshot';
import { CPU_DEVICE, NO_STACK } from '../../src/shared/snapshot/model';
import { frameAt, stackFrameIds } from '../../src/shared/snapshot/stack-source';
import { chunksOf } from '../support/analyzed';
import { memoryEventsOf } from '../support/profiler-trace';
import { realSnapshotPath } from '../support/real-snapshots';

const DIR = resolve(import.meta.dirname, '../fixtures/profiler');
const SCRIPT_FILE = 'record-profiler-traces.py';

interface Manifest {
  torch: string;
  schedule: { active: number };
  runs: Record<string, { leak_bytes_per_step: number }>;
}
const manifest = JSON.parse(readFileSync(resolve(DIR, 'manifest.json'), 'utf8')) as Manifest;
const RUNS = Object.keys(manifest.runs);

async function open(run: string, chunk = 1 << 16) {
  const bytes = new Uint8Array(readFileSync(resolve(DIR, `${run}.pt.trace.json.gz`)));
  const model = await decodeSnapshot(chunksOf(bytes, chunk), { totalBytes: bytes.length });
  const snapshot = buildAnalyzedSnapshot(model, {
    fileName: `${run}.pt.trace.json.gz`,
    fileBytes: bytes.length,
  });
  const text = new TextDecoder().decode(gunzipSync(bytes));
  return { model, snapshot, recorded: memoryEventsOf(text), text };
}

/**
 * Independently of the decoder: the innermost `cpu_op` span on the event's thread that contains
 * it (the latest start among those containing it; ties: the shorter one), or null.
 */
function opsOf(text: string): (event: { ts: number; tid: unknown }) => string | null {
  const spans = (JSON.parse(text) as { traceEvents: Record<string, unknown>[] }).traceEvents.filter(
    (event) => event['cat'] === 'cpu_op' && event['ph'] === 'X',
  );
  return ({ ts, tid }) => {
    let best: Record<string, unknown> | null = null;
    for (const span of spans) {
      const start = span['ts'] as number;
      const end = start + (span['dur'] as number);
      if (span['tid'] !== tid || start > ts || ts > end) continue;
      if (
        best === null ||
        start > (best['ts'] as number) ||
        (start === best['ts'] && (span['dur'] as number) < (best['dur'] as number))
      )
        best = span;
    }
    return best === null ? null : (best['name'] as string);
  };
}

describe('profiler traces recorded with PyTorch', () => {
  it('the fixtures are what the manifest says: torch 2.13, three runs, a planted leak', () => {
    expect(manifest.torch).toMatch(/^2\.13\./);
    expect(RUNS).toEqual(['clean', 'leak', 'dataloader']);
    expect(manifest.runs['leak']!.leak_bytes_per_step).toBe(1_048_576);
  });

  it.each(RUNS)('%s: one device, cpu, a profiler trace with no segments', async (run) => {
    const { model, snapshot, recorded } = await open(run);
    expect(model.source).toBe('profiler-trace');
    expect(snapshot.source).toBe('profiler-trace');
    expect([...recorded.keys()]).toEqual(['0:-1']);
    expect(snapshot.devices.map((device) => device.device)).toEqual([CPU_DEVICE]);
    expect(deviceLabel(CPU_DEVICE)).toBe('cpu');
    expect(model.segments.count).toBe(0);
    // Total Reserved is 0 at every CPU event: not recorded, so no reserved figure is shown:
    // no reserved curve, peak marker or legend entry in the picture.
    const device = snapshot.devices[0]!;
    expect(device.figures.reservedRecorded).toBe(false);
    expect(eventMarkers(device).map((marker) => marker.kind)).toEqual(['peak-active']);
    const svg = renderTimelineSvg(snapshot, 0, { width: 1280, height: 600 });
    expect(svg).toContain('active peak');
    expect(svg).not.toMatch(/reserved/);
    expect(snapshot.devices[0]!.segmentHistory.count).toBe(0);
  });

  it.each(RUNS)('%s: the active curve is Total Allocated at every memory event', async (run) => {
    const { snapshot, recorded } = await open(run);
    const events = recorded.get('0:-1')!;
    const device = snapshot.devices[0]!;
    expect(device.traceLength).toBe(events.length);
    // Same events in the same order: sizes and addresses line up one to one.
    const sizes = events.map((event) => Math.abs(event.bytes));
    expect([...device.allocations.sizeBytes].length).toBe(
      events.filter((event) => event.bytes > 0).length,
    );
    expect(Array.from(device.activeBytes)).toEqual(events.map((event) => event.totalAllocated));
    expect(Array.from(device.reservedBytes)).toEqual(events.map((event) => event.totalReserved));
    expect(sizes.reduce((sum, bytes) => sum + bytes, 0)).toBeGreaterThan(0);
    // No warning that the two part, nor of frees without their allocation.
    expect(snapshot.warnings.filter((warning) => /parts from|mid-run/.test(warning))).toEqual([]);
    // The figures: the peak is the largest Total Allocated, the end the last one.
    const totals = events.map((event) => event.totalAllocated!);
    expect(device.figures.active.peakBytes).toBe(Math.max(...totals));
    expect(device.figures.active.finalBytes).toBe(totals.at(-1));
    expect(device.figures.allocatedFinalBytes).toBe(totals.at(-1));
  });

  it.each(RUNS)('%s: allocations never freed are named in a warning', async (run) => {
    const { snapshot, recorded } = await open(run);
    // Independently: allocations whose address is not freed after them.
    const held = new Map<number, number>();
    for (const event of recorded.get('0:-1')!) {
      if (event.bytes > 0) held.set(event.addr, event.bytes);
      else held.delete(event.addr);
    }
    const count = held.size;
    expect(count).toBeGreaterThan(0);
    expect(snapshot.warnings).toContainEqual(
      expect.stringMatching(
        new RegExp(`^cpu: ${count} allocations \\(.*\\) are never freed in the trace`),
      ),
    );
  });

  it.each(RUNS)(
    '%s: every allocation alive at the peak has an op and a frame of the script',
    async (run) => {
      const { snapshot } = await open(run);
      const device = snapshot.devices[0]!;
      const peak = device.figures.active.peakEventIndex;
      const table = device.allocations;
      const live: number[] = [];
      for (let row = 0; row < table.count; row++)
        if (table.startEvent[row]! <= peak && table.endEvent[row]! > peak) live.push(row);
      // They hold the whole peak: the trace starts from nothing.
      expect(live.reduce((sum, row) => sum + table.sizeBytes[row]!, 0)).toBe(
        device.figures.active.peakBytes,
      );
      for (const row of live) {
        const op = allocationOp(snapshot, device, row);
        expect(op, `op of allocation ${row}`).toMatch(/^aten::/);
        const stackId = table.stackId[row]!;
        expect(stackId).not.toBe(NO_STACK);
        const frames = [...stackFrameIds(snapshot, stackId)].map((id) =>
          frameAt(snapshot.frames, id),
        );
        // The op is the innermost frame (no file), the script further out.
        expect(frames[0]).toEqual({ filename: '', line: -1, name: op });
        expect(frames.some((frame) => frame.filename === SCRIPT_FILE && frame.line > 0)).toBe(true);
      }
    },
  );

  it.each(RUNS)('%s: Who holds it by op at the peak: the ops the trace names', async (run) => {
    const { snapshot, recorded, text } = await open(run);
    const device = snapshot.devices[0]!;
    const peak = device.figures.active.peakEventIndex;
    // Independently: the allocations alive after event `peak` (events are in the model's order,
    // checked above), each under the op that contains its event.
    const opOf = opsOf(text);
    const alive = new Map<number, { bytes: number; op: string }>();
    recorded
      .get('0:-1')!
      .slice(0, peak + 1)
      .forEach((event) => {
        if (event.bytes > 0)
          alive.set(event.addr, { bytes: event.bytes, op: opOf(event) ?? OUTSIDE_OPS });
        else alive.delete(event.addr);
      });
    const expected = new Map<string, number>();
    for (const { bytes, op } of alive.values()) expected.set(op, (expected.get(op) ?? 0) + bytes);
    const table = device.allocations;
    const live: number[] = [];
    for (let row = 0; row < table.count; row++)
      if (table.startEvent[row]! <= peak && table.endEvent[row]! > peak) live.push(row);
    const groups = groupRows(snapshot, device, live, 'op');
    expect(new Map(groups.map((group) => [group.key, group.bytes]))).toEqual(expected);
    expect(groups.every((group) => group.key.startsWith('aten::'))).toBe(true);
    if (run === 'leak') expect(groups[0]!.key).toBe('aten::empty');
  });

  it('a snapshot records no op: one group that says so', async () => {
    const bytes = new Uint8Array(readFileSync(realSnapshotPath('a0kuma')));
    const model = await decodeSnapshot(chunksOf(bytes, 1 << 20), { totalBytes: bytes.length });
    const snapshot = buildAnalyzedSnapshot(model, { fileName: 'a0kuma', fileBytes: bytes.length });
    const device = snapshot.devices[0]!;
    const rows = Array.from({ length: device.allocations.count }, (_, row) => row);
    const groups = groupRows(snapshot, device, rows, 'op');
    expect(groups.map((group) => group.key)).toEqual([NO_OPS_RECORDED]);
    expect(groups[0]!.allocations).toBe(device.allocations.count);
    // So the page does not offer it there; a remembered "by op" draws by stack.
    expect(groupingApplies(device, 'op')).toBe(false);
    expect(colorBysOf(device)).not.toContain('op');
    expect(colorByFor(device, 'op')).toBe('stack');
    const trace = (await open('leak')).snapshot.devices[0]!;
    expect(colorBysOf(trace)).toContain('op');
    expect(colorByFor(trace, 'op')).toBe('op');
  });

  it('leak: the first leak suspect keeps the planted bytes per step, at leak_step', async () => {
    const { snapshot } = await open('leak');
    const device = snapshot.devices[0]!;
    const found = stepsOf(snapshot, device);
    expect(found.source).toBe('annotations');
    expect(found.steps.map((step) => step.name)).toEqual(
      [2, 3, 4, 5, 6, 7].map((n) => `ProfilerStep#${n}`),
    );
    const growth = analyzeGrowth(snapshot, device, found);
    expect(growth.growing).toBe(true);
    const planted = manifest.runs['leak']!.leak_bytes_per_step;
    const first = growth.suspects[0]!;
    expect(Math.abs(first.bytesPerStep - planted) / planted).toBeLessThan(0.01);
    expect(first.topFrame).toMatch(/^record-profiler-traces\.py:\d+ leak_step$/);
    expect(first.stepsGrown).toBe(manifest.schedule.active);
    expect(first.bytesByStep).toEqual(new Array(manifest.schedule.active).fill(planted));
    // Each kept allocation is the planted tensor, made by aten::empty.
    for (const row of first.rows) {
      expect(device.allocations.sizeBytes[row]).toBe(planted);
      expect(allocationOp(snapshot, device, row)).toBe('aten::empty');
    }
  });

  it.each(RUNS)("%s: backward is found in every step from PyTorch's own frames", async (run) => {
    // The profiler names them relative to site-packages (`torch/autograd/__init__.py(255):
    // backward`): the rules for PyTorch's files must read them as for a snapshot's full paths.
    const { snapshot } = await open(run);
    const device = snapshot.devices[0]!;
    const { phases } = phasesOf(snapshot, device);
    const backward = phases.filter((phase) => phase.name === 'backward');
    expect(backward.map((phase) => phase.step)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it.each(['clean', 'dataloader'])('%s: no growth and no leak suspect', async (run) => {
    const { snapshot } = await open(run);
    const device = snapshot.devices[0]!;
    const found = stepsOf(snapshot, device);
    expect(found.steps).toHaveLength(manifest.schedule.active);
    const growth = analyzeGrowth(snapshot, device, found);
    expect(growth.growing).toBe(false);
    expect(growth.suspects).toEqual([]);
    expect(growth.verdict).toMatch(/^No growth across 6 steps/);
  });

  it.each(RUNS)('%s: the same model at 7-byte chunks as at 64 KiB', async (run) => {
    const a = await open(run);
    const b = await open(run, 7);
    expect(b.model.traces).toEqual(a.model.traces);
    expect(b.model.frames).toEqual(a.model.frames);
    expect(b.model.stacks).toEqual(a.model.stacks);
    expect(b.model.externalAnnotations).toEqual(a.model.externalAnnotations);
    expect(b.model.warnings).toEqual(a.model.warnings);
  });
});
