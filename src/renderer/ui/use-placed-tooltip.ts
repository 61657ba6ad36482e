// Places a tooltip after React has rendered it (its size is known only then) beside the pointer,
// inside its parent, the chart's stage; it stays hidden (CSS) until placed.

import { useLayoutEffect, type RefObject } from 'react';
import { placeTooltip } from './tooltip-position';

/** `pointerX`, `pointerY`: CSS pixels relative to the tooltip's parent. */
export function usePlacedTooltip(
  ref: RefObject<HTMLElement | null>,
  pointerX: number,
  pointerY: number,
): void {
  useLayoutEffect(() => {
    const element = ref.current;
    const stage = element?.parentElement;
    if (!element || !stage) return;
    const { left, top } = placeTooltip(
      { x: pointerX, y: pointerY },
      { width: element.offsetWidth, height: element.offsetHeight },
      { width: stage.clientWidth, height: stage.clientHeight },
    );
    element.style.left = `${left}px`;
    element.style.top = `${top}px`;
    element.style.visibility = 'visible';
  });
}
