// Band colours as CSS values that follow the theme's custom properties (--tl-band-*, set from the
// palette, src/shared/render/palette.ts), for DOM swatches (tables, panels, the colour legend)
// that should match the canvas in light and dark.

import { bandColorIndex, NEUTRAL_COLOR, toneOfIndex } from '@shared/chart/band-colors';

/** The colour of a palette index (NO_STACK_COLOR, NEUTRAL_COLOR for those looks) in the theme's CSS. */
export function paletteColorCss(index: number): string {
  const tone = toneOfIndex(index);
  if (tone === null)
    return index === NEUTRAL_COLOR ? 'var(--tl-band-neutral)' : 'var(--tl-band-no-stack)';
  const lightness = tone.variant === 0 ? '--tl-band-lightness' : '--tl-band-lightness-alt';
  return `hsl(${tone.hue} calc(var(--tl-band-saturation) * 1%) calc(var(${lightness}) * 1%))`;
}

/** The hue of bandColor() with the saturation and lightness of the current theme's CSS. */
export function bandColorCss(stackId: number): string {
  return paletteColorCss(bandColorIndex(stackId));
}
