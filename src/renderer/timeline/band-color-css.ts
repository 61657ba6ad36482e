// Band colours as CSS values that follow the theme's custom properties (--tl-band-*, set from the
// palette, src/shared/render/palette.ts), for DOM swatches (tables, panels) that should match the
// canvas in light and dark.

import { bandTone } from '@shared/chart/band-colors';

/** The hue of bandColor() with the saturation and lightness of the current theme's CSS. */
export function bandColorCss(stackId: number): string {
  const tone = bandTone(stackId);
  if (tone === null) return 'var(--tl-band-no-stack)';
  const lightness = tone.variant === 0 ? '--tl-band-lightness' : '--tl-band-lightness-alt';
  return `hsl(${tone.hue} calc(var(--tl-band-saturation) * 1%) calc(var(${lightness}) * 1%))`;
}
