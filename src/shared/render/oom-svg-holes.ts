// The exported OOM explainer's bar chart: the picture of oom/oom-holes-scene.ts (the page's OOM
// view draws the same scene on its canvas) under its heading, placed at `top`.

import type { OomExplanation } from '../oom/oom-explanation';
import { layoutOomHoles, oomHolesHeading, type OomHoleRow } from '../oom/oom-holes-scene';
import { oomHolesPaints } from './oom-holes-paints';
import { palette } from './palette';
import type { RenderTheme } from './render-theme';
import { num, svgText } from './svg-markup';
import { sceneMarkup } from './svg-scene';

/** The class of the scene's group (its marks in picture coordinates, data-size its box). */
export const OOM_HOLES_SCENE_CLASS = 'oom-holes-scene';

const HEADING = 20;

/** The section from `top` (heading and picture), `width` wide from `left`; its markup and height. */
export function oomHolesMarkup(
  e: OomExplanation,
  rows: readonly OomHoleRow[],
  left: number,
  top: number,
  width: number,
  theme: RenderTheme,
): { markup: string; height: number } {
  const picture = layoutOomHoles(e, rows, width);
  const { scene } = picture;
  const y = top + HEADING;
  const markup = [
    '<g class="oom-holes">',
    svgText(oomHolesHeading(e), {
      x: left,
      y: top + 13,
      fill: theme.text,
      size: 12,
      weight: 'bold',
    }),
    `<g class="${OOM_HOLES_SCENE_CLASS}" transform="translate(${num(left)} ${num(y)})" data-origin="${num(left)} ${num(y)}" data-size="${num(scene.width)} ${num(scene.height)}">`,
    sceneMarkup(scene.marks, { roles: oomHolesPaints(palette(theme.name)) }),
    '</g></g>',
  ].join('\n');
  return { markup, height: HEADING + scene.height };
}
