// The selected moment of a snapshot page: "the state after event e" (-1 = before the first
// entry). One moment drives the timeline's marker, the segments view, the fragmentation figures,
// the table and the exports. Pure helpers, unit-tested.

import { formatBytes } from '@shared/format/units';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { clampMoment, momentRange } from '@shared/analyzed/moments';
import { describeEvent } from '../allocations/allocation-facts';
import type { ShortcutCommand } from '../state/keyboard-shortcuts';

export type MomentStep = 'previous' | 'next' | 'back' | 'forward' | 'first' | 'last';

/** The step a keyboard command makes (the keys are in state/keyboard-shortcuts.ts); null: none. */
export function momentStepOfCommand(command: ShortcutCommand): MomentStep | null {
  switch (command) {
    case 'moment-previous':
      return 'previous';
    case 'moment-next':
      return 'next';
    case 'moment-back':
      return 'back';
    case 'moment-forward':
      return 'forward';
    case 'moment-first':
      return 'first';
    case 'moment-last':
      return 'last';
    default:
      return null;
  }
}

/** Events in 1% of the trace (at least one). */
export function bigStep(device: Pick<AnalyzedDevice, 'traceLength'>): number {
  return Math.max(1, Math.round(device.traceLength / 100));
}

export function stepMoment(
  device: Pick<AnalyzedDevice, 'traceLength'>,
  moment: number,
  step: MomentStep,
): number {
  const { first, last } = momentRange(device);
  switch (step) {
    case 'previous':
      return clampMoment(device, moment - 1);
    case 'next':
      return clampMoment(device, moment + 1);
    case 'back':
      return clampMoment(device, moment - bigStep(device));
    case 'forward':
      return clampMoment(device, moment + bigStep(device));
    case 'first':
      return first;
    case 'last':
      return last;
  }
}

/** A curve's value after `event`; the baseline before the first entry. */
export function curveAt(curve: Float64Array, baseline: number, event: number): number {
  if (event < 0 || curve.length === 0) return baseline;
  return curve[Math.min(event, curve.length - 1)]!;
}

export function activeAt(device: AnalyzedDevice, event: number): number {
  return curveAt(device.activeBytes, device.figures.active.baselineBytes, event);
}

export function reservedAt(device: AnalyzedDevice, event: number): number {
  return curveAt(device.reservedBytes, device.figures.reserved.baselineBytes, event);
}

/** "event 1,234 · 2.31 s · active 3.1 GiB · reserved 3.5 GiB". */
export function describeMoment(device: AnalyzedDevice, moment: number): string {
  return describeMomentParts(device, moment).join(' · ');
}

/** The readout's parts, most important first: a narrow bar shows the first ones only. */
export function describeMomentParts(device: AnalyzedDevice, moment: number): string[] {
  const parts = [describeEvent(device, moment), `active ${formatBytes(activeAt(device, moment))}`];
  // A CPU profiler trace records no reserved bytes: no "reserved 0 B" that reads as measured.
  if (device.figures.reservedRecorded)
    parts.push(`reserved ${formatBytes(reservedAt(device, moment))}`);
  return parts;
}
