// A profiler trace's memory as the columnar model a snapshot decodes to, so every analysis, view
// and command that applies reads it unchanged: each (Device Type, Device Id) of its `[memory]`
// events is a device (CPU: CPU_DEVICE, "cpu"; CUDA: its index), each event an `alloc` (Bytes > 0)
// or a `free_completed` (Bytes < 0) trace entry in time order, with its op and Python stack
// (./profiler-attribution.ts); the `ProfilerStep#N` and record_function spans are the
// annotations the steps analysis reads. The active curve starts from PyTorch's own count
// (`Total Allocated` before the first event) and is checked against it at every event; the
// reserved curve is `Total Reserved` as recorded. A trace records no segments, blocks or
// allocator settings: those tables are empty and `source` says why.

import { formatBytes } from '../format/units';
import { countOf, nounFor } from '../format/plural';
import { deviceLabel } from '../format/words';
import {
  ActionCode,
  CPU_DEVICE,
  KNOWN_ACTIONS,
  type DeviceTrace,
  type ExternalAnnotation,
  type SnapshotModel,
} from './model';
import { sortRun } from './event-order';
import { attributeMemoryEvents, MAX_STACK_FRAMES } from './profiler-attribution';
import type { ProfilerTraceEvents } from './profiler-trace-reader';
import { emptyBlocks, emptySegments } from './no-allocator-state';
import { SnapshotFormatError } from './snapshot-error';
import { StackInterner } from './stack-interner';

/** c10::DeviceType of the devices a trace's memory events name that are read. */
const CPU_TYPE = 0;
const CUDA_TYPE = 1;

export function buildProfilerTraceModel(events: ProfilerTraceEvents): SnapshotModel {
  const { memory } = events;
  if (memory.count === 0) throw noMemoryEvents(events);
  const warnings: string[] = [];
  const stacks = new StackInterner();
  const strings: string[] = [];
  const stringIds = new Map<string, number>();
  const internString = (text: string): number => {
    let id = stringIds.get(text);
    if (id === undefined) {
      id = strings.length;
      strings.push(text);
      stringIds.set(text, id);
    }
    return id;
  };
  const attribution = attributeMemoryEvents(events, stacks, internString);
  if (attribution.cutStacks > 0) {
    warnings.push(
      `${countOf(attribution.cutStacks, 'memory event')} ${nounFor(attribution.cutStacks, 'is', 'are')} held by more than ${MAX_STACK_FRAMES} nested spans: ${nounFor(attribution.cutStacks, 'its', 'their')} stacks keep the ${MAX_STACK_FRAMES} innermost frames`,
    );
  }
  const baseUs = events.baseTimeNs === null ? 0 : events.baseTimeNs / 1000;
  const traces = eventsByDevice(events, warnings).map(([device, rows]) => {
    const trace = deviceTraceOf(events, attribution, device, rows, baseUs);
    checkTotals(events, trace, rows, warnings);
    return trace;
  });
  return {
    source: 'profiler-trace',
    pickleProtocol: null,
    layout: 'dict',
    actionNames: [...KNOWN_ACTIONS],
    frames: stacks.frames,
    stacks: stacks.table(),
    streams: [0],
    pools: ['0,0'],
    strings,
    traces,
    segments: emptySegments(),
    blocks: emptyBlocks(),
    allocatorSettings: null,
    externalAnnotations: annotationsOf(
      events,
      traces.map((trace) => trace.device),
      baseUs,
    ),
    warnings,
  };
}

/** The refusal of a trace without memory events: how it was recorded, in PyTorch's words. */
function noMemoryEvents(events: ProfilerTraceEvents): SnapshotFormatError {
  if (events.profileMemory === true) {
    return new SnapshotFormatError(
      'a PyTorch profiler trace without [memory] events: profile_memory=True was on, but no tensor memory was allocated or freed while it recorded',
    );
  }
  return new SnapshotFormatError(
    'a PyTorch profiler trace without [memory] events: it was recorded without profile_memory=True (torch.profiler.profile(..., profile_memory=True) records each allocation and free)',
  );
}

/**
 * The rows (memory events, file order) of each device, each in time order (file order on a
 * tie); devices CUDA first, then CPU. Devices of other types are left out, with a warning.
 */
function eventsByDevice(events: ProfilerTraceEvents, warnings: string[]): [number, Uint32Array][] {
  const { memory } = events;
  const rowsByDevice = new Map<number, number[]>();
  const leftOut = new Map<string, number>();
  for (let row = 0; row < memory.count; row++) {
    const type = memory.deviceType[row]!;
    const id = memory.deviceId[row]!;
    let device: number;
    if (type === CPU_TYPE) device = CPU_DEVICE;
    else if (type === CUDA_TYPE && id >= 0) device = id;
    else {
      const what = type === CUDA_TYPE ? `CUDA device ${id}` : `device type ${type}`;
      leftOut.set(what, (leftOut.get(what) ?? 0) + 1);
      continue;
    }
    if (memory.bytes[row] === 0) continue;
    let rows = rowsByDevice.get(device);
    if (rows === undefined) rowsByDevice.set(device, (rows = []));
    rows.push(row);
  }
  for (const [what, count] of leftOut) {
    warnings.push(
      `${countOf(count, 'memory event')} of ${what} ${nounFor(count, 'is', 'are')} left out: allocscope reads the memory of CPU (Device Type 0) and CUDA (1) devices`,
    );
  }
  const ts = memory.ts;
  return [...rowsByDevice]
    .sort(([a], [b]) => Number(a < 0) - Number(b < 0) || a - b)
    .map(([device, rows]) => {
      const order = Uint32Array.from(rows);
      sortRun(order, (a, b) => ts[a]! - ts[b]! || a - b);
      return [device, order];
    });
}

function deviceTraceOf(
  events: ProfilerTraceEvents,
  attribution: { stackId: Int32Array; opNameId: Int32Array },
  device: number,
  rows: Uint32Array,
  baseUs: number,
): DeviceTrace {
  const { memory } = events;
  const length = rows.length;
  const action = new Uint8Array(length);
  const addr = new Float64Array(length);
  const sizeBytes = new Float64Array(length);
  const timeUs = new Float64Array(length);
  const stackId = new Int32Array(length);
  const opNameId = new Int32Array(length);
  const reserved = new Float64Array(length);
  let anyReserved = false;
  let lastReserved = 0;
  for (let i = 0; i < length; i++) {
    const row = rows[i]!;
    const bytes = memory.bytes[row]!;
    action[i] = bytes > 0 ? ActionCode.alloc : ActionCode.free_completed;
    addr[i] = memory.addr[row]!;
    sizeBytes[i] = Math.abs(bytes);
    timeUs[i] = baseUs + memory.ts[row]!;
    stackId[i] = attribution.stackId[row]!;
    opNameId[i] = attribution.opNameId[row]!;
    const recorded = memory.totalReserved[row]!;
    if (Number.isFinite(recorded)) {
      // PyTorch writes Total Reserved 0 at every CPU event (no caching allocator there): only a
      // value above 0 says that the device's reserved bytes were recorded.
      if (recorded > 0) anyReserved = true;
      lastReserved = recorded;
    }
    reserved[i] = lastReserved;
  }
  return {
    device,
    length,
    action,
    addr,
    sizeBytes,
    streamId: new Uint32Array(length),
    timeUs,
    stackId,
    deviceFreeBytes: new Map(),
    compileContextId: null,
    userMetadataId: null,
    opNameId,
    activeBaselineBytes: 0,
    recordedReservedBytes: anyReserved ? reserved : null,
  };
}

/**
 * Sets where the device's active curve starts (PyTorch's `Total Allocated` before its first
 * event) and checks the curve summed from there against `Total Allocated` at every event.
 */
function checkTotals(
  events: ProfilerTraceEvents,
  trace: DeviceTrace,
  rows: Uint32Array,
  warnings: string[],
): void {
  const { memory } = events;
  const label = deviceLabel(trace.device);
  const signed = (i: number): number =>
    trace.action[i] === ActionCode.alloc ? trace.sizeBytes[i]! : -trace.sizeBytes[i]!;
  let prefix = 0;
  let lowest = 0;
  let baseline: number | null = null;
  for (let i = 0; i < trace.length; i++) {
    prefix += signed(i);
    if (prefix < lowest) lowest = prefix;
    const recorded = memory.totalAllocated[rows[i]!]!;
    if (baseline === null && Number.isFinite(recorded)) baseline = recorded - prefix;
  }
  let start = baseline ?? -lowest;
  if (start + lowest < 0) {
    warnings.push(
      `${label}: the trace frees ${formatBytes(-(start + lowest))} more than PyTorch's Total Allocated says was allocated before it; the active curve was raised to start at ${formatBytes(-lowest)}`,
    );
    start = -lowest;
  }
  trace.activeBaselineBytes = start;
  if (baseline === null) {
    warnings.push(
      `${label}: the memory events record no Total Allocated; the active curve is the sum of the events, from ${formatBytes(start)}`,
    );
    return;
  }
  let ours = start;
  let parted = 0;
  let first = -1;
  let firstOurs = 0;
  let firstRecorded = 0;
  let recordedEvents = 0;
  for (let i = 0; i < trace.length; i++) {
    ours += signed(i);
    const recorded = memory.totalAllocated[rows[i]!]!;
    if (!Number.isFinite(recorded)) continue;
    recordedEvents++;
    if (recorded === ours) continue;
    if (parted++ === 0) {
      first = i;
      firstOurs = ours;
      firstRecorded = recorded;
    }
  }
  if (parted > 0) {
    warnings.push(
      `${label}: PyTorch's Total Allocated parts from the sum of the memory events at ${countOf(parted, 'event')} of ${recordedEvents} (first after event ${first}: ${formatBytes(firstRecorded)} recorded, ${formatBytes(firstOurs)} summed); events recorded on several threads at once are in another order in the trace than in PyTorch's count`,
    );
  }
}

/**
 * The user annotation spans (`ProfilerStep#N`, record_function, Optimizer.step) as START/END
 * marks on every device: the steps analysis and the timeline read them as they read a
 * snapshot's.
 */
function annotationsOf(
  events: ProfilerTraceEvents,
  devices: readonly number[],
  baseUs: number,
): ExternalAnnotation[] {
  const annotations: ExternalAnnotation[] = [];
  for (const device of devices) {
    for (const span of events.annotations) {
      annotations.push(
        { stage: 'START', name: span.name, device, timeUs: baseUs + span.startUs },
        { stage: 'END', name: span.name, device, timeUs: baseUs + span.endUs },
      );
    }
  }
  return annotations;
}
