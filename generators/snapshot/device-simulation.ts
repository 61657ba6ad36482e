// Runs the training workload on one simulated GPU and feeds the recorded part of its trace to a
// recorder. Everything random comes from one PRNG seeded by (seed, device) and is drawn the same
// way whatever the recorder does, so two runs with the same seed emit the same events: the
// generator relies on that to learn the final state first and write the trace afterwards.

import { AllocatorSim, type SimContext, type TraceAction } from './caching-allocator-sim';
import { Prng } from './prng';
import type { Stack } from './stack-catalog';
import { TrainingWorkload, type ModelPlan } from './training-workload';

/** Thrown by a recorder to end the simulation (the allocator state stays consistent). */
export class StopSimulation extends Error {}

export interface TraceRecorder {
  record(
    action: TraceAction,
    addr: number,
    size: number,
    stream: number,
    ctx: SimContext,
    timeUs: number,
  ): void;
  /** Asked once per step while recording: should this step hit an OOM? */
  oomNow(): boolean;
  annotate(stage: 'START' | 'END', name: string, timeUs: number): void;
}

export interface DeviceSimulationOptions {
  device: number;
  seed: number;
  plan: ModelPlan;
  recorder: TraceRecorder;
  /** End the trace with the END of this many whole recorded steps, as a dump right after the
   *  training loop does; by default the recorder ends it. */
  dumpAfterSteps?: number;
  /** Events recorded after that END before the dump (default 0: the END follows the last). */
  eventsAfterLastStep?: number;
  /** Record from the program's start (its first allocation), not from mid-run. */
  recordFromStart?: boolean;
  /** Every batch at this shape (multiple of the base token count), or vary them (default). */
  batchScale?: number;
  /** Told where each phase of a step starts: the index of its first recorded event. */
  onPhase?: (phase: PhaseStart) => void;
}

/** Where a phase of a step starts in the recorded trace (generator truth). */
export interface PhaseStart {
  step: string;
  phase: 'forward' | 'backward' | 'optimizer' | 'other';
  /** Index of the first event of the phase in the trace (= events recorded before it). */
  event: number;
}

/** 24 GiB cards; the CUDA context takes ~0.5 GiB of it. */
const DEVICE_BYTES = 24 * 2 ** 30;
const CONTEXT_BYTES = 512 * 2 ** 20;
/** Device address ranges look like real ones (~1.4e14); each device has its own. */
const BASE_ADDRESSES = [0x7f4a_0000_0000, 0x7f2c_0000_0000, 0x7f0e_0000_0000, 0x7ef0_0000_0000];
/** A cudaStream_t is a pointer. */
const COMM_STREAM_BASE = 0x5564_2c3e_1a40;
/** ~2024-04 in microseconds since the epoch. */
const START_TIME_US = 1_712_345_678_000_000;
/** Steps run before the ring buffer's window starts, so the trace begins mid-run. */
const WARMUP_STEPS = 3;
/** Share of calls whose context reuses the stack's single shared frames list. */
const SHARED_CONTEXT_CHANCE = 0.1;

/** Simulates until the recorder throws StopSimulation; returns the allocator's final state. */
export function simulateDevice(options: DeviceSimulationOptions): AllocatorSim {
  const { device, recorder } = options;
  const prng = new Prng(options.seed * 1_000_003 + device * 7919 + 17);
  let time = START_TIME_US + device * 37 + prng.int(0, 1_000_000);
  let recording = options.recordFromStart === true;
  let recorded = 0;
  let eventsUntilRecording = -1;
  let stepsStarted = 0;
  let contextIds = 0;
  let stepStartRecorded = false;
  let wholeSteps = 0;
  /** Events still to record before the dump; -1 until the last step ended. */
  let eventsBeforeDump = -1;

  const allocator = new AllocatorSim({
    device,
    limitBytes: DEVICE_BYTES - CONTEXT_BYTES,
    baseAddress:
      BASE_ADDRESSES[device % BASE_ADDRESSES.length]! -
      Math.floor(device / BASE_ADDRESSES.length) * 2 ** 40,
    emit: (action, addr, size, stream, ctx) => {
      time += 1 + Math.floor(prng.next() * prng.next() * 120);
      if (recording) {
        recorder.record(action, addr, size, stream, ctx, time);
        recorded++;
        if (eventsBeforeDump > 0 && --eventsBeforeDump === 0) throw new StopSimulation();
      } else if (eventsUntilRecording > 0 && --eventsUntilRecording === 0) {
        recording = true;
      }
    },
  });

  const newContext = (stack: Stack, category?: string): SimContext => ({
    id: contextIds++,
    stack,
    shared: prng.chance(SHARED_CONTEXT_CHANCE),
    memoIndex: -1,
    counted: false,
    ...(category === undefined ? {} : { category }),
  });
  const workload = new TrainingWorkload(
    options.plan,
    allocator,
    prng,
    {
      newContext,
      annotate: (stage, name) => {
        if (stage === 'START' && name.startsWith('ProfilerStep')) {
          time += prng.int(500, 5000); // data loading between steps
          if (stepsStarted++ === WARMUP_STEPS && !recording)
            eventsUntilRecording = prng.int(1, 800);
        }
        if (!recording) return;
        const step = name.startsWith('ProfilerStep');
        if (step && stage === 'START') stepStartRecorded = true;
        const last =
          step && stage === 'END' && stepStartRecorded && ++wholeSteps === options.dumpAfterSteps;
        // The END mark is taken after the step's last allocation returned: a moment later.
        recorder.annotate(stage, name, last ? time + 1 : time);
        if (last) {
          eventsBeforeDump = options.eventsAfterLastStep ?? 0;
          if (eventsBeforeDump === 0) throw new StopSimulation();
        }
      },
      oomNow: () => recording && recorder.oomNow(),
      phase: (phase, step) => {
        if (recording) options.onPhase?.({ step, phase, event: recorded });
      },
    },
    COMM_STREAM_BASE + device * 0x2000,
    options.batchScale ?? null,
  );
  try {
    workload.run();
  } catch (error) {
    if (!(error instanceof StopSimulation)) throw error;
  }
  return allocator;
}
