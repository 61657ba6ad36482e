// Hand-built profiler traces with known truth (test/support/profiler-trace.ts): nested ops and
// Python frames, several threads, CUDA memory beside CPU memory, frees without their
// allocation, reused addresses, events out of order, no stacks: exactly the allocations, ops,
// frames, devices, warnings and steps planted come back.

import { describe, expect, it } from 'vitest';
import {
  buildAnalyzedSnapshot,
  snapshotFiguresOfAnalyzed,
  type AnalyzedDevice,
  type AnalyzedSnapshot,
} from '../../src/shared/analyzed/analyzed-snapshot';
import { allocationOp } from '../../src/shared/analyzed/allocation-op';
import { summaryDocumentOf } from '../../src/shared/report/summary-report';
import { deviceLabel } from '../../src/shared/format/words';
import { stepsOf } from '../../src/shared/steps/find-steps';
import { CPU_DEVICE, NO_STACK } from '../../src/shared/snapshot/model';
import { frameAt, stackFrameIds } from '../../src/shared/snapshot/stack-source';
import { decodeBytes } from '../support/analyzed';
import {
  annotationSpan,
  epochUs,
  memoryEvent,
  opSpan,
  pythonSpan,
  traceBytes,
  type TraceEvent,
} from '../support/profiler-trace';

async function analyze(events: TraceEvent[], top: Record<string, unknown> = {}, gzip = false) {
  const bytes = traceBytes(events, top, gzip);
  const model = await decodeBytes(bytes);
  return buildAnalyzedSnapshot(model, { fileName: 'built.pt.trace.json', fileBytes: bytes.length });
}

interface Allocation {
  address: number;
  bytes: number;
  start: number;
  end: number;
  op: string | null;
  frames: string[];
}

/** Every allocation of a device, as plain values: its events, op and frames (innermost first). */
function allocationsOf(snapshot: AnalyzedSnapshot, device: AnalyzedDevice): Allocation[] {
  const table = device.allocations;
  const rows: Allocation[] = [];
  for (let row = 0; row < table.count; row++) {
    const stackId = table.stackId[row]!;
    rows.push({
      address: table.address[row]!,
      bytes: table.sizeBytes[row]!,
      start: table.startEvent[row]!,
      end: table.endEvent[row]!,
      op: allocationOp(snapshot, device, row),
      frames:
        stackId === NO_STACK
          ? []
          : [...stackFrameIds(snapshot, stackId)].map((id) => {
              const frame = frameAt(snapshot.frames, id);
              return frame.filename === ''
                ? frame.name
                : `${frame.filename}:${frame.line} ${frame.name}`;
            }),
    });
  }
  return rows;
}

describe('hand-built profiler traces', () => {
  it('nested ops and Python frames: the innermost op, the Python stack innermost first', async () => {
    const snapshot = await analyze([
      pythonSpan('train.py(10): main', 0, 100),
      pythonSpan('model.py(20): forward', 10, 50),
      pythonSpan('<built-in method linear of PyCapsule object at 0x7f>', 11, 45),
      opSpan('aten::linear', 12, 40),
      opSpan('aten::empty', 15, 5),
      memoryEvent(17, 0x1000, 256, { total: 256 }),
      // Inside aten::linear (aten::empty ended) and forward.
      memoryEvent(30, 0x2000, 64, { total: 320 }),
      // Inside forward only: no op.
      memoryEvent(58, 0x3000, 8, { total: 328 }),
      // Inside main only.
      memoryEvent(70, 0x1000, -256, { total: 72 }),
    ]);
    expect(snapshot.warnings.filter((w) => !/never freed/.test(w))).toEqual([]);
    const device = snapshot.devices[0]!;
    expect(device.device).toBe(CPU_DEVICE);
    expect(allocationsOf(snapshot, device)).toEqual([
      {
        address: 0x1000,
        bytes: 256,
        start: 0,
        end: 3,
        op: 'aten::empty',
        frames: [
          'aten::empty',
          '<built-in method linear of PyCapsule object at 0x7f>',
          'model.py:20 forward',
          'train.py:10 main',
        ],
      },
      {
        address: 0x2000,
        bytes: 64,
        start: 1,
        end: 4,
        op: 'aten::linear',
        frames: [
          'aten::linear',
          '<built-in method linear of PyCapsule object at 0x7f>',
          'model.py:20 forward',
          'train.py:10 main',
        ],
      },
      {
        address: 0x3000,
        bytes: 8,
        start: 2,
        end: 4,
        op: null,
        frames: ['model.py:20 forward', 'train.py:10 main'],
      },
    ]);
    expect(Array.from(device.activeBytes)).toEqual([256, 320, 328, 72]);
    expect(snapshot.warnings).toEqual([
      'cpu: 2 allocations (72 B) are never freed in the trace: still held when recording stopped, or freed after it',
    ]);
  });

  it('several threads: each memory event is attributed to the spans of its own thread', async () => {
    const snapshot = await analyze([
      opSpan('aten::zeros', 0, 100, 7),
      pythonSpan('loader.py(5): collate', 0, 100, 7),
      opSpan('aten::ones', 40, 20, 8),
      pythonSpan('train.py(3): step', 30, 40, 8),
      memoryEvent(50, 0xa0, 100, { tid: 7, total: 100 }),
      memoryEvent(51, 0xb0, 200, { tid: 8, total: 300 }),
      memoryEvent(52, 0xc0, 300, { tid: 9, total: 600 }),
    ]);
    const device = snapshot.devices[0]!;
    expect(
      allocationsOf(snapshot, device).map(({ address, op, frames }) => ({ address, op, frames })),
    ).toEqual([
      { address: 0xa0, op: 'aten::zeros', frames: ['aten::zeros', 'loader.py:5 collate'] },
      { address: 0xb0, op: 'aten::ones', frames: ['aten::ones', 'train.py:3 step'] },
      // A thread with no spans: no op, no stack.
      { address: 0xc0, op: null, frames: [] },
    ]);
  });

  it('events without pid and tid are one thread of their own', async () => {
    const bare = (event: TraceEvent): TraceEvent => {
      const { pid: _pid, tid: _tid, ...rest } = event;
      return rest;
    };
    const snapshot = await analyze([
      bare(opSpan('aten::cat', 0, 10)),
      bare(memoryEvent(5, 0x10, 8, { total: 8 })),
      memoryEvent(6, 0x20, 8, { total: 16 }),
    ]);
    expect(allocationsOf(snapshot, snapshot.devices[0]!).map((a) => a.op)).toEqual([
      'aten::cat',
      null,
    ]);
  });

  it('a stack deeper than 128 frames keeps its innermost 128, said once', async () => {
    const depth = 300;
    const events: TraceEvent[] = [];
    for (let level = 0; level < depth; level++)
      events.push(pythonSpan(`deep.py(${level + 1}): f${level}`, level, 1000 - 2 * level));
    events.push(opSpan('aten::empty', 400, 10));
    events.push(memoryEvent(405, 0x10, 8, { total: 8 }));
    events.push(memoryEvent(406, 0x20, 8, { total: 16 }));
    const snapshot = await analyze(events);
    const [first, second] = allocationsOf(snapshot, snapshot.devices[0]!);
    expect(first!.frames).toHaveLength(128);
    expect(first!.frames.slice(0, 3)).toEqual([
      'aten::empty',
      'deep.py:300 f299',
      'deep.py:299 f298',
    ]);
    expect(first!.frames.at(-1)).toBe('deep.py:174 f173');
    expect(second!.frames).toEqual(first!.frames);
    expect(snapshot.warnings).toContain(
      '2 memory events are held by more than 128 nested spans: their stacks keep the 128 innermost frames',
    );
  });

  it('an op without Python frames (with_stack off) is the whole stack', async () => {
    const snapshot = await analyze([
      opSpan('aten::mm', 0, 10),
      memoryEvent(5, 0x10, 4096, { total: 4096 }),
    ]);
    expect(allocationsOf(snapshot, snapshot.devices[0]!)[0]!.frames).toEqual(['aten::mm']);
  });

  it('CUDA memory beside CPU memory: two devices, CUDA first, Total Reserved as recorded', async () => {
    const snapshot = await analyze([
      opSpan('aten::empty', 0, 100),
      memoryEvent(1, 0x7f0000000000, 512, { device: [1, 0], total: 512, reserved: 2_097_152 }),
      memoryEvent(2, 0x5500, 40, { total: 40 }),
      memoryEvent(3, 0x7f0000000200, 1024, {
        device: [1, 0],
        total: 1536,
        reserved: 2_097_152,
      }),
      memoryEvent(4, 0x7f0000000000, -512, {
        device: [1, 0],
        total: 1024,
        reserved: 2_097_152,
      }),
      memoryEvent(5, 0x7f1000000000, 20_971_520, {
        device: [1, 1],
        total: 20_971_520,
        reserved: 20_971_520,
      }),
    ]);
    expect(snapshot.devices.map((device) => deviceLabel(device.device))).toEqual([
      'cuda:0',
      'cuda:1',
      'cpu',
    ]);
    const [cuda0, cuda1, cpu] = snapshot.devices;
    expect(Array.from(cuda0!.activeBytes)).toEqual([512, 1536, 1024]);
    expect(Array.from(cuda0!.reservedBytes)).toEqual([2_097_152, 2_097_152, 2_097_152]);
    expect(cuda0!.figures.reserved.peakBytes).toBe(2_097_152);
    expect(cuda1!.figures.active.peakBytes).toBe(20_971_520);
    expect(Array.from(cpu!.activeBytes)).toEqual([40]);
    // CUDA's reserved bytes are recorded; the CPU's Total Reserved of 0 says nothing was.
    expect([cuda0, cuda1, cpu].map((device) => device!.figures.reservedRecorded)).toEqual([
      true,
      true,
      false,
    ]);
    const summary = summaryDocumentOf(snapshotFiguresOfAnalyzed(snapshot));
    expect(summary.devices.map((device) => device.reserved_bytes?.peak ?? null)).toEqual([
      2_097_152,
      20_971_520,
      null,
    ]);
    expect(allocationsOf(snapshot, cuda0!).map((a) => a.op)).toEqual([
      'aten::empty',
      'aten::empty',
    ]);
    // Times are epoch microseconds: baseTimeNanoseconds / 1000 + ts.
    expect(Array.from(cuda0!.timeUs!)).toEqual([epochUs(1), epochUs(3), epochUs(4)]);
  });

  it('a free without its allocation: the trace started late; the curve starts from Total Allocated', async () => {
    const snapshot = await analyze([
      // 1,000 B were allocated before recording; 100 B of them are freed first.
      memoryEvent(1, 0x900, -100, { total: 900 }),
      memoryEvent(2, 0x100, 50, { total: 950 }),
      memoryEvent(3, 0x100, -50, { total: 900 }),
    ]);
    const device = snapshot.devices[0]!;
    expect(device.figures.active.baselineBytes).toBe(1000);
    expect(Array.from(device.activeBytes)).toEqual([900, 950, 900]);
    expect(device.figures.unmatchedFrees).toBe(1);
    expect(snapshot.warnings).toEqual([
      'cpu: the trace starts mid-run: 1 free has no alloc in the trace (the ring buffer wrapped, or recording started late)',
    ]);
  });

  it('reused addresses: each allocation at an address ends at the free after it', async () => {
    const snapshot = await analyze([
      memoryEvent(1, 0x40, 100, { total: 100 }),
      memoryEvent(2, 0x40, -100, { total: 0 }),
      memoryEvent(3, 0x40, 200, { total: 200 }),
      memoryEvent(4, 0x40, -200, { total: 0 }),
      memoryEvent(5, 0x40, 300, { total: 300 }),
    ]);
    expect(
      allocationsOf(snapshot, snapshot.devices[0]!).map(({ bytes, start, end }) => ({
        bytes,
        start,
        end,
      })),
    ).toEqual([
      { bytes: 100, start: 0, end: 1 },
      { bytes: 200, start: 2, end: 3 },
      { bytes: 300, start: 4, end: 5 },
    ]);
  });

  it('events in any order in the file are read in time order', async () => {
    const events = [
      memoryEvent(1, 0x40, 100, { total: 100 }),
      memoryEvent(2, 0x50, 20, { total: 120 }),
      memoryEvent(3, 0x40, -100, { total: 20 }),
      opSpan('aten::add', 1.5, 1),
    ];
    const snapshot = await analyze([...events].reverse());
    const device = snapshot.devices[0]!;
    expect(Array.from(device.activeBytes)).toEqual([100, 120, 20]);
    expect(allocationsOf(snapshot, device).map((a) => [a.address, a.start, a.end, a.op])).toEqual([
      [0x40, 0, 2, null],
      [0x50, 1, 3, 'aten::add'],
    ]);
  });

  it('a Total Allocated that parts from the sum of the events is said, with where', async () => {
    const snapshot = await analyze([
      memoryEvent(1, 0x40, 100, { total: 100 }),
      memoryEvent(2, 0x50, 20, { total: 170 }),
      memoryEvent(3, 0x40, -100, { total: 70 }),
    ]);
    expect(Array.from(snapshot.devices[0]!.activeBytes)).toEqual([100, 120, 20]);
    expect(snapshot.warnings).toContain(
      "cpu: PyTorch's Total Allocated parts from the sum of the memory events at 2 events of 3 (first after event 1: 170 B recorded, 120 B summed); events recorded on several threads at once are in another order in the trace than in PyTorch's count",
    );
  });

  it('ProfilerStep#N spans are the steps; memory of other device types is left out, said', async () => {
    const events: TraceEvent[] = [];
    for (let step = 0; step < 4; step++) {
      const t = step * 100;
      events.push(annotationSpan(`ProfilerStep#${step + 3}`, t, 90));
      events.push(memoryEvent(t + 10, 0x1000 + step, 64, { total: 64 * (step + 1) }));
    }
    events.push(memoryEvent(5, 0x1, 8, { device: [13, 0], total: 8 }));
    const snapshot = await analyze(events, {}, true);
    const device = snapshot.devices[0]!;
    const found = stepsOf(snapshot, device);
    expect(found.source).toBe('annotations');
    expect(found.steps.map((step) => [step.name, step.startEvent, step.endEvent])).toEqual([
      ['ProfilerStep#3', 0, 0],
      ['ProfilerStep#4', 1, 1],
      ['ProfilerStep#5', 2, 2],
      ['ProfilerStep#6', 3, 3],
    ]);
    expect(snapshot.devices).toHaveLength(1);
    expect(snapshot.warnings).toContain(
      '1 memory event of device type 13 is left out: allocscope reads the memory of CPU (Device Type 0) and CUDA (1) devices',
    );
  });

  it('without Total Allocated the curve is the sum of the events, from what its frees need', async () => {
    const snapshot = await analyze([memoryEvent(1, 0x9, -30), memoryEvent(2, 0x10, 50)]);
    expect(Array.from(snapshot.devices[0]!.activeBytes)).toEqual([0, 50]);
    expect(snapshot.warnings).toContain(
      'cpu: the memory events record no Total Allocated; the active curve is the sum of the events, from 30 B',
    );
  });
});
