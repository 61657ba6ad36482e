// Colours of the OOM picture on the page: the palette entries the export draws in
// (@shared/render/oom-holes-paints.ts), as CSS colours for the canvas.

import type { OomHolesRole } from '@shared/oom/oom-holes-scene';
import { oomHolesPaints } from '@shared/render/oom-holes-paints';
import { cssColor, type Palette } from '@shared/render/palette';
import { canvasFont } from '../canvas/canvas-font';

export interface OomHolesTheme {
  roles: Record<OomHolesRole, string>;
  font: (sizePx: number) => string;
}

export function oomHolesTheme(palette: Palette): OomHolesTheme {
  const paints = oomHolesPaints(palette);
  const roles = Object.fromEntries(
    Object.entries(paints).map(([role, paint]) => [role, cssColor(paint)]),
  ) as Record<OomHolesRole, string>;
  return { roles, font: canvasFont };
}
