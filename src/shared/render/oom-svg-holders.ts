// The exported OOM explainer's table of live allocations by top user frame (the app's holders
// table): the label, bytes in human units and exactly, the allocation count, and how many
// distinct stacks lead to the label.

import { formatBytes, formatExactBytes } from '../format/units';
import { NO_STACK_TEXT } from '../format/words';
import type { OomHolder } from '../oom/oom-explanation';
import type { RenderTheme } from './render-theme';
import { fitText, num, svgText } from './svg-markup';

const ROW = 17;
const COUNT_WIDTH = 90;
const EXACT_WIDTH = 150;
const BYTES_WIDTH = 80;

/** The table from `top`; returns the markup and the height used. */
export function oomHoldersMarkup(
  holders: readonly OomHolder[],
  isWhatIf: boolean,
  left: number,
  top: number,
  width: number,
  theme: RenderTheme,
): { markup: string; height: number } {
  const parts: string[] = [];
  const right = left + width;
  const countX = right;
  const exactX = countX - COUNT_WIDTH;
  const bytesX = exactX - EXACT_WIDTH;
  const frameWidth = bytesX - BYTES_WIDTH - left - 10;
  let y = top + 13;
  parts.push(
    svgText(`Live allocations ${isWhatIf ? 'at the peak' : 'when it failed'}, by top user frame`, {
      x: left,
      y,
      fill: theme.text,
      size: 12,
      weight: 'bold',
    }),
  );
  y += ROW + 2;
  const header = [
    svgText('Top user frame', { x: left, y, fill: theme.textMuted }),
    svgText('Bytes', { x: bytesX, y, fill: theme.textMuted, anchor: 'end' }),
    svgText('Exact bytes', { x: exactX, y, fill: theme.textMuted, anchor: 'end' }),
    svgText('Allocations', { x: countX, y, fill: theme.textMuted, anchor: 'end' }),
  ];
  parts.push(...header);
  parts.push(
    `<path d="M${num(left)} ${num(Math.round(y + 4) + 0.5)}H${num(right)}" stroke="${theme.axisLine}" stroke-width="0.5"/>`,
  );
  if (holders.length === 0) {
    y += ROW;
    parts.push(svgText('No allocations were alive.', { x: left, y, fill: theme.textMuted }));
  }
  for (const holder of holders) {
    y += ROW;
    const stacks = holder.stacks.length > 1 ? ` (${holder.stacks.length} stacks)` : '';
    const label = `${holder.topFrame ?? NO_STACK_TEXT}${stacks}`;
    parts.push(
      `<g class="oom-holder">`,
      svgText(fitText(label, frameWidth, 11), {
        x: left,
        y,
        fill: theme.text,
        family: theme.monoFamily,
      }),
      svgText(formatBytes(holder.bytes), { x: bytesX, y, fill: theme.text, anchor: 'end' }),
      svgText(formatExactBytes(holder.bytes), {
        x: exactX,
        y,
        fill: theme.textMuted,
        anchor: 'end',
      }),
      svgText(formatExactBytes(holder.count), { x: countX, y, fill: theme.text, anchor: 'end' }),
      '</g>',
    );
  }
  return {
    markup: `<g class="oom-holders">${parts.join('')}</g>`,
    height: y - top + 10,
  };
}
