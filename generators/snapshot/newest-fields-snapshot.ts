// A small, consistent snapshot of two CUDA devices that can carry every field the newest PyTorch
// writes: per trace entry `user_metadata` (text and JSON), `compile_context`, `pool_id`,
// `internal_metadata`, `category`, `forward_frames`; frames with FX keys; `annotate` and
// `user_defined` entries; keys and actions no version writes yet; the `active_awaiting_free`
// spelling; pinned host memory (`host_segments` / `host_traces`). The same seed gives the same
// allocations with or without the extras, so a test can check that the extras change no figure,
// and `planted` says what each extra was, so a test can find it again.
//
// Stacks and forward_frames lists are shared JS objects, so the pickle writer memoizes them the
// way PyTorch's files share them.

import { Prng } from './prng';
import { tuple, type PickleDict, type PickleValue } from '../pickle/pickle-values';

export interface NewestSnapshotOptions {
  seed?: number;
  /** Every newest field, FX frames, annotate / user_defined entries. Default true. */
  newestFields?: boolean;
  /** Trace keys and actions no PyTorch writes (kept out of the figures). Default true. */
  unknownExtras?: boolean;
  /** host_segments / host_traces. Default true. */
  hostMemory?: boolean;
}

/** What was planted on an allocation, found again by its alloc entry (device, address, time). */
export interface PlantedAllocation {
  device: number;
  addr: number;
  timeUs: number;
  userMetadata: string | null;
  compileContext: string | null;
  poolId: string;
  internalMetadata: string | null;
  category: string;
  forwardFrames: readonly string[];
  annotations: readonly string[];
}

export interface PlantedBlock {
  device: number;
  address: number;
  forwardFrames: readonly string[];
}

export interface NewestSnapshot {
  value: PickleDict;
  planted: {
    allocations: PlantedAllocation[];
    /** Blocks alive through the whole trace with forward_frames. */
    blocks: PlantedBlock[];
    unknownKeys: readonly string[];
    /** Unknown action names and how many entries each. */
    unknownActions: ReadonlyMap<string, number>;
    userDefined: readonly { device: number; stage: string; name: string }[];
    /** Sums of the host device, by construction. */
    host: { reservedBytes: number; activeBytes: number; traceEntries: number } | null;
  };
}

const KiB = 1024;
const MiB = 1024 * KiB;
const SLOT = 256 * KiB;
const SLOTS = 32;
const STEPS = 60;
const CATEGORIES = ['parameter', 'activation', 'gradient', 'optimizer_state'] as const;
export const UNKNOWN_KEYS = ['future_key', 'zz_new_field'] as const;
export const UNKNOWN_ACTION = 'future_action';

type Frame = { filename: string; line: number; name: string } & Record<string, PickleValue>;

function frame(filename: string, line: number, name: string): Frame {
  return { filename, line, name };
}

function buildStacks(newestFields: boolean): Frame[][] {
  const alloc = frame(
    '??',
    0,
    'c10::cuda::CUDACachingAllocator::malloc(int, unsigned long, CUstream_st*)',
  );
  const linear: Frame = frame(
    '/usr/lib/python3/site-packages/torch/nn/modules/linear.py',
    125,
    'forward',
  );
  const fxFrame: Frame = newestFields
    ? {
        ...frame('/tmp/torchinductor/ab/cabcdef.py', 88, 'call'),
        fx_node_op: 'call_function',
        fx_node_name: 'addmm_3',
        fx_node_target: 'aten.addmm.default',
        fx_original_trace: 'model.py:62 forward: y = self.proj(x)',
      }
    : frame('/tmp/torchinductor/ab/cabcdef.py', 88, 'call');
  const model = frame('model.py', 62, 'forward');
  const train = frame('train.py', 31, 'step');
  const optim = frame(
    '/usr/lib/python3/site-packages/torch/optim/adam.py',
    410,
    '_single_tensor_adam',
  );
  const backward = frame(
    '/usr/lib/python3/site-packages/torch/autograd/graph.py',
    823,
    '_engine_run_backward',
  );
  return [
    [alloc, linear, model, train],
    [alloc, fxFrame, model, train],
    [alloc, optim, train],
    [alloc, backward, train],
    [alloc, model, train],
  ];
}

/** A snapshot of two devices (and host memory), built from `seed`. */
export function makeNewestSnapshot(options: NewestSnapshotOptions = {}): NewestSnapshot {
  const seed = options.seed ?? 7;
  const newestFields = options.newestFields ?? true;
  const unknownExtras = options.unknownExtras ?? true;
  const hostMemory = options.hostMemory ?? true;
  const stacks = buildStacks(newestFields);
  const forwardLists: readonly string[][] = [
    ['model.py:62 in forward', 'train.py:31 in step'],
    ['model.py:70 in forward', 'model.py:40 in block', 'train.py:31 in step'],
  ];
  const allocations: PlantedAllocation[] = [];
  const blocks: PlantedBlock[] = [];
  const userDefined: { device: number; stage: string; name: string }[] = [];
  const unknownActions = new Map<string, number>();
  const segments: PickleValue[] = [];
  const deviceTraces: PickleValue[] = [];

  for (let device = 0; device < 2; device++) {
    const prng = new Prng(seed * 31 + device);
    const base = 0x7f0000000000 + device * 0x100000000;
    const trace: PickleDict[] = [];
    // Slot state: the requested bytes of the allocation there, or 0 when free.
    const live = new Array<number>(SLOTS).fill(0);
    const liveStack = new Array<Frame[]>(SLOTS);
    const pending = new Set<number>();
    // Two blocks allocated before the trace began, alive throughout (the segment predates it too).
    for (const slot of [SLOTS - 1, SLOTS - 2]) {
      live[slot] = SLOT - 512 * (slot - SLOTS + 3);
      liveStack[slot] = stacks[4]!;
    }
    let time = 1_700_000_000_000_000 + device * 1_000_000;
    const entry = (fields: PickleDict): void => {
      time += 17;
      trace.push(fields);
    };
    let step = 0;
    for (; step < STEPS; step++) {
      const free = live.flatMap((bytes, slot) => (bytes === 0 && !pending.has(slot) ? [slot] : []));
      const used = live.flatMap((bytes, slot) =>
        bytes > 0 && !pending.has(slot) && slot < SLOTS - 2 ? [slot] : [],
      );
      const doAlloc = free.length > 0 && (used.length < 4 || prng.next() < 0.55);
      if (doAlloc) {
        const slot = free[Math.floor(prng.next() * free.length)]!;
        const bytes = 512 * (1 + Math.floor(prng.next() * (SLOT / 512 - 1)));
        const stackIndex = Math.floor(prng.next() * stacks.length);
        const stack = stacks[stackIndex]!;
        live[slot] = bytes;
        liveStack[slot] = stack;
        const addr = base + slot * SLOT;
        const fields: Record<string, PickleValue> = {
          action: 'alloc',
          addr,
          size: bytes,
          stream: 0,
          time_us: time + 17,
          frames: stack,
        };
        const planted: PlantedAllocation = {
          device,
          addr,
          timeUs: time + 17,
          userMetadata: null,
          compileContext: null,
          poolId: '0,0',
          internalMetadata: null,
          category: CATEGORIES[stackIndex % CATEGORIES.length]!,
          forwardFrames: [],
          annotations: [],
        };
        if (newestFields) {
          const compiled = stackIndex === 1;
          fields.compile_context = compiled ? '[0/1] torch-compiled region' : 'N/A';
          planted.compileContext = compiled ? '[0/1] torch-compiled region' : null;
          const metadata =
            step % 3 === 0
              ? JSON.stringify({ step, microbatch: step % 4 })
              : step % 3 === 1
                ? `phase ${step % 5}`
                : '';
          fields.user_metadata = metadata;
          planted.userMetadata = metadata === '' ? null : metadata;
          const privatePool = stackIndex === 2;
          fields.pool_id = privatePool ? tuple(1, 3) : tuple(0, 0);
          planted.poolId = privatePool ? '1,3' : '0,0';
          if (step % 4 === 0) {
            fields.internal_metadata = `internal ${step}`;
            planted.internalMetadata = `internal ${step}`;
          }
          fields.category = planted.category;
          if (stackIndex === 3) {
            const list = forwardLists[step % 2]!;
            fields.forward_frames = list;
            planted.forwardFrames = list;
          }
        }
        if (unknownExtras && step % 5 === 0) {
          fields[UNKNOWN_KEYS[0]] = step;
          fields[UNKNOWN_KEYS[1]] = 'x';
        }
        entry(fields);
        allocations.push(planted);
        if (newestFields && step % 6 === 2) {
          // torch.cuda.memory._annotate_memory(ptr, metadata): the stack of the annotating call.
          const text =
            step % 12 === 2 ? JSON.stringify({ tag: 'kv-cache', step }) : `annotated at ${step}`;
          entry({
            action: 'annotate',
            addr,
            size: 0,
            stream: 0,
            time_us: time + 17,
            user_metadata: text,
            frames: stacks[4]!,
          });
          planted.annotations = [text];
        }
      } else if (used.length > 0) {
        const slot = used[Math.floor(prng.next() * used.length)]!;
        const addr = base + slot * SLOT;
        const bytes = live[slot]!;
        const stack = liveStack[slot]!;
        entry({
          action: 'free_requested',
          addr,
          size: bytes,
          stream: 0,
          time_us: time + 17,
          frames: stack,
        });
        // One block stays pending at the end (record_stream): free requested, not completed.
        if (step === STEPS - 7 && pending.size === 0) {
          pending.add(slot);
        } else {
          entry({
            action: 'free_completed',
            addr,
            size: bytes,
            stream: 0,
            time_us: time + 17,
            frames: stack,
          });
          live[slot] = 0;
        }
      }
      if (unknownExtras && step % 20 === 10) {
        entry({ action: UNKNOWN_ACTION, addr: base, size: 123, stream: 0, time_us: time + 17 });
        unknownActions.set(UNKNOWN_ACTION, (unknownActions.get(UNKNOWN_ACTION) ?? 0) + 1);
      }
      if (newestFields && (step === 5 || step === 40)) {
        const stage = step === 5 ? 'START' : 'END';
        entry({ action: 'user_defined', name: 'ProfilerStep#1', stage, time_us: time + 17 });
        userDefined.push({ device, stage, name: 'ProfilerStep#1' });
      }
    }
    deviceTraces.push(trace);

    // The final state: one segment tiled by SLOTS blocks.
    const blockValues: PickleValue[] = [];
    let allocated = 0;
    let active = 0;
    let requested = 0;
    for (let slot = 0; slot < SLOTS; slot++) {
      const bytes = live[slot]!;
      const address = base + slot * SLOT;
      if (bytes === 0) {
        blockValues.push({ address, size: SLOT, requested_size: 0, state: 'inactive', frames: [] });
        continue;
      }
      const isPending = pending.has(slot);
      const state = isPending
        ? newestFields
          ? 'active_awaiting_free'
          : 'active_pending_free'
        : 'active_allocated';
      const block: Record<string, PickleValue> = {
        address,
        size: SLOT,
        requested_size: bytes,
        state,
        frames: liveStack[slot]!,
      };
      if (!isPending) allocated += SLOT;
      active += SLOT;
      requested += bytes;
      if (newestFields && slot === SLOTS - 1) {
        block.forward_frames = forwardLists[1]!;
        blocks.push({ device, address, forwardFrames: forwardLists[1]! });
      }
      blockValues.push(block);
    }
    const segment: Record<string, PickleValue> = {
      device,
      address: base,
      total_size: SLOTS * SLOT,
      allocated_size: allocated,
      active_size: active,
      requested_size: requested,
      stream: 0,
      segment_type: 'large',
      segment_pool_id: tuple(0, 0),
      is_expandable: false,
      blocks: blockValues,
      frames: [],
    };
    if (newestFields) segment.forward_frames = [];
    segments.push(segment);
  }

  const value: Record<string, PickleValue> = {
    segments,
    device_traces: deviceTraces,
    allocator_settings: { PYTORCH_CUDA_ALLOC_CONF: '', max_split_size: -1 },
  };
  let host: NewestSnapshot['planted']['host'] = null;
  if (hostMemory) {
    const made = hostMemoryOf(seed, stacks);
    value.host_segments = made.segments;
    value.host_traces = made.trace;
    host = made.figures;
  }
  return {
    value,
    planted: {
      allocations,
      blocks,
      unknownKeys: unknownExtras ? [...UNKNOWN_KEYS] : [],
      unknownActions,
      userDefined,
      host,
    },
  };
}

/**
 * Pinned host memory as the host caching allocator records it: each block is its own
 * cudaHostAlloc (a segment of one block, a power of two), cached after its free.
 */
function hostMemoryOf(
  seed: number,
  stacks: Frame[][],
): {
  segments: PickleValue[];
  trace: PickleDict[];
  figures: { reservedBytes: number; activeBytes: number; traceEntries: number };
} {
  const prng = new Prng(seed * 97 + 5);
  const base = 0x7ff000000000;
  const trace: PickleDict[] = [];
  const blocks: { addr: number; size: number; requested: number; live: boolean; stack: Frame[] }[] =
    [];
  let time = 1_700_000_000_500_000;
  for (let step = 0; step < 24; step++) {
    time += 23;
    const liveBlocks = blocks.filter((block) => block.live);
    if (liveBlocks.length > 0 && prng.next() < 0.4) {
      const block = liveBlocks[Math.floor(prng.next() * liveBlocks.length)]!;
      trace.push({
        action: 'free_requested',
        addr: block.addr,
        size: block.requested,
        stream: 0,
        time_us: time,
        frames: block.stack,
      });
      trace.push({
        action: 'free_completed',
        addr: block.addr,
        size: block.requested,
        stream: 0,
        time_us: time + 1,
        frames: block.stack,
      });
      block.live = false;
      continue;
    }
    const requested = 4 * KiB * (1 + Math.floor(prng.next() * 255));
    const size = 2 ** Math.ceil(Math.log2(requested));
    const stack = stacks[Math.floor(prng.next() * stacks.length)]!;
    let block = blocks.find((candidate) => !candidate.live && candidate.size === size);
    if (block === undefined) {
      block = { addr: base + blocks.length * 2 * MiB, size, requested, live: true, stack };
      blocks.push(block);
      trace.push({
        action: 'segment_alloc',
        addr: block.addr,
        size,
        stream: 0,
        time_us: time,
        frames: stack,
      });
    }
    block.live = true;
    block.requested = requested;
    block.stack = stack;
    trace.push({
      action: 'alloc',
      addr: block.addr,
      size: requested,
      stream: 0,
      time_us: time + 1,
      frames: stack,
    });
  }
  const segments: PickleValue[] = blocks.map((block) => ({
    device: -1,
    address: block.addr,
    total_size: block.size,
    allocated_size: block.live ? block.size : 0,
    active_size: block.live ? block.size : 0,
    requested_size: block.live ? block.requested : 0,
    stream: 0,
    segment_type: 'large',
    segment_pool_id: tuple(0, 0),
    is_expandable: false,
    blocks: [
      {
        address: block.addr,
        size: block.size,
        requested_size: block.live ? block.requested : 0,
        state: block.live ? 'active_allocated' : 'inactive',
        frames: block.live ? block.stack : [],
      },
    ],
    frames: [],
  }));
  return {
    segments,
    trace,
    figures: {
      reservedBytes: blocks.reduce((sum, block) => sum + block.size, 0),
      activeBytes: blocks.reduce((sum, block) => sum + (block.live ? block.requested : 0), 0),
      traceEntries: trace.length,
    },
  };
}
