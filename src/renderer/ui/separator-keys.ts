// The keys of a focused pane divider (pane-separator.tsx). Pure, unit-tested.

/** Pixels a divider moves per arrow key; Shift moves it further. */
export const KEY_STEP_PX = 16;
export const KEY_BIG_STEP_PX = 80;

/**
 * Where a focused divider goes for a key: the arrows move it (up or left makes the pane before it
 * smaller), Home and End to the ends. `value` is the size of the pane before the divider; null
 * for keys the divider does not use.
 */
export function separatorKeyValue(
  key: string,
  shiftKey: boolean,
  value: number,
  min: number,
  max: number,
): number | null {
  const step = shiftKey ? KEY_BIG_STEP_PX : KEY_STEP_PX;
  switch (key) {
    case 'ArrowUp':
    case 'ArrowLeft':
      return clamp(value - step, min, max);
    case 'ArrowDown':
    case 'ArrowRight':
      return clamp(value + step, min, max);
    case 'Home':
      return min;
    case 'End':
      return max;
    default:
      return null;
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.round(Math.max(min, Math.min(max, value)));
}
