// Geometry of the fragmentation chart, in the app (src/renderer/fragmentation) and in the exported
// SVG (src/shared/render/fragmentation-svg.ts): its two panes, the x range it shows (the
// timeline's window when both use one axis), the byte pane's scale and the events it marks.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { byteTicks, type ByteTicks } from './byte-ticks';
import type { EventAxis, XMode } from './event-axis';

/** The x window to show; null: the whole trace. */
export interface FragmentationWindow {
  mode: XMode;
  x0: number;
  x1: number;
}

/** Gap between the byte pane and the share pane; the share pane's part of the height. */
const PANE_GAP = 12;
const SHARE_PANE = 0.3;

/** The share pane's grid lines and ticks: 0 %, 50 %, 100 % of reserved memory. */
export const SHARE_TICKS: readonly number[] = [0, 0.5, 1];

export interface FragmentationPanes {
  bytesTop: number;
  bytesHeight: number;
  shareTop: number;
  shareHeight: number;
}

/** The byte pane above the share pane in a plot `height` CSS pixels tall. */
export function splitPanes(height: number): FragmentationPanes {
  const shareHeight = Math.max(16, Math.round((height - PANE_GAP) * SHARE_PANE));
  const bytesHeight = Math.max(16, height - PANE_GAP - shareHeight);
  return {
    bytesTop: 0,
    bytesHeight,
    shareTop: bytesHeight + PANE_GAP,
    shareHeight: Math.max(0, height - bytesHeight - PANE_GAP),
  };
}

/** The x range shown: the timeline's window when it uses this axis, else everything. */
export function visibleDomain(
  axis: EventAxis,
  shown: FragmentationWindow | null,
): { x0: number; x1: number } {
  if (shown !== null && shown.mode === axis.mode && shown.x1 > shown.x0) {
    return { x0: Math.max(axis.minX, shown.x0), x1: Math.min(axis.maxX, shown.x1) };
  }
  return { x0: axis.minX, x1: axis.maxX };
}

export function sameWindow(a: FragmentationWindow | null, b: FragmentationWindow | null): boolean {
  return (
    a === b || (a !== null && b !== null && a.mode === b.mode && a.x0 === b.x0 && a.x1 === b.x1)
  );
}

/** The byte pane's ticks and the top of its scale for the largest byte figure drawn. */
export function fragmentationByteScale(
  maxBytes: number,
  bytesHeight: number,
): { ticks: ByteTicks; top: number } {
  const ticks = byteTicks(maxBytes, Math.max(2, Math.round(bytesHeight / 32)));
  return { ticks, top: Math.max(maxBytes * 1.08, ticks.values.at(-1) ?? 0, 1) };
}

export type FragmentationMarkerKind = 'peak-active' | 'oom';

/** The events the chart marks, as the timeline does: the active peak and every OOM. */
export function fragmentationMarkerEvents(
  device: Pick<AnalyzedDevice, 'figures' | 'ooms'>,
): { event: number; kind: FragmentationMarkerKind }[] {
  return [
    { event: device.figures.active.peakEventIndex, kind: 'peak-active' },
    ...device.ooms.map((oom) => ({ event: oom.eventIndex, kind: 'oom' as const })),
  ];
}
