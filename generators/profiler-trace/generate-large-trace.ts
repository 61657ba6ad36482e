// A large PyTorch profiler trace (export_chrome_trace with profile_memory=True, with_stack=True),
// written in a stream so that a trace of several GB never sits in memory: the benchmark's
// `--traces` input. Shaped like the traces PyTorch writes (test/fixtures/profiler): the events
// in the order the exporter writes them (the op and annotation spans, then the `[memory]`
// instants, then the `python_function` spans), a ProfilerStep#N span per step, per op a Python
// stack of 8-20 frames from a few hundred functions, 1-2 allocations per op, most freed by a later
// op of the same step, the activations freed at the step's end, and `leakBytesPerStep` kept for
// good. Each section replays the same seeded draws, so the three passes agree event for event.

import { closeSync, openSync, writeSync } from 'node:fs';
import { Prng } from '../snapshot/prng';

export interface LargeTraceOptions {
  seed?: number;
  /** Bytes allocated in each step and never freed (the leak a user would look for). */
  leakBytesPerStep?: number;
}

export interface LargeTraceResult {
  bytes: number;
  steps: number;
  ops: number;
  memoryEvents: number;
  pythonSpans: number;
  seconds: number;
}

const PID = 4242;
const BASE_TIME_NS = 1_790_857_026_000_000_000;
const OPS_PER_STEP = 400;
const OP_US = 60;
/** Python functions the stacks are drawn from, and the ops. */
const FUNCTIONS = 400;
const OP_NAMES = ['aten::empty', 'aten::mm', 'aten::addmm', 'aten::relu', 'aten::add', 'aten::mul'];
/** Roughly what one op costs in the file (its spans and events), to size the steps. */
const BYTES_PER_OP_ESTIMATE = 3_300;

interface PlannedOp {
  ts: number;
  name: string;
  /** Indexes into FUNCTIONS, outermost first, below train_step (which spans the step). */
  stack: number[];
  allocations: { addr: number; bytes: number; freeTs: number }[];
}

/** The ops of one step, the same on every pass (drawn from the step's own seed). */
function planStep(seed: number, step: number, leakBytes: number): PlannedOp[] {
  const random = new Prng(seed * 1_000_003 + step);
  const stepStart = step * (OPS_PER_STEP + 2) * OP_US;
  const stepEnd = stepStart + (OPS_PER_STEP + 1) * OP_US;
  const ops: PlannedOp[] = [];
  for (let i = 0; i < OPS_PER_STEP; i++) {
    const ts = stepStart + (i + 1) * OP_US;
    const depth = random.int(3, 15);
    const stack = [4]; // module.py _call_impl, then the model's own functions
    for (let d = 0; d < depth; d++) stack.push(random.int(5, FUNCTIONS - 1));
    const allocations: PlannedOp['allocations'] = [];
    const count = random.int(1, 2);
    for (let k = 0; k < count; k++) {
      const bytes = 512 * random.int(1, 4096);
      const kind = random.next();
      // Temporaries die one to a few ops later; activations at the end of the step.
      const freeTs = kind < 0.7 ? ts + OP_US * random.int(1, 4) - 1 : stepEnd - 1;
      allocations.push({
        addr: 0x7f0000000000 + (step * OPS_PER_STEP + i) * 0x100000 + k * 0x40000,
        bytes,
        freeTs: Math.min(freeTs, stepEnd - 1),
      });
    }
    ops.push({ ts, name: OP_NAMES[random.int(0, OP_NAMES.length - 1)]!, stack, allocations });
  }
  if (leakBytes > 0) {
    const ts = stepStart + OP_US / 2;
    ops.push({
      ts,
      name: 'aten::empty',
      stack: [FUNCTIONS - 1],
      allocations: [
        { addr: 0x7e0000000000 + step * 0x1000000, bytes: leakBytes, freeTs: Infinity },
      ],
    });
  }
  return ops;
}

function functionName(index: number): string {
  if (index === 0) return 'train.py(190): <module>';
  if (index === 1) return 'train.py(170): main';
  if (index === 2) return 'train.py(120): train';
  if (index === 3) return 'train.py(88): train_step';
  if (index === 4) return 'torch/nn/modules/module.py(1775): _call_impl';
  if (index === FUNCTIONS - 1) return 'train.py(64): keep_for_later';
  return `model/layer_${index % 40}.py(${10 + (index % 300)}): forward_${index}`;
}

export function generateLargeTrace(
  path: string,
  targetBytes: number,
  options: LargeTraceOptions = {},
): LargeTraceResult {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const leak = options.leakBytesPerStep ?? 0;
  const steps = Math.max(1, Math.round(targetBytes / (OPS_PER_STEP * BYTES_PER_OP_ESTIMATE)));
  const fd = openSync(path, 'w');
  let bytes = 0;
  let pending: string[] = [];
  let pendingLength = 0;
  let first = true;
  const flush = (): void => {
    const buffer = Buffer.from(pending.join(''), 'utf8');
    writeSync(fd, buffer);
    bytes += buffer.length;
    pending = [];
    pendingLength = 0;
  };
  const write = (text: string): void => {
    pending.push(text);
    pendingLength += text.length;
    if (pendingLength > 1 << 22) flush();
  };
  const event = (json: string): void => {
    write(first ? `\n  ${json}` : `,\n  ${json}`);
    first = false;
  };
  let ops = 0;
  let memoryEvents = 0;
  let pythonSpans = 0;
  try {
    write(
      `{\n  "schemaVersion": 1,\n  "deviceProperties": [],\n  "with_stack": 1,\n  "profile_memory": 1,\n` +
        `  "record_shapes": 1,\n  "displayTimeUnit": "ms",\n  "baseTimeNanoseconds": ${BASE_TIME_NS},\n  "traceEvents": [`,
    );
    event(
      `{"ph": "M", "name": "process_name", "ts": 0, "pid": ${PID}, "tid": 0, "args": {"name": "python"}}`,
    );
    // Pass 1: the step annotations and the ops.
    let externalId = 0;
    for (let step = 0; step < steps; step++) {
      const plan = planStep(seed, step, leak);
      const start = step * (OPS_PER_STEP + 2) * OP_US;
      event(
        `{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#${step}", "pid": ${PID}, "tid": ${PID}, "ts": ${start}, "dur": ${(OPS_PER_STEP + 1) * OP_US}, "args": {"External id": ${++externalId}, "Record function id": 0, "Ev Idx": ${externalId}}}`,
      );
      for (const op of plan) {
        ops++;
        event(
          `{"ph": "X", "cat": "cpu_op", "name": "${op.name}", "pid": ${PID}, "tid": ${PID}, "ts": ${op.ts + 0.5}, "dur": 8, "args": {"External id": ${++externalId}, "Record function id": 0, "Concrete Inputs": ["", ""], "Input type": ["float", "float"], "Input Strides": [[64, 1], [128, 1]], "Input Dims": [[32, 64], [64, 128]], "Ev Idx": ${externalId}}}`,
        );
      }
    }
    // Pass 2: the [memory] events, each with PyTorch's running Total Allocated.
    let total = 0;
    const frees: { ts: number; addr: number; bytes: number }[] = [];
    for (let step = 0; step < steps; step++) {
      const plan = planStep(seed, step, leak);
      const instants: { ts: number; addr: number; bytes: number }[] = [];
      for (const op of plan)
        op.allocations.forEach((allocation, k) => {
          instants.push({ ts: op.ts + 1 + k, addr: allocation.addr, bytes: allocation.bytes });
          if (Number.isFinite(allocation.freeTs))
            frees.push({ ts: allocation.freeTs, addr: allocation.addr, bytes: -allocation.bytes });
        });
      instants.push(...frees.splice(0));
      instants.sort((a, b) => a.ts - b.ts);
      for (const instant of instants) {
        total += instant.bytes;
        memoryEvents++;
        event(
          `{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": ${PID}, "tid": ${PID}, "ts": ${instant.ts}, "args": {"Total Reserved": 0, "Total Allocated": ${total}, "Bytes": ${instant.bytes}, "Device Id": -1, "Device Type": 0, "Addr": ${instant.addr}, "finished": false, "Ev Idx": ${memoryEvents}}}`,
        );
      }
    }
    // Pass 3: the Python stacks: <module>, main and train span the run, train_step its step,
    // and each op's own frames span the op (outermost first, nested).
    let pythonId = 0;
    const runEnd = steps * (OPS_PER_STEP + 2) * OP_US;
    const python = (fn: number, ts: number, dur: number): void => {
      pythonSpans++;
      event(
        `{"ph": "X", "cat": "python_function", "name": "${functionName(fn)}", "pid": ${PID}, "tid": ${PID}, "ts": ${ts}, "dur": ${dur}, "args": {"Python parent id": ${pythonId}, "Python id": ${++pythonId}, "Ev Idx": ${pythonId}}}`,
      );
    };
    [0, 1, 2].forEach((fn, depth) => python(fn, -3 + depth, runEnd + 6 - 2 * depth));
    for (let step = 0; step < steps; step++) {
      const start = step * (OPS_PER_STEP + 2) * OP_US;
      python(3, start + 0.1, (OPS_PER_STEP + 1) * OP_US - 0.2);
      for (const op of planStep(seed, step, leak)) {
        const length = op.stack.length;
        // Within [op.ts - 10, op.ts + 20]: inside the step, clear of the next op's frames.
        op.stack.forEach((fn, depth) =>
          python(fn, op.ts - 0.5 * (length - depth), 10 + (length - depth)),
        );
      }
    }
    write(`\n  ],\n  "traceName": "generated.pt.trace.json"\n}\n`);
    flush();
  } finally {
    closeSync(fd);
  }
  return {
    bytes,
    steps,
    ops,
    memoryEvents,
    pythonSpans,
    seconds: (performance.now() - started) / 1000,
  };
}
