// The training steps of a device's trace, for "what grew between steps": from the annotations the
// file records (`ProfilerStep#N` from torch.profiler, or any record_function span the loop repeats)
// when there are complete ones, else from the repeating shape of the active curve
// (./step-pattern.ts). Only complete steps count: a ring buffer that wrapped starts mid-step,
// and a trace dumped at an OOM ends mid-step; what is left out is said in `note`.

import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { postableDerivedKey } from '../analyzed/derived-cache';
import { pairAnnotations, type AnnotationSpan } from '../chart/annotation-spans';
import { isDigitCode } from '../format/word-chars';
import { stepsFromPattern } from './step-pattern';
import type { TrainingStep } from './training-step';
import { countOf, nounFor } from '../format/plural';

export type { TrainingStep } from './training-step';

/** Where the steps came from. */
export type StepSource = 'annotations' | 'pattern';

export interface FoundSteps {
  /** null when no steps were found. */
  source: StepSource | null;
  steps: TrainingStep[];
  /** How they were found and what was left out, in words. */
  note: string;
}

/** Annotations of one step of torch.profiler's schedule. */
const PROFILER_STEP = /^ProfilerStep#\d+$/;

const stepsKey = postableDerivedKey<FoundSteps>('steps');

/**
 * The steps of a device of this snapshot, found once (the timeline's ruler, the Steps, Compare
 * and Ranks views all ask).
 */
export function stepsOf(
  snapshot: Pick<AnalyzedSnapshot, 'annotations'>,
  device: AnalyzedDevice,
): FoundSteps {
  return device.derived.get(stepsKey, () => findSteps(snapshot, device));
}

export function findSteps(
  snapshot: Pick<AnalyzedSnapshot, 'annotations'>,
  device: Pick<AnalyzedDevice, 'device' | 'timeUs' | 'traceLength' | 'activeBytes' | 'figures'>,
): FoundSteps {
  const annotated = stepsFromAnnotations(snapshot, device);
  if (annotated !== null && annotated.steps.length > 0) return annotated;
  const pattern = stepsFromPattern(device.activeBytes, device.traceLength);
  if (pattern.length > 0)
    return {
      source: 'pattern',
      steps: pattern,
      note:
        `${countOf(pattern.length, 'step')} found from the repeating shape of the active curve ` +
        `(${annotated === null ? 'the file records no step annotations' : annotated.note}); ` +
        'the partial steps at the trace’s ends are left out',
    };
  return {
    source: null,
    steps: [],
    note:
      annotated === null
        ? 'no steps: the file records no step annotations and the active curve does not repeat'
        : `no steps: ${annotated.note}, and the active curve does not repeat`,
  };
}

/**
 * Steps from the annotations: `ProfilerStep#N` spans, else the top-level span name the trace
 * repeats most (names that differ only in a trailing number are one family). null when the file
 * has no usable annotations (none on this device, or no usable times).
 */
function stepsFromAnnotations(
  snapshot: Pick<AnalyzedSnapshot, 'annotations'>,
  device: Pick<AnalyzedDevice, 'device' | 'timeUs' | 'traceLength' | 'figures'>,
): FoundSteps | null {
  const times = device.timeUs;
  if (times === null || device.traceLength === 0) return null;
  const spans = pairAnnotations(snapshot.annotations, device.device);
  if (spans.length === 0) return null;
  const ordered = monotoneTimes(times, device.traceLength);
  const family = stepFamily(spans);
  if (family === null) return stepsBetweenOptimizerSteps(spans, ordered);
  const first = ordered[0]!;
  const last = ordered[device.traceLength - 1]!;
  const steps: TrainingStep[] = [];
  let cut = 0;
  // Every event from the start of recording is in the trace when no free lacks its alloc (the
  // ring buffer did not wrap): a span whose START precedes the first event then starts with it.
  const wholeFromStart = device.figures.unmatchedFrees === 0;
  for (const span of family) {
    if (!isCompleteStep(span, first, last, wholeFromStart)) {
      cut++;
      continue;
    }
    const startEvent = firstIndex(ordered, (time) => time >= span.startUs);
    const endEvent = firstIndex(ordered, (time) => time > span.endUs) - 1;
    if (endEvent < startEvent) continue; // no entries inside: nothing to count
    steps.push({ index: steps.length, name: span.name, startEvent, endEvent });
  }
  const name = PROFILER_STEP.test(family[0]!.name) ? 'ProfilerStep#N' : `“${family[0]!.name}”`;
  const cutText =
    cut === 0
      ? ''
      : `; ${countOf(cut, 'span')} ${nounFor(cut, 'is', 'are')} cut by the trace’s ends or never ended`;
  return {
    source: 'annotations',
    steps,
    note: `${countOf(steps.length, 'step')} from the ${name} annotations${cutText}`,
  };
}

/**
 * Whether the trace holds this span from end to end: both marks recorded, its START inside the
 * trace (or before it when nothing was lost before the first event), and its END at or before
 * the last event, or after it: `_dump_snapshot()` is usually called right after the last step,
 * whose END then lies after the last event though the step is whole (it ends with the trace).
 */
function isCompleteStep(
  span: AnnotationSpan,
  first: number,
  last: number,
  wholeFromStart: boolean,
): boolean {
  if (!Number.isFinite(span.startUs) || !Number.isFinite(span.endUs)) return false;
  if (span.startUs > last) return false;
  return span.startUs >= first || wholeFromStart;
}

/** A user's span that names a step: record_function("train_step"), "iteration 3", "batch#7". */
const STEP_WORD = /(^|[^a-z])(train(ing)?[_ ]?step|step|iteration|iter|batch)([^a-z]|$)/i;
/** The optimizer's step (torch.optim annotates it): a step ends where it ends. */
const OPTIMIZER_STEP = /^Optimizer\.step#/;

/**
 * The spans that are steps: ProfilerStep#N; else a top-level span whose name says step
 * (names that differ only in a trailing number are one family), the most repeated one (≥ 2);
 * else null (Optimizer.step spans are used by the caller as step ends).
 */
function stepFamily(spans: readonly AnnotationSpan[]): AnnotationSpan[] | null {
  const profiler = spans.filter((span) => PROFILER_STEP.test(span.name));
  if (profiler.length > 0) return profiler;
  const families = new Map<string, AnnotationSpan[]>();
  for (const span of spans) {
    if (span.depth !== 0 || !STEP_WORD.test(span.name) || OPTIMIZER_STEP.test(span.name)) continue;
    const key = withoutTrailingNumber(span.name);
    const list = families.get(key) ?? [];
    list.push(span);
    families.set(key, list);
  }
  let best: AnnotationSpan[] | null = null;
  for (const list of families.values())
    if (list.length >= 2 && (best === null || list.length > best.length)) best = list;
  return best;
}

/**
 * A span's name without its trailing number and the separators before it ("train_step#12" →
 * "train_step"): what `/[#_\s-]*\d+$/` removes, read from the end (that expression is tried
 * from every position of the name, a user's text, each time to its end).
 */
export function withoutTrailingNumber(name: string): string {
  let end = name.length;
  while (end > 0 && isDigitCode(name.charCodeAt(end - 1))) end--;
  if (end === name.length) return name;
  while (end > 0 && NUMBER_SEPARATOR.test(name[end - 1]!)) end--;
  return name.slice(0, end);
}

const NUMBER_SEPARATOR = /[#_\s-]/;

/**
 * Steps that end where the optimizer's steps end (`Optimizer.step#AdamW.step`): each from the
 * entry after one optimizer step to the end of the next. null without two complete ones.
 */
function stepsBetweenOptimizerSteps(
  spans: readonly AnnotationSpan[],
  ordered: Float64Array,
): FoundSteps | null {
  const first = ordered[0]!;
  const last = ordered[ordered.length - 1]!;
  const ends = spans
    .filter((span) => OPTIMIZER_STEP.test(span.name) && Number.isFinite(span.endUs))
    .map((span) => span.endUs)
    .filter((endUs) => endUs >= first && endUs <= last)
    .sort((a, b) => a - b);
  if (ends.length < 2) return null;
  const steps: TrainingStep[] = [];
  for (let i = 0; i + 1 < ends.length; i++) {
    const startEvent = firstIndex(ordered, (time) => time > ends[i]!);
    const endEvent = firstIndex(ordered, (time) => time > ends[i + 1]!) - 1;
    if (endEvent >= startEvent)
      steps.push({ index: steps.length, name: `step ${steps.length + 1}`, startEvent, endEvent });
  }
  return {
    source: 'annotations',
    steps,
    note: `${countOf(steps.length, 'step')} between the ends of the Optimizer.step annotations`,
  };
}

/** The times as a non-decreasing series (each the latest so far), for binary search. */
function monotoneTimes(times: Float64Array, length: number): Float64Array {
  const ordered = new Float64Array(length);
  let latest = -Infinity;
  for (let i = 0; i < length; i++) {
    const time = times[i]!;
    if (Number.isFinite(time) && time > latest) latest = time;
    ordered[i] = latest;
  }
  return ordered;
}

/** The first index whose time passes `test` (which holds from some index on); length if none. */
function firstIndex(ordered: Float64Array, test: (time: number) => boolean): number {
  let low = 0;
  let high = ordered.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(ordered[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}
