// Per-step figures: where each step peaks, what is still active at its end (what the next step
// starts from), reserved there, and the change of the end figure from the step before: a curve
// that climbs step after step shows here first.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import type { TrainingStep } from './find-steps';

export interface StepFigures extends TrainingStep {
  peakActiveBytes: number;
  /** The event after which the step's active peak is reached (the first, if several). */
  peakEvent: number;
  /** Active bytes after the step's last event. */
  endActiveBytes: number;
  /** Reserved bytes after the step's last event. */
  endReservedBytes: number;
  /** endActiveBytes minus the previous step's; null for the first step. */
  endActiveDeltaBytes: number | null;
}

export function stepFigures(
  device: Pick<AnalyzedDevice, 'activeBytes' | 'reservedBytes'>,
  steps: readonly TrainingStep[],
): StepFigures[] {
  const figures: StepFigures[] = [];
  for (const step of steps) {
    let peakEvent = step.startEvent;
    for (let event = step.startEvent; event <= step.endEvent; event++)
      if (device.activeBytes[event]! > device.activeBytes[peakEvent]!) peakEvent = event;
    const endActiveBytes = device.activeBytes[step.endEvent]!;
    const previous = figures.at(-1);
    figures.push({
      ...step,
      peakActiveBytes: device.activeBytes[peakEvent]!,
      peakEvent,
      endActiveBytes,
      endReservedBytes: device.reservedBytes[step.endEvent]!,
      endActiveDeltaBytes: previous === undefined ? null : endActiveBytes - previous.endActiveBytes,
    });
  }
  return figures;
}

/** Least-squares line through (x_i, y_i): slope, intercept and R² (1 for a perfect fit). */
export interface LineFit {
  slope: number;
  intercept: number;
  r2: number;
}

export function fitLine(ys: readonly number[], xs?: readonly number[]): LineFit {
  const n = ys.length;
  if (n === 0) return { slope: 0, intercept: 0, r2: 0 };
  const x = (i: number): number => xs?.[i] ?? i;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += x(i);
    sy += ys[i]!;
  }
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x(i) - mx;
    const dy = ys[i]! - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const r2 = syy === 0 ? 1 : sxx === 0 ? 0 : (sxy * sxy) / (sxx * syy);
  return { slope, intercept: my - slope * mx, r2 };
}
