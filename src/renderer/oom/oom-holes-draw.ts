// Canvas drawing of the OOM picture: the shared scene (@shared/oom/oom-holes-scene.ts) through
// canvas/canvas-scene.ts, as the SVG export draws it.

import type { OomHolesPicture } from '@shared/oom/oom-holes-scene';
import { drawSceneMarks } from '../canvas/canvas-scene';
import type { OomHolesTheme } from './oom-holes-theme';

export function drawOomHoles(
  context: CanvasRenderingContext2D,
  picture: OomHolesPicture,
  theme: OomHolesTheme,
): void {
  context.save();
  drawSceneMarks(context, picture.scene.marks, theme);
  context.restore();
}
