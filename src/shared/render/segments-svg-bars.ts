// The bars of the exported segments picture as markup: one path per layer (segments' background,
// allocated, pending free, separators, outlines, expandable outlines, the largest hole) so the
// document stays small, and the bars' labels. Bars below `height` are left out.

import type { AllocatorState } from '../state/allocator-state';
import { strokeOf, type RenderTheme } from './render-theme';
import { barRuns, type BarRuns, type XRun } from './segment-bar-runs';
import { SEGMENT_LABEL_SIZE, type FlowConfig, type PlacedBar } from './segments-flow';
import { num, svgText } from './svg-markup';

/** Path data for runs drawn from y down `height`. */
export function runsPath(runs: readonly XRun[], y: number, height: number): string {
  let d = '';
  for (const run of runs) {
    const width = run.x1 - run.x0;
    if (width <= 0) continue;
    d += `M${num(run.x0)} ${num(y)}h${num(width)}v${num(height)}h${num(-width)}z`;
  }
  return d;
}

export function barsMarkup(
  state: AllocatorState,
  bars: readonly PlacedBar[],
  config: FlowConfig,
  theme: RenderTheme,
  height: number,
  largestHole: number,
): string {
  const h = config.barHeight;
  let background = '';
  let outline = '';
  let expandable = '';
  let allocated = '';
  let pending = '';
  let separators = '';
  let hole = '';
  for (const bar of bars) {
    if (bar.y + h > height) continue;
    const { segment } = bar;
    if (largestHole >= segment.firstBlock && largestHole < segment.endBlock) {
      const scale = bar.width / Math.max(1, segment.sizeBytes);
      const x0 = bar.x + (state.blocks.address[largestHole]! - segment.address) * scale;
      const x1 = Math.max(x0 + 1, x0 + state.blocks.sizeBytes[largestHole]! * scale);
      hole = runsPath(
        [{ x0: x0 + 0.75, x1: Math.max(x0 + 1.5, x1 - 0.75) }],
        bar.y + 0.75,
        h - 1.5,
      );
    }
    const box = runsPath([{ x0: bar.x, x1: bar.x + bar.width }], bar.y, h);
    background += box;
    if (bar.segment.isExpandable) expandable += box;
    else outline += box;
    const runs: BarRuns = [[], []];
    const cuts: number[] = [];
    barRuns(state, bar, runs, cuts);
    allocated += runsPath(runs[0], bar.y, h);
    pending += runsPath(runs[1], bar.y, h);
    for (const x of cuts) separators += `M${num(x)} ${num(bar.y)}v${num(h)}`;
  }
  const outlineWidth = h >= 7 ? 0.75 : 0.5;
  return [
    `<path class="segments" d="${background}" fill="${theme.cachedFreeBlock}"/>`,
    `<path class="allocated" d="${allocated}" fill="${theme.allocatedBlock}"/>`,
    `<path class="pending-free" d="${pending}" fill="${theme.pendingFreeBlock}"/>`,
    separators === ''
      ? ''
      : `<path d="${separators}" fill="none" ${strokeOf(theme.blockSeparator)} stroke-width="0.75"/>`,
    `<path d="${outline}" fill="none" stroke="${theme.segmentOutline}" stroke-width="${outlineWidth}"/>`,
    expandable === ''
      ? ''
      : `<path class="expandable" d="${expandable}" fill="none" stroke="${theme.expandableOutline}" stroke-width="1" stroke-dasharray="3 2"/>`,
    hole === ''
      ? ''
      : `<path class="largest-hole" d="${hole}" fill="none" stroke="${theme.largestHole}" stroke-width="1.5"/>`,
  ].join('\n');
}

export function labelsMarkup(
  bars: readonly PlacedBar[],
  config: FlowConfig,
  theme: RenderTheme,
  height: number,
): string {
  if (!config.labels) return '';
  const texts = bars
    .filter((bar) => bar.label !== '' && bar.y + config.barHeight <= height)
    .map((bar) =>
      svgText(bar.label, {
        x: bar.x + 1,
        y: bar.y - 3,
        fill: theme.textMuted,
        size: SEGMENT_LABEL_SIZE,
      }),
    );
  return `<g class="labels">${texts.join('')}</g>`;
}
