// Geometry of the fragmentation chart: its two panes, the x range it shows (the timeline's window
// when both use one axis) and whether a new window changes anything. Pure, so it is unit-tested.

import type { EventAxis } from '@shared/chart/event-axis';
import type { FragmentationWindow } from './fragmentation-data';

/** Gap between the byte pane and the share pane; the share pane's part of the height. */
const PANE_GAP = 12;
const SHARE_PANE = 0.3;

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
  window: FragmentationWindow | null,
): { x0: number; x1: number } {
  if (window !== null && window.mode === axis.mode && window.x1 > window.x0) {
    return { x0: Math.max(axis.minX, window.x0), x1: Math.min(axis.maxX, window.x1) };
  }
  return { x0: axis.minX, x1: axis.maxX };
}

export function sameWindow(a: FragmentationWindow | null, b: FragmentationWindow | null): boolean {
  return (
    a === b || (a !== null && b !== null && a.mode === b.mode && a.x0 === b.x0 && a.x1 === b.x1)
  );
}
