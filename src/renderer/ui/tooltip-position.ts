// Where a chart's tooltip goes: beside the pointer, on whichever side keeps it inside the chart.
// Pure, so the flipping and clamping are unit-tested; use-placed-tooltip.ts applies it.

/** Gap between the pointer and the tooltip, in CSS pixels. */
export const TOOLTIP_OFFSET = 14;

export interface Size {
  width: number;
  height: number;
}

/**
 * The tooltip's top-left corner in the stage: right of and below the pointer, flipped to the left
 * or above where it would leave the stage, and kept inside it.
 */
export function placeTooltip(
  pointer: { x: number; y: number },
  tooltip: Size,
  stage: Size,
): { left: number; top: number } {
  let left = pointer.x + TOOLTIP_OFFSET;
  if (left + tooltip.width > stage.width) left = pointer.x - TOOLTIP_OFFSET - tooltip.width;
  left = Math.max(0, Math.min(left, stage.width - tooltip.width));
  let top = pointer.y + TOOLTIP_OFFSET;
  if (top + tooltip.height > stage.height) top = pointer.y - TOOLTIP_OFFSET - tooltip.height;
  top = Math.max(0, Math.min(top, stage.height - tooltip.height));
  return { left, top };
}
