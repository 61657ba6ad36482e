// The horizontal grid of a byte axis with its labels left of the plot: one rule for the pictures
// that plot bytes against something (steps, comparison, categories).

import type { ByteTicks } from '../chart/byte-ticks';
import { strokeOf, type RenderTheme } from './render-theme';
import { num, svgText } from './svg-markup';

export function byteGridMarkup(
  ticks: ByteTicks,
  yOf: (bytes: number) => number,
  plot: { left: number; width: number },
  theme: Pick<RenderTheme, 'grid' | 'textMuted'>,
): string[] {
  return ticks.values.flatMap((value) => {
    // On a half pixel: a crisp 1 px line.
    const y = Math.round(yOf(value)) + 0.5;
    return [
      `<path d="M${num(plot.left)} ${num(y)}h${num(plot.width)}" ${strokeOf(theme.grid)}/>`,
      svgText(ticks.format(value), {
        x: plot.left - 6,
        y: y + 4,
        fill: theme.textMuted,
        anchor: 'end',
      }),
    ];
  });
}
