// Whether the side panel takes its column beside the chart, kept steady under the pointer:
// opening or closing the panel while the pointer is over the chart or the views below would
// narrow or widen them under it (the tooltip would jump). So the layout changes only while the
// pointer is elsewhere: until it leaves, a panel opened meanwhile floats over the right edge, and
// a panel closed meanwhile leaves its column empty.

import { useEffectEvent, useLayoutEffect, useState, type RefObject } from 'react';

export type PanelPlacement = 'docked' | 'floating' | 'reserved' | 'none';

/** Where the panel goes: its column (docked or empty) or over the views (floating). */
export function panelPlacement(panelOpen: boolean, columnKept: boolean): PanelPlacement {
  if (columnKept) return panelOpen ? 'docked' : 'reserved';
  return panelOpen ? 'floating' : 'none';
}

/**
 * The column's presence while the pointer is in `region` (frozen when it came in), else whether
 * the panel is open. Followed with pointermove's target rather than enter/leave events, which a
 * click on the chart (it captures the pointer) can report as a leave.
 */
export function useStableDock(
  panelOpen: boolean,
  region: RefObject<HTMLElement | null>,
): PanelPlacement {
  const [frozenColumn, setFrozenColumn] = useState<boolean | null>(null);
  const columnKept = frozenColumn ?? panelOpen;

  const pointerAt = useEffectEvent((target: EventTarget | null) => {
    const inside = target instanceof Node && region.current?.contains(target) === true;
    if (inside && frozenColumn === null) setFrozenColumn(panelOpen);
    else if (!inside && frozenColumn !== null) setFrozenColumn(null);
  });

  useLayoutEffect(() => {
    const onMove = (event: PointerEvent): void => pointerAt(event.target);
    // Out of the window (no element to go to): not over the region any more.
    const onOut = (event: PointerEvent): void => {
      if (event.relatedTarget === null) pointerAt(null);
    };
    window.addEventListener('pointermove', onMove);
    document.addEventListener('pointerout', onOut);
    return () => {
      window.removeEventListener('pointermove', onMove);
      document.removeEventListener('pointerout', onOut);
    };
  }, []);

  return panelPlacement(panelOpen, columnKept);
}
