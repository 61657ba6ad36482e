// The selected moment of a snapshot page: "the state after event e" (-1 = before the first
// entry). One moment drives the timeline's marker, the segments view, the fragmentation figures,
// the table and the exports. Pure helpers, unit-tested.

import { formatBytes } from '@shared/units';
import type { DeviceView } from '@shared/view/snapshot-view';
import { describeEvent } from '../charts/allocation-facts';

export interface MomentRange {
  first: number;
  last: number;
}

/** Moments a device has: -1 (before the first entry) through its last event. */
export function momentRange(device: Pick<DeviceView, 'traceLength'>): MomentRange {
  return { first: -1, last: Math.max(-1, device.traceLength - 1) };
}

export function clampMoment(device: Pick<DeviceView, 'traceLength'>, moment: number): number {
  const { first, last } = momentRange(device);
  return Math.max(first, Math.min(last, Math.trunc(moment)));
}

/** Where a page starts: the device's first OOM when it has one, else its active peak. */
export function defaultMoment(device: DeviceView): number {
  const oom = firstOomEvent(device);
  return clampMoment(device, oom ?? device.summary.active_bytes.peak_event_index);
}

export function firstOomEvent(device: DeviceView): number | null {
  let first: number | null = null;
  for (const oom of device.ooms) {
    if (first === null || oom.eventIndex < first) first = oom.eventIndex;
  }
  return first;
}

export type MomentStep = 'previous' | 'next' | 'back' | 'forward' | 'first' | 'last';

export interface MomentKey {
  readonly key: string;
  readonly shiftKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
}

/** ← → one event, Shift+← → 1% of the trace, Home End the ends; null for other keys. */
export function momentStepOfKey(stroke: MomentKey): MomentStep | null {
  if (stroke.ctrlKey || stroke.metaKey || stroke.altKey) return null;
  switch (stroke.key) {
    case 'ArrowLeft':
      return stroke.shiftKey ? 'back' : 'previous';
    case 'ArrowRight':
      return stroke.shiftKey ? 'forward' : 'next';
    case 'Home':
      return stroke.shiftKey ? null : 'first';
    case 'End':
      return stroke.shiftKey ? null : 'last';
    default:
      return null;
  }
}

/**
 * The step a key makes where it was pressed: in the focused timeline the arrows pan the chart,
 * so only Home and End move the moment there.
 */
export function momentStepAt(stroke: MomentKey, inTimeline: boolean): MomentStep | null {
  const step = momentStepOfKey(stroke);
  if (step === null) return null;
  if (inTimeline && step !== 'first' && step !== 'last') return null;
  return step;
}

/** Events in 1% of the trace (at least one). */
export function bigStep(device: Pick<DeviceView, 'traceLength'>): number {
  return Math.max(1, Math.round(device.traceLength / 100));
}

export function stepMoment(
  device: Pick<DeviceView, 'traceLength'>,
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

export function activeAt(device: DeviceView, event: number): number {
  return curveAt(device.activeBytes, device.summary.active_bytes.baseline, event);
}

export function reservedAt(device: DeviceView, event: number): number {
  return curveAt(device.reservedBytes, device.summary.reserved_bytes.baseline, event);
}

/** "event 1,234 · 2.31 s · active 3.1 GiB · reserved 3.5 GiB". */
export function describeMoment(device: DeviceView, moment: number): string {
  return [
    describeEvent(device, moment),
    `active ${formatBytes(activeAt(device, moment))}`,
    `reserved ${formatBytes(reservedAt(device, moment))}`,
  ].join(' · ');
}

/** Whether a key press belongs to a control that edits text or picks values with the arrows. */
export function isEditingTarget(target: EventTarget | null): boolean {
  if (typeof Element === 'undefined' || !(target instanceof Element)) return false;
  if (target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]'))
    return true;
  return target.closest('[role="slider"], [role="spinbutton"], [role="listbox"]') !== null;
}
