// Hand-built PyTorch profiler traces with known truth: the events export_chrome_trace writes
// (`[memory]` instants, `cpu_op` / `python_function` / `user_annotation` spans), in its shapes,
// so that a test plants allocations, ops, stacks and threads and checks that exactly those come
// back. Times are microseconds from `baseTimeNanoseconds`, as in a real trace.

import { gzipSync } from 'node:zlib';

export const BASE_TIME_NS = 1_790_857_026_000_000_000;
/** The epoch microseconds of trace time `ts`, as the decoder computes them. */
export const epochUs = (ts: number): number => BASE_TIME_NS / 1000 + ts;

export const PID = 4242;

export interface MemoryOptions {
  tid?: number;
  /** [Device Type, Device Id]: CPU [0, -1] unless given; CUDA [1, N]. */
  device?: [number, number];
  /** `Total Allocated` after the event; omitted: the key is left out. */
  total?: number;
  reserved?: number;
}

export type TraceEvent = Record<string, unknown>;

export function memoryEvent(
  ts: number,
  addr: number,
  bytes: number,
  options: MemoryOptions = {},
): TraceEvent {
  const [type, id] = options.device ?? [0, -1];
  const args: Record<string, unknown> = { Addr: addr, Bytes: bytes };
  if (options.total !== undefined) args['Total Allocated'] = options.total;
  args['Total Reserved'] = options.reserved ?? 0;
  args['Device Id'] = id;
  args['Device Type'] = type;
  return {
    ph: 'i',
    cat: 'cpu_instant_event',
    s: 't',
    name: '[memory]',
    pid: PID,
    tid: options.tid ?? PID,
    ts,
    args,
  };
}

function span(cat: string, name: string, ts: number, dur: number, tid: number): TraceEvent {
  return { ph: 'X', cat, name, pid: PID, tid, ts, dur, args: { 'Ev Idx': 0 } };
}

export const opSpan = (name: string, ts: number, dur: number, tid = PID): TraceEvent =>
  span('cpu_op', name, ts, dur, tid);

/** `name` as the profiler writes it: "train.py(12): step". */
export const pythonSpan = (name: string, ts: number, dur: number, tid = PID): TraceEvent =>
  span('python_function', name, ts, dur, tid);

export const annotationSpan = (name: string, ts: number, dur: number, tid = PID): TraceEvent =>
  span('user_annotation', name, ts, dur, tid);

/** A whole trace as export_chrome_trace writes it (its top-level keys first). */
export function traceText(
  events: readonly TraceEvent[],
  top: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    schemaVersion: 1,
    deviceProperties: [],
    with_stack: 1,
    profile_memory: 1,
    record_shapes: 1,
    displayTimeUnit: 'ms',
    baseTimeNanoseconds: BASE_TIME_NS,
    ...top,
    traceEvents: events,
    traceName: 'built.pt.trace.json',
  });
}

export function traceBytes(
  events: readonly TraceEvent[],
  top: Record<string, unknown> = {},
  gzip = false,
): Uint8Array {
  const bytes = new TextEncoder().encode(traceText(events, top));
  return gzip ? new Uint8Array(gzipSync(bytes)) : bytes;
}

/**
 * Every `[memory]` event of a trace read independently of the decoder (JSON.parse: fine for the
 * small fixtures), per device key "type:id", in time order (file order on a tie).
 */
export interface RecordedMemoryEvent {
  ts: number;
  addr: number;
  bytes: number;
  totalAllocated: number | undefined;
  totalReserved: number | undefined;
  tid: unknown;
}

export function memoryEventsOf(text: string): Map<string, RecordedMemoryEvent[]> {
  const trace = JSON.parse(text) as { traceEvents: TraceEvent[] };
  const byDevice = new Map<string, RecordedMemoryEvent[]>();
  trace.traceEvents.forEach((event) => {
    if (event['name'] !== '[memory]') return;
    const args = event['args'] as Record<string, number>;
    const key = `${args['Device Type']}:${args['Device Id']}`;
    const list = byDevice.get(key) ?? [];
    list.push({
      ts: event['ts'] as number,
      addr: args['Addr']!,
      bytes: args['Bytes']!,
      totalAllocated: args['Total Allocated'],
      totalReserved: args['Total Reserved'],
      tid: event['tid'],
    });
    byDevice.set(key, list);
  });
  // Array.prototype.sort is stable: ties keep file order.
  for (const list of byDevice.values()) list.sort((a, b) => a.ts - b.ts);
  return byDevice;
}
