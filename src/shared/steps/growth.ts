// Memory that grows from step to step, and who keeps it: an allocation made in a step and still
// held when the last complete step ends is "kept" by that step. Grouped by stack, top user frame
// or category, a group that keeps about the same bytes step after step is a leak suspect; its
// growth is the slope of a line fitted to its kept bytes summed up to each step (a steady leak is
// a straight line, a one-off such as the optimizer's state made in the first step a flat one).
// The same code answers `allocscope steps` and the app.

import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { describeStack } from '../analysis/user-frame';
import { formatBytes, formatSignedBytes } from '../format/units';
import { DEFAULT_CATEGORY_RULES, type CategoryRules } from '../holders/category-rules';
import { groupKeyOf, type HolderSource } from '../holders/group-by';
import type { FoundSteps } from './find-steps';
import { fitLine, stepFigures, type LineFit, type StepFigures } from './step-figures';
import { countOf } from '../format/plural';

export const GROWTH_BYS = ['stack', 'frame', 'category'] as const;
export type GrowthBy = (typeof GROWTH_BYS)[number];

export interface LeakSuspect {
  /** The group's key under its grouping. */
  key: string;
  /** The label of the group's largest stack ("train.py:88 train_step"). */
  topFrame: string;
  /** Growth per step: the slope of the kept bytes summed up to each step. */
  bytesPerStep: number;
  /** How well that line fits (R², 1 for a steady leak). */
  fitR2: number;
  /** Steps in which the group kept something. */
  stepsGrown: number;
  /** Bytes kept over all the steps. */
  totalBytes: number;
  /** Bytes kept by each step. */
  bytesByStep: number[];
  /** The kept allocations (rows of the allocation table), to find them on the timeline. */
  rows: number[];
}

export interface GrowthAnalysis {
  found: FoundSteps;
  steps: StepFigures[];
  by: GrowthBy;
  /** Slope of the active bytes at the steps' ends, per step; 0 with fewer than 2 steps. */
  growthBytesPerStep: number;
  endActiveFit: LineFit;
  /**
   * The end-of-step figure climbs steadily: up from the step before in at least half the steps,
   * a line fits it (R² ≥ 0.5), and it rises by ≥ 1% of itself and ≥ 1 MiB over the steps.
   */
  growing: boolean;
  /** Groups that kept bytes in at least 2 of 3 or more steps and grow, steepest first. */
  suspects: LeakSuspect[];
  /** The finding in one sentence. */
  verdict: string;
}

export interface GrowthOptions {
  by?: GrowthBy;
  rules?: CategoryRules;
}

const MiB = 2 ** 20;

export function analyzeGrowth(
  snapshot: HolderSource & Pick<AnalyzedSnapshot, 'annotations'>,
  device: AnalyzedDevice,
  found: FoundSteps,
  options: GrowthOptions = {},
): GrowthAnalysis {
  const by = options.by ?? 'frame';
  const steps = stepFigures(device, found.steps);
  const ends = steps.map((step) => step.endActiveBytes);
  const endActiveFit = fitLine(ends);
  const meanEnd = ends.reduce((sum, bytes) => sum + bytes, 0) / Math.max(1, ends.length);
  const rise = endActiveFit.slope * Math.max(0, steps.length - 1);
  const ups = steps.filter((step) => (step.endActiveDeltaBytes ?? 0) > 0).length;
  const growing =
    steps.length >= 3 &&
    endActiveFit.slope > 0 &&
    endActiveFit.r2 >= 0.5 &&
    ups >= (steps.length - 1) / 2 &&
    rise >= Math.max(MiB, meanEnd * 0.01);
  // Growth "step after step" needs three steps at least, as the verdict does.
  const suspects =
    steps.length >= 3
      ? leakSuspects(snapshot, device, steps, by, options.rules ?? DEFAULT_CATEGORY_RULES)
      : [];
  return {
    found,
    steps,
    by,
    growthBytesPerStep: steps.length >= 2 ? endActiveFit.slope : 0,
    endActiveFit,
    growing,
    suspects,
    verdict: growthVerdict(steps, endActiveFit, growing, suspects),
  };
}

function leakSuspects(
  snapshot: HolderSource,
  device: AnalyzedDevice,
  steps: readonly StepFigures[],
  by: GrowthBy,
  rules: CategoryRules,
): LeakSuspect[] {
  const table = device.allocations;
  const first = steps[0]!.startEvent;
  const last = steps.at(-1)!.endEvent;
  const keyOf = groupKeyOf(snapshot, device, by, { rules });
  const groups = new Map<
    string,
    { bytesByStep: number[]; rows: number[]; stackBytes: Map<number, number> }
  >();
  let step = 0;
  // Rows are in allocation order, so the step of each start is found walking forward.
  for (let row = 0; row < table.count; row++) {
    const start = table.startEvent[row]!;
    if (start < first || start > last || table.endEvent[row]! <= last) continue;
    while (step + 1 < steps.length && steps[step + 1]!.startEvent <= start) step++;
    const key = keyOf(row);
    let group = groups.get(key);
    if (group === undefined) {
      group = {
        bytesByStep: new Array<number>(steps.length).fill(0),
        rows: [],
        stackBytes: new Map(),
      };
      groups.set(key, group);
    }
    const bytes = table.sizeBytes[row]!;
    group.bytesByStep[step] = group.bytesByStep[step]! + bytes;
    group.rows.push(row);
    const stackId = table.stackId[row]!;
    group.stackBytes.set(stackId, (group.stackBytes.get(stackId) ?? 0) + bytes);
  }
  const suspects: LeakSuspect[] = [];
  for (const [key, group] of groups) {
    const stepsGrown = group.bytesByStep.filter((bytes) => bytes > 0).length;
    if (stepsGrown < 2) continue;
    let sum = 0;
    const cumulative = group.bytesByStep.map((bytes) => (sum += bytes));
    const fit = fitLine(cumulative);
    if (fit.slope <= 0) continue;
    const largestStack = [...group.stackBytes].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
    suspects.push({
      key,
      topFrame: describeStack(snapshot, largestStack),
      bytesPerStep: fit.slope,
      fitR2: fit.r2,
      stepsGrown,
      totalBytes: sum,
      bytesByStep: group.bytesByStep,
      rows: group.rows,
    });
  }
  return suspects.sort(
    (a, b) => b.bytesPerStep - a.bytesPerStep || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

/**
 * Growth that stopped: the level at the steps' ends rises by `noticeable` or more in three steps
 * or more until it first comes within `noticeable` of its highest, then never falls more than
 * three times `noticeable` below that for at least as many steps again (three at least): a leak
 * that reached what the device holds (each later step then runs out, or frees to make room) reads
 * as no growth over the whole run, but it is the thing to fix. A warm-up that fills a cache over
 * a few steps reads the same, and the words say both. Null when the run does not look like that.
 */
function climbThenHold(steps: readonly StepFigures[], noticeable: number): string | null {
  const ends = steps.map((step) => step.endActiveBytes);
  const highest = Math.max(...ends);
  const top = ends.findIndex((bytes) => bytes >= highest - noticeable);
  const rises = steps
    .slice(1, top + 1)
    .filter((step) => (step.endActiveDeltaBytes ?? 0) >= noticeable).length;
  const held = ends.length - 1 - top;
  if (rises < 3 || held < Math.max(3, top) || ends[top]! - ends[0]! < noticeable * 3) return null;
  if (ends.slice(top).some((bytes) => bytes < highest - noticeable * 3)) return null;
  const perStep = (ends[top]! - ends[0]!) / top;
  return `Active memory climbs from ${formatBytes(ends[0]!)} to ${formatBytes(ends[top]!)} from ${steps[0]!.name} to ${steps[top]!.name} (${formatBytes(perStep)} per step), then holds at about ${formatBytes(highest)} for the other ${held} steps: growth that stopped at a limit or a full cache.`;
}

/** The finding in one sentence (exported for its tests). */
export function growthVerdict(
  steps: readonly StepFigures[],
  fit: LineFit,
  growing: boolean,
  suspects: readonly LeakSuspect[],
): string {
  if (steps.length === 0) return 'No complete steps: growth per step cannot be told.';
  if (steps.length < 3)
    return `Only ${countOf(steps.length, 'complete step')}: too few to tell growth.`;
  if (!growing) {
    const ends = steps.map((step) => step.endActiveBytes);
    const range = `active at the steps' ends ${formatBytes(Math.min(...ends))} – ${formatBytes(Math.max(...ends))}`;
    // A level that moves once (a cache filled, a buffer resized) is not growth: say where.
    const jump = steps.reduce<StepFigures | null>(
      (largest, step) =>
        Math.abs(step.endActiveDeltaBytes ?? 0) > Math.abs(largest?.endActiveDeltaBytes ?? 0)
          ? step
          : largest,
      null,
    );
    const meanEnd = ends.reduce((sum, bytes) => sum + bytes, 0) / ends.length;
    const noticeable = Math.max(MiB, meanEnd * 0.01);
    const climb = climbThenHold(steps, noticeable);
    if (climb !== null) return climb;
    const delta = jump?.endActiveDeltaBytes ?? 0;
    const moves = steps.filter(
      (step) => Math.abs(step.endActiveDeltaBytes ?? 0) >= noticeable,
    ).length;
    if (jump !== null && Math.abs(delta) >= noticeable)
      return moves === 1
        ? `No steady growth across ${steps.length} steps (${range}); the level ${delta > 0 ? 'rises' : 'falls'} by ${formatBytes(Math.abs(delta))} once, in ${jump.name}.`
        : `No steady growth across ${steps.length} steps (${range}); the level moves in ${moves} steps, most in ${jump.name} (${formatSignedBytes(delta)}).`;
    return `No growth across ${steps.length} steps (${range}).`;
  }
  const head = `Active memory grows ${formatBytes(fit.slope)} per step over ${steps.length} steps`;
  const top = suspects[0];
  if (top === undefined)
    return `${head}, but nothing allocated in these steps is still held at the end: the growth is memory freed later.`;
  return `${head}; ${formatBytes(top.bytesPerStep)} of it is allocated at ${top.topFrame} and still held at the end (${top.stepsGrown} of ${steps.length} steps).`;
}
