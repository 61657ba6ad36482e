// Streams a realistic PyTorch CUDA memory snapshot of about `targetBytes` to disk, with constant
// memory: a simulated caching allocator driven by a simulated training job on 2 GPUs, its trace
// written entry by entry, never held in memory.
//
// A snapshot lists `segments` (the final state) before `device_traces`, so the generator runs each
// device's simulation twice with the same seed: the first pass only estimates sizes, decides
// where the trace ends and keeps the final state; the segments are written from that state; the
// second pass replays the identical events and writes them. Frames lists written with the
// segments are fetched from the memo by the trace entries that share them.

import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  BLOCK_ALLOCATED,
  type AllocatorSim,
  type SimBlock,
  type TraceAction,
} from './caching-allocator-sim';
import { simulateDevice, type PhaseStart, type TraceRecorder } from './device-simulation';
import { Prng } from './prng';
import { writeSegments } from './segments-writer';
import { buildStackCatalog, type Stack } from './stack-catalog';
import { TraceEntryWriter, type Annotation } from './trace-entry-writer';
import { EstimatingRecorder, entryCostsFromMemo, type EntryCosts } from './trace-size-estimate';
import { buildModelPlan, type ModelPlan } from './training-workload';
import { pyFloat, type PickleKey, type PickleValue } from '../pickle/pickle-values';
import { PickleWriter, type PickleProtocol } from '../pickle/pickle-writer';

/** Bump when the generated content changes, so that cached benchmark inputs get regenerated. */
export const GENERATOR_VERSION = 2;

export interface GenerateOptions {
  seed?: number;
  /** Default 2. */
  devices?: number;
  /** Default 4 (what torch writes on Python 3.8-3.13). */
  protocol?: PickleProtocol;
  /** Distinct call stacks; default 400. */
  stacks?: number;
  /** Also return what each allocation truly is (GenerateResult.truth), for tests. */
  truth?: boolean;
  /** Bytes the training loop leaks every step (a planted leak at train.py:88); default 0. */
  leakBytesPerStep?: number;
  /** How many external_annotations marks to keep, the newest (default 12; 0: none). */
  maxAnnotations?: number;
  /** Dump right after the END of this many whole recorded steps (and eventsAfterLastStep more
   *  events) instead of when the file reaches its size; targetBytes must not be reached first. */
  dumpAfterSteps?: number;
  eventsAfterLastStep?: number;
  /** Record from the program's first allocation (default: from mid-run, after 3 steps). */
  recordFromStart?: boolean;
  /** Every batch at this shape, a multiple of the base tokens (0.5-1.25: the sequence length of
   *  a run); by default the shape varies now and then. */
  batchScale?: number;
}

/** What the allocations of one device truly are (the workload knows; the file does not say). */
export interface DeviceTruth {
  device: number;
  /** Per trace entry: the true category of an `alloc` entry, else null. */
  entryCategories: (string | null)[];
  /** The true category of each block allocated in the final state, by address. */
  blockCategories: Map<number, string>;
  /** Where each phase of each recorded step starts (forward, backward, optimizer, other). */
  phaseStarts: PhaseStart[];
}

export interface GeneratedDevice {
  device: number;
  traceEntries: number;
  /** Frames of the entries' stacks, summed. */
  frames: number;
  /** Entries whose frames list is new in the file (the rest are memo references). */
  newFrameLists: number;
  actions: Partial<Record<TraceAction, number>>;
}

export interface GenerateResult {
  path: string;
  bytes: number;
  seconds: number;
  devices: GeneratedDevice[];
  segments: number;
  blocks: number;
  stacks: number;
  distinctFrames: number;
  /** With options.truth. */
  truth?: DeviceTruth[];
}

/** Device 0 (the one with the OOM) gets a bit more of the trace. */
function deviceShares(devices: number): number[] {
  if (devices === 1) return [1];
  const first = 0.55;
  return [first, ...Array.from({ length: devices - 1 }, () => (1 - first) / (devices - 1))];
}

export function generateLargeSnapshot(
  path: string,
  targetBytes: number,
  options: GenerateOptions = {},
): GenerateResult {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const deviceCount = options.devices ?? 2;
  const catalog = buildStackCatalog(new Prng(seed), options.stacks ?? 400);
  const plan = buildModelPlan(new Prng(seed + 1), catalog, 24, options.leakBytesPerStep ?? 0);

  const dump = {
    ...(options.dumpAfterSteps === undefined ? {} : { dumpAfterSteps: options.dumpAfterSteps }),
    ...(options.eventsAfterLastStep === undefined
      ? {}
      : { eventsAfterLastStep: options.eventsAfterLastStep }),
    ...(options.recordFromStart === true ? { recordFromStart: true } : {}),
    ...(options.batchScale === undefined ? {} : { batchScale: options.batchScale }),
  };
  const probe = probeSegments(seed, plan, deviceCount, options.protocol ?? 4);
  const traceBudget = Math.max(targetBytes - probe.segmentsBytes, targetBytes / 2);

  // Pass 1: where each device's trace ends, and the final state the segments describe.
  const countedStacks = new Set<Stack>();
  const shares = deviceShares(deviceCount);
  const finalStates: AllocatorSim[] = [];
  const firstPass = shares.map((share, device) => {
    const recorder = new EstimatingRecorder(
      traceBudget * share,
      device === 0,
      probe.costs,
      countedStacks,
    );
    finalStates.push(simulateDevice({ device, seed, plan, recorder, ...dump }));
    return { events: recorder.events, oomAt: recorder.oomAt };
  });

  mkdirSync(dirname(path), { recursive: true });
  // Written under a temporary name so that an interrupted run leaves no truncated snapshot.
  const partial = `${path}.partial`;
  const fd = openSync(partial, 'w');
  try {
    const w = new PickleWriter((chunk) => writeAll(fd, chunk), { protocol: options.protocol ?? 4 });
    const written = firstPass.map(() => new Map<number, number>());
    const truth: DeviceTruth[] | undefined = options.truth
      ? finalStates.map((state, device) => ({
          device,
          entryCategories: [],
          blockCategories: allocatedBlockCategories(state),
          phaseStarts: [],
        }))
      : undefined;
    w.start();
    w.beginDict(4);
    w.key('segments');
    const layout = writeSegments(w, finalStates, written);
    finalStates.length = 0; // written; let it go before the second pass

    // Pass 2: the same events again, written this time.
    w.key('device_traces');
    w.beginList(deviceCount);
    const devices: GeneratedDevice[] = [];
    const annotations: Annotation[] = [];
    firstPass.forEach(({ events, oomAt }, device) => {
      w.beginList(events);
      const recorder = new TraceEntryWriter(
        w,
        device,
        // Dumped after a step: the simulation ends itself, after that step's END mark.
        options.dumpAfterSteps === undefined ? events : Infinity,
        oomAt,
        written[device]!,
        options.maxAnnotations,
      );
      const categories = truth?.[device]?.entryCategories;
      if (events > 0)
        simulateDevice({
          device,
          seed,
          plan,
          recorder: categories === undefined ? recorder : noteCategories(recorder, categories),
          ...dump,
          ...(truth === undefined
            ? {}
            : { onPhase: (start: PhaseStart) => truth[device]!.phaseStarts.push(start) }),
        });
      w.endList();
      if (recorder.events !== events)
        throw new Error(`internal: pass 2 wrote ${recorder.events} of ${events} events`);
      devices.push({
        device,
        traceEntries: recorder.events,
        frames: recorder.frames,
        newFrameLists: recorder.newFrameLists,
        actions: recorder.actions,
      });
      annotations.push(...recorder.annotations);
    });
    w.endList();

    w.key('allocator_settings');
    w.value(allocatorSettings());
    w.key('external_annotations');
    w.value(annotations);
    w.endDict();
    w.finish();
    closeSync(fd);
    renameSync(partial, path);
    return {
      path,
      bytes: statSync(path).size,
      seconds: (performance.now() - started) / 1000,
      devices,
      segments: layout.segments,
      blocks: layout.blocks,
      stacks: catalog.stacks.length,
      distinctFrames: catalog.frameCount,
      ...(truth === undefined ? {} : { truth }),
    };
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(partial, { force: true });
    throw error;
  }
}

/** The segments come first in the file, so they decide which strings and frames get the memo
 *  indices below 256 (2-byte references): those of the persistent allocations made before
 *  training, at the lowest addresses, present in any final state. A short simulation written to
 *  nowhere tells which, and roughly how large the segments list is. */
function probeSegments(
  seed: number,
  plan: ModelPlan,
  deviceCount: number,
  protocol: PickleProtocol,
): { costs: EntryCosts; segmentsBytes: number } {
  const noCosts: EntryCosts = { entryFixedBytes: 0, listBytes: () => 0 };
  const states = Array.from({ length: deviceCount }, (_, device) =>
    simulateDevice({
      device,
      seed,
      plan,
      recorder: new EstimatingRecorder(1, false, noCosts, new Set()),
    }),
  );
  const w = new PickleWriter(() => {}, { protocol });
  w.start();
  w.beginDict(4);
  w.key('segments');
  writeSegments(
    w,
    states,
    states.map(() => new Map()),
  );
  return {
    costs: entryCostsFromMemo((value) => w.memoIndexOf(value)),
    segmentsBytes: w.bytesWritten,
  };
}

/** The recorder, noting the true category of every entry it is given (null but for allocs). */
function noteCategories(recorder: TraceRecorder, categories: (string | null)[]): TraceRecorder {
  return {
    record(action, addr, size, stream, ctx, timeUs) {
      recorder.record(action, addr, size, stream, ctx, timeUs);
      categories.push(action === 'alloc' ? (ctx.category ?? null) : null);
    },
    oomNow: () => recorder.oomNow(),
    annotate: (stage, name, timeUs) => recorder.annotate(stage, name, timeUs),
  };
}

function allocatedBlockCategories(state: AllocatorSim): Map<number, string> {
  const categories = new Map<number, string>();
  for (const segment of state.listSegments())
    for (let block: SimBlock | null = segment.head; block !== null; block = block.next)
      if (block.state === BLOCK_ALLOCATED && block.ctx?.category !== undefined)
        categories.set(block.addr, block.ctx.category);
  return categories;
}

function writeAll(fd: number, chunk: Uint8Array): void {
  let offset = 0;
  while (offset < chunk.length) offset += writeSync(fd, chunk, offset, chunk.length - offset);
}

/** torch/csrc/cuda/Module.cpp's allocator_settings, for an unconfigured allocator. */
function allocatorSettings(): Map<PickleKey, PickleValue> {
  // A Map keeps the keys "1", "2", "4", ... in insertion order, as Python does.
  const roundup = new Map<PickleKey, PickleValue>();
  for (let key = 1; key <= 2 ** 15; key *= 2) roundup.set(String(key), 0);
  return new Map<PickleKey, PickleValue>([
    ['PYTORCH_CUDA_ALLOC_CONF', ''],
    ['max_split_size', -1],
    ['garbage_collection_threshold', pyFloat(0)],
    ['expandable_segments', false],
    ['pinned_num_register_threads', 1],
    ['release_lock_on_cudamalloc', false],
    ['pinned_use_cuda_host_register', false],
    ['roundup_power2_divisions', roundup],
  ]);
}
