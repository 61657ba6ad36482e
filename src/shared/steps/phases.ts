// The phases of a training step: forward, backward, optimizer, and "other" (what follows the
// optimizer: zero_grad, logging, the next batch's copy). Most real snapshots are one step or
// less (benchmarks, assignment runs, OOM reproducers) and record no ProfilerStep: their phases
// still say where the memory goes. Each phase comes from the annotations where the file has them
// (`Optimizer.step#AdamW.step`, record_function / NVTX-style spans named forward, backward or
// optimizer), else from the stacks of the allocations made: autograd's engine frames and the
// `*Backward0` nodes mark backward, an optimizer's frames (torch/optim, a `step` in an optim
// file) mark the optimizer, and the rest of the step before backward is forward.

import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { firstRowStartingAfter } from '../analyzed/alive-checkpoints';
import { postableDerivedKey } from '../analyzed/derived-cache';
import { pairAnnotations, type AnnotationSpan } from '../chart/annotation-spans';
import { isBackwardFrameText } from '../holders/category-rules';
import { CATEGORIES, type Category } from '../holders/categories';
import { categoriesOf } from '../holders/classify';
import { stackFrameIds } from '../snapshot/stack-source';
import { stepsOf } from './find-steps';
import type { TrainingStep } from './training-step';

export const PHASE_NAMES = ['forward', 'backward', 'optimizer', 'other'] as const;
export type PhaseName = (typeof PHASE_NAMES)[number];

export interface Phase {
  name: PhaseName;
  /** The step it belongs to (its index among the steps found), or null: the whole trace. */
  step: number | null;
  /** First and last event of the phase (inclusive). */
  startEvent: number;
  endEvent: number;
  /** Where its start was found. */
  source: 'annotations' | 'stacks';
  peakActiveBytes: number;
  /** The event after which the phase's active peak is reached (the first, if several). */
  peakEvent: number;
  /** Active bytes after the phase's last event: what it leaves for the next. */
  endActiveBytes: number;
  /** endActiveBytes minus the active bytes before the phase's first event. */
  addedBytes: number;
  /** Requested bytes allocated in the phase and still alive after it, by category. */
  keptByCategory: Partial<Record<Category, number>>;
}

export interface StepPhases {
  /** In order of the trace; within a step, forward, backward, optimizer, other (those found). */
  phases: Phase[];
  /** How they were found, in words. */
  note: string;
}

/** What finding phases reads of the analysed snapshot. */
export type PhaseSource = Pick<AnalyzedSnapshot, 'annotations' | 'frames' | 'stacks' | 'strings'>;

const phasesKey = postableDerivedKey<StepPhases>('phases');

/** The phases of a device: inside each step found, else over the whole trace (cached). */
export function phasesOf(snapshot: PhaseSource, device: AnalyzedDevice): StepPhases {
  return device.derived.get(phasesKey, () =>
    findPhases(snapshot, device, stepsOf(snapshot, device).steps),
  );
}

/** The device's phases if they were found already (here, or where the file was decoded); never finds. */
export function builtPhases(device: AnalyzedDevice): StepPhases | null {
  return device.derived.peek(phasesKey) ?? null;
}

/** Annotation names that mark a phase (case-insensitive): "## backward ##", "optimizer_step". */
const OPTIMIZER_SPAN = /^Optimizer\.step#|optimi[sz]er|\boptim\b/i;
/** zero_grad clears the gradients before the forward: not the optimizer's step. */
const ZERO_GRAD_SPAN = /zero_grad/i;
const BACKWARD_SPAN = /backward/i;
const FORWARD_SPAN = /forward/i;

export function findPhases(
  snapshot: PhaseSource,
  device: AnalyzedDevice,
  steps: readonly TrainingStep[],
): StepPhases {
  if (device.traceLength === 0) return { phases: [], note: 'no phases: the trace is empty' };
  const ranges: { step: number | null; start: number; end: number }[] =
    steps.length > 0
      ? steps.map((step) => ({ step: step.index, start: step.startEvent, end: step.endEvent }))
      : [{ step: null, start: 0, end: device.traceLength - 1 }];
  const marks = eventMarks(snapshot, device);
  const facts = allocationPhaseFacts(snapshot, device);
  const categories = categoriesOf(snapshot, device);
  const phases: Phase[] = [];
  let annotated = 0;
  for (const range of ranges) {
    const bounds = phaseBounds(range.start, range.end, marks, facts);
    for (const bound of bounds) {
      if (bound.source === 'annotations') annotated++;
      phases.push(phaseFigures(device, categories, range.step, bound));
    }
  }
  const where = steps.length > 0 ? `inside each of the ${steps.length} steps` : 'over the trace';
  const how =
    annotated === 0
      ? 'from the stacks'
      : annotated === phases.length
        ? 'from the annotations'
        : 'from the annotations and the stacks';
  return {
    phases,
    note:
      phases.length === 0
        ? 'no phases: no backward pass or optimizer step found'
        : `phases ${where}, ${how}`,
  };
}

interface Bound {
  name: PhaseName;
  start: number;
  end: number;
  source: 'annotations' | 'stacks';
}

/** Per annotated phase: the events its spans cover, first and last (or -1). */
interface EventMarks {
  spans: { name: PhaseName; start: number; end: number }[];
}

/** Per event: 1 an alloc made in backward, 2 one made by the optimizer, 0 otherwise. */
type AllocationFacts = Uint8Array;

const BACKWARD = 1;
const OPTIMIZER = 2;

function phaseBounds(
  start: number,
  end: number,
  marks: EventMarks,
  facts: AllocationFacts,
): Bound[] {
  const annotated = (name: PhaseName): { start: number; end: number } | null => {
    let first = -1;
    let last = -1;
    for (const span of marks.spans) {
      if (span.name !== name || span.end < start || span.start > end) continue;
      const s = Math.max(start, span.start);
      const e = Math.min(end, span.end);
      if (first < 0 || s < first) first = s;
      if (e > last) last = e;
    }
    return first < 0 ? null : { start: first, end: last };
  };
  const fromStacks = (kind: number, from: number): { start: number; end: number } | null => {
    let first = -1;
    let last = -1;
    for (let event = from; event <= end; event++)
      if (facts[event] === kind) {
        if (first < 0) first = event;
        last = event;
      }
    return first < 0 ? null : { start: first, end: last };
  };
  const optimizerMark = annotated('optimizer');
  const backwardMark = annotated('backward');
  const optimizer = optimizerMark ?? fromStacks(OPTIMIZER, start);
  // Backward allocations after the optimizer started are the next step's (a trace of no steps).
  const backwardFound = backwardMark ?? fromStacks(BACKWARD, start);
  const backward =
    backwardFound !== null && optimizer !== null && backwardFound.start > optimizer.start
      ? null
      : backwardFound;
  const bounds: Bound[] = [];
  const source = (mark: unknown): 'annotations' | 'stacks' =>
    mark === null ? 'stacks' : 'annotations';
  if (backward === null && optimizer === null) return bounds;
  const forwardMark = annotated('forward');
  const firstPhase = backward ?? optimizer!;
  if (firstPhase.start > start)
    bounds.push({
      name: 'forward',
      start: forwardMark?.start ?? start,
      end: firstPhase.start - 1,
      source: source(forwardMark),
    });
  if (bounds[0] !== undefined && bounds[0].start > start)
    bounds.unshift({ name: 'other', start, end: bounds[0].start - 1, source: 'annotations' });
  if (backward !== null) {
    // Backward runs until the optimizer starts (gradient buckets, frees of saved tensors).
    const backwardEnd =
      optimizer !== null ? optimizer.start - 1 : backwardMark !== null ? backward.end : end;
    bounds.push({
      name: 'backward',
      start: backward.start,
      end: Math.max(backward.start, backwardEnd),
      source: source(backwardMark),
    });
  }
  if (optimizer !== null) {
    bounds.push({
      name: 'optimizer',
      start: optimizer.start,
      end: optimizer.end,
      source: source(optimizerMark),
    });
  }
  const lastEnd = bounds.at(-1)!.end;
  if (lastEnd < end)
    bounds.push({ name: 'other', start: lastEnd + 1, end, source: bounds.at(-1)!.source });
  return bounds.filter((bound) => bound.end >= bound.start);
}

function phaseFigures(
  device: AnalyzedDevice,
  categories: Uint8Array,
  step: number | null,
  bound: Bound,
): Phase {
  const active = device.activeBytes;
  let peakEvent = bound.start;
  for (let event = bound.start; event <= bound.end; event++)
    if (active[event]! > active[peakEvent]!) peakEvent = event;
  const before = bound.start > 0 ? active[bound.start - 1]! : device.figures.active.baselineBytes;
  const kept: Partial<Record<Category, number>> = {};
  const table = device.allocations;
  // Rows are in start order: only those made in the phase are read (a pass over every row for
  // each phase was quadratic in the steps).
  const last = firstRowStartingAfter(table, bound.end);
  for (let row = firstRowStartingAfter(table, bound.start - 1); row < last; row++) {
    if (table.endEvent[row]! <= bound.end) continue;
    const category = CATEGORIES[categories[row]!] ?? 'unknown';
    kept[category] = (kept[category] ?? 0) + table.sizeBytes[row]!;
  }
  return {
    name: bound.name,
    step,
    startEvent: bound.start,
    endEvent: bound.end,
    source: bound.source,
    peakActiveBytes: active[peakEvent]!,
    peakEvent,
    endActiveBytes: active[bound.end]!,
    addedBytes: active[bound.end]! - before,
    keptByCategory: kept,
  };
}

/** The annotated phase spans of this device, as event ranges. */
function eventMarks(
  snapshot: Pick<AnalyzedSnapshot, 'annotations'>,
  device: AnalyzedDevice,
): EventMarks {
  const times = device.timeUs;
  if (times === null) return { spans: [] };
  const spans: EventMarks['spans'] = [];
  const ordered = monotone(times, device.traceLength);
  const lastUs = ordered[device.traceLength - 1]!;
  for (const span of pairAnnotations(snapshot.annotations, device.device)) {
    const name = phaseOfSpan(span);
    if (name === null || !Number.isFinite(span.startUs) || span.startUs > lastUs) continue;
    const start = firstAtOrAfter(ordered, span.startUs);
    const end = Number.isFinite(span.endUs)
      ? firstAfter(ordered, span.endUs) - 1
      : device.traceLength - 1;
    if (end >= start) spans.push({ name, start, end });
  }
  return { spans };
}

function phaseOfSpan(span: AnnotationSpan): PhaseName | null {
  if (ZERO_GRAD_SPAN.test(span.name)) return null;
  if (OPTIMIZER_SPAN.test(span.name)) return 'optimizer';
  if (BACKWARD_SPAN.test(span.name)) return 'backward';
  if (FORWARD_SPAN.test(span.name)) return 'forward';
  return null;
}

/** Per event: whether it is an alloc made in backward or by the optimizer (by its stack). */
function allocationPhaseFacts(
  snapshot: Pick<AnalyzedSnapshot, 'frames' | 'stacks'>,
  device: AnalyzedDevice,
): AllocationFacts {
  const facts = new Uint8Array(device.traceLength);
  const byStack = new Map<number, number>();
  const byFrame = new Map<number, number>();
  const frameKind = (frameId: number): number => {
    let kind = byFrame.get(frameId);
    if (kind === undefined) {
      const filename = snapshot.frames.filename[frameId]!;
      const name = snapshot.frames.name[frameId]!;
      kind = isBackwardFrameText(`${filename}:${snapshot.frames.line[frameId]!} ${name}`)
        ? BACKWARD
        : isOptimizerFrame(filename, name)
          ? OPTIMIZER
          : 0;
      byFrame.set(frameId, kind);
    }
    return kind;
  };
  const stackKind = (stackId: number): number => {
    let kind = byStack.get(stackId);
    if (kind === undefined) {
      kind = 0;
      // Backward wins: an optimizer hook run by autograd is still backward.
      for (const frameId of stackFrameIds(snapshot, stackId)) {
        const frame = frameKind(frameId);
        if (frame === BACKWARD) {
          kind = BACKWARD;
          break;
        }
        if (frame === OPTIMIZER) kind = OPTIMIZER;
      }
      byStack.set(stackId, kind);
    }
    return kind;
  };
  const table = device.allocations;
  for (let row = 0; row < table.count; row++) {
    const event = table.startEvent[row]!;
    if (event >= 0 && event < device.traceLength) facts[event] = stackKind(table.stackId[row]!);
  }
  return facts;
}

/** A frame of an optimizer's step: torch/optim (but zero_grad), or `step` in an optim file. */
function isOptimizerFrame(filename: string, name: string): boolean {
  if (name === 'zero_grad') return false;
  // A profiler trace names PyTorch's files relative to site-packages: `torch/optim/sgd.py`.
  if (/(?:^|[\\/])torch[\\/]optim[\\/]/.test(filename)) return true;
  return name === 'step' && /optim/i.test(filename);
}

function monotone(times: Float64Array, length: number): Float64Array {
  const ordered = new Float64Array(length);
  let latest = -Infinity;
  for (let i = 0; i < length; i++) {
    const time = times[i]!;
    if (Number.isFinite(time) && time > latest) latest = time;
    ordered[i] = latest;
  }
  return ordered;
}

function firstAtOrAfter(ordered: Float64Array, timeUs: number): number {
  let low = 0;
  let high = ordered.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ordered[middle]! >= timeUs) high = middle;
    else low = middle + 1;
  }
  return low;
}

function firstAfter(ordered: Float64Array, timeUs: number): number {
  let low = 0;
  let high = ordered.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ordered[middle]! > timeUs) high = middle;
    else low = middle + 1;
  }
  return low;
}
