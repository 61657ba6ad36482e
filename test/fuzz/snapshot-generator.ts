// Small random snapshots as plain JS values (written with the test pickle writer), for the
// wrong-type mutator: every field of every record kind is there to be replaced. They are neither
// consistent nor inconsistent on purpose: segments, blocks and the trace roughly agree, and the
// decoder must cope either way.

import { pyFloat, tuple, type PickleValue } from '../../generators/pickle/pickle-values';
import type { PickleProtocol } from '../../generators/pickle/pickle-writer';
import type { Prng } from './prng';

const MiB = 1 << 20;
const BASE = 0x7f0000000000;

export type Obj = Record<string, unknown>;

export interface GeneratedSnapshot {
  /** The top-level value (a dict; a bare list of segments for the legacy layout). */
  root: unknown;
  protocol: PickleProtocol;
}

const FILES = ['train.py', 'torch/nn/modules/module.py', 'model.py', '??', ''];
const NAMES = ['forward', 'backward', '_call_impl', 'step', 'empty_cache'];

function frameOf(rng: Prng): Obj {
  const frame: Obj = {
    filename: rng.pick(FILES),
    line: rng.chance(0.05) ? 2n ** 64n - 1n : rng.int(0, 900),
    name: rng.pick(NAMES),
  };
  if (rng.chance(0.1)) {
    frame.fx_node_op = 'call_function';
    frame.fx_node_name = 'addmm';
    frame.fx_node_target = 'aten.addmm.default';
    frame.fx_original_trace = 'File "model.py", line 3';
  }
  return frame;
}

/** A random snapshot of 1-3 devices, a few segments each, and a short trace per device. */
export function generateSnapshot(rng: Prng): GeneratedSnapshot {
  const protocol = rng.pick([2, 3, 4, 4, 4, 5] as const);
  const frames = Array.from({ length: rng.int(1, 5) }, () => frameOf(rng));
  const stacks: Obj[][] = Array.from({ length: rng.int(1, 4) }, () =>
    Array.from({ length: rng.int(0, 4) }, () => rng.pick(frames)),
  );
  const legacy = rng.chance(0.1);
  const devices = rng.int(1, 3);
  const segments: Obj[] = [];
  const traces: Obj[][] = [];
  let time = 1_700_000_000_000_000 + rng.int(0, 1_000_000);
  for (let device = 0; device < devices; device++) {
    const trace: Obj[] = [];
    const segmentCount = rng.int(0, 3);
    for (let s = 0; s < segmentCount; s++) {
      const address = BASE + device * 0x100000000 + s * 0x10000000;
      const small = rng.chance(0.3);
      const blockCount = rng.int(1, 4);
      const blockSize = small ? 512 * rng.int(1, 4) : MiB * rng.int(1, 2);
      const blocks: Obj[] = [];
      let requestedTotal = 0;
      let allocatedTotal = 0;
      for (let b = 0; b < blockCount; b++) {
        const state = rng.pick(['active_allocated', 'active_pending_free', 'inactive']);
        const requested = state === 'inactive' ? 0 : blockSize - rng.int(0, 511);
        const stack = rng.pick(stacks);
        const block: Obj = legacy
          ? {
              size: blockSize,
              requested_size: requested,
              state,
              ...(rng.chance(0.5)
                ? {
                    history: [
                      { addr: address + b * blockSize, real_size: requested, frames: stack },
                    ],
                  }
                : {}),
            }
          : {
              address: address + b * blockSize,
              size: blockSize,
              requested_size: requested,
              state,
              frames: stack,
            };
        blocks.push(block);
        if (state !== 'inactive') {
          requestedTotal += requested;
          if (state === 'active_allocated') allocatedTotal += blockSize;
          trace.push({
            action: 'alloc',
            addr: address + b * blockSize,
            size: requested,
            stream: 0,
            time_us: time++,
            frames: stack,
          });
        }
      }
      const expandable = rng.chance(0.2);
      const segment: Obj = {
        device,
        address,
        total_size: blockCount * blockSize,
        allocated_size: allocatedTotal,
        active_size: requestedTotal,
        requested_size: requestedTotal,
        stream: rng.chance(0.8) ? 0 : rng.int(1, 2 ** 40),
        segment_type: small ? 'small' : 'large',
        blocks,
      };
      if (!legacy) {
        segment.segment_pool_id = rng.chance(0.8) ? tuple(0, 0) : tuple(1, rng.int(0, 5));
        segment.is_expandable = expandable;
        segment.frames = rng.pick(stacks);
      }
      segments.push(segment);
      trace.unshift({
        action: expandable ? 'segment_map' : 'segment_alloc',
        addr: address,
        size: blockCount * blockSize,
        stream: 0,
        time_us: time++,
        frames: rng.pick(stacks),
      });
    }
    // Some churn, an OOM, a snapshot marker, an annotation, unknown actions.
    const extra = rng.int(0, 6);
    for (let i = 0; i < extra; i++) {
      const addr = BASE + device * 0x100000000 + 0x0f000000 + i * 4096;
      const size = rng.int(1, 4096);
      const stack = rng.pick(stacks);
      switch (rng.below(7)) {
        case 0:
          trace.push({ action: 'alloc', addr, size, stream: 0, time_us: time++, frames: stack });
          trace.push({
            action: 'free_requested',
            addr,
            size,
            stream: 0,
            time_us: time++,
            frames: stack,
          });
          trace.push({
            action: 'free_completed',
            addr,
            size,
            stream: 0,
            time_us: time++,
            frames: stack,
          });
          break;
        case 1:
          trace.push({
            action: 'oom',
            size: rng.int(1, 2 ** 34),
            device_free: rng.int(0, 2 ** 30),
            stream: 0,
            time_us: time++,
          });
          break;
        case 2:
          trace.push({ action: 'snapshot', addr: 0, size: 0, stream: 0, time_us: time++ });
          break;
        case 3:
          trace.push({
            action: 'annotate',
            addr,
            size: 0,
            stream: 0,
            time_us: time++,
            frames: stack,
            user_metadata: '{"k": 1}',
          });
          break;
        case 4:
          trace.push({ action: 'free', addr, size, stream: 0, time_us: time++, frames: stack });
          break;
        case 5:
          trace.push({ action: 'user_defined', name: 'step', stage: 'START', time_us: time++ });
          break;
        default: {
          const entry: Obj = {
            action: 'alloc',
            addr,
            size,
            stream: 0,
            time_us: time++,
            frames: stack,
            compile_context: 'N/A',
            user_metadata: '',
          };
          if (rng.chance(0.5)) entry.pool_id = tuple(0, 0);
          if (rng.chance(0.3)) entry.forward_frames = ['model.py:3 forward'];
          if (rng.chance(0.3)) entry.internal_metadata = 'x';
          if (rng.chance(0.3)) entry.category = 'activation';
          trace.push(entry);
        }
      }
    }
    traces.push(trace);
  }
  if (legacy && rng.chance(0.5)) return { root: segments, protocol };
  const settings: Obj = {
    PYTORCH_CUDA_ALLOC_CONF: rng.chance(0.5) ? 'expandable_segments:True' : '',
    max_split_size: rng.chance(0.7) ? -1 : rng.int(0, 2 ** 31),
    garbage_collection_threshold: pyFloat(rng.chance(0.5) ? 0 : 0.8),
    expandable_segments: rng.chance(0.3),
    roundup_power2_divisions: rng.chance(0.5) ? rng.pick([0, 1, 2, 4, 8]) : [1, 2, 4, 8, 0, 0],
    release_lock_on_cudamalloc: false,
  };
  const root: Obj = {
    segments,
    [legacy ? 'traces' : 'device_traces']: traces,
  };
  if (!legacy) {
    root.allocator_settings = settings;
    const annotations: Obj[] = [];
    for (let i = 0; i < rng.int(0, 3); i++) {
      const name = rng.pick(['ProfilerStep#1', 'Optimizer.step#AdamW.step']);
      annotations.push({ stage: 'START', name, device: 0, time_us: time++ });
      annotations.push({ stage: 'END', name, device: 0, time_us: time++ });
    }
    root.external_annotations = annotations;
  }
  return { root, protocol };
}

export type { PickleValue };
