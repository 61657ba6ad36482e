// The canvas backend of a scene (@shared/chart/scene-painter.ts): each mark straight onto a 2D
// context, in the colour the theme gives its role. The SVG backend (@shared/render/svg-painter.ts)
// draws the same marks for the exports.

import type { ScenePainter } from '@shared/chart/scene-painter';

export function canvasPainter<Role extends string>(
  context: CanvasRenderingContext2D,
  colors: Readonly<Record<Role, string>>,
): ScenePainter<Role> {
  return {
    fillRect(x, y, width, height, role) {
      context.fillStyle = colors[role];
      context.fillRect(x, y, width, height);
    },
    strokeRect(x, y, width, height, role, lineWidth, dash) {
      context.lineWidth = lineWidth;
      context.strokeStyle = colors[role];
      context.setLineDash(dash ?? []);
      context.strokeRect(x, y, width, height);
      if (dash !== null) context.setLineDash([]);
    },
  };
}
