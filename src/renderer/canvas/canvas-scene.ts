// The canvas backend of a scene of marks (@shared/chart/scene-marks.ts): each batch straight onto
// a 2D context, in the colour the theme gives its role. The SVG backend
// (@shared/render/svg-scene.ts) draws the same marks for the exports.

import type { BandsMark, SceneMark } from '@shared/chart/scene-marks';

export interface CanvasSceneColors<Role extends string> {
  roles: Readonly<Record<Role, string>>;
  /** Canvas colour of a band palette index (chart/band-colors.ts); needed by bands marks. */
  bandColor?: (index: number) => string;
  /** The hatch over bands drawn hatched; none where absent or null. */
  hatch?: CanvasPattern | string | null;
  /** The font of text marks at a size in CSS pixels (default the system sans-serif). */
  font?: (sizePx: number) => string;
}

export function drawSceneMarks<Role extends string>(
  context: CanvasRenderingContext2D,
  marks: readonly SceneMark<Role>[],
  colors: CanvasSceneColors<Role>,
): void {
  for (const mark of marks) {
    switch (mark.type) {
      case 'rects': {
        const { rects } = mark;
        context.globalAlpha = mark.alpha;
        context.fillStyle = colors.roles[mark.role];
        for (let i = 0; i < rects.length; i += 4)
          context.fillRect(rects[i]!, rects[i + 1]!, rects[i + 2]!, rects[i + 3]!);
        context.globalAlpha = 1;
        break;
      }
      case 'polygon':
        context.fillStyle = colors.roles[mark.role];
        context.beginPath();
        tracePoints(context, mark.points, 0, mark.points.length / 2);
        context.closePath();
        context.fill();
        break;
      case 'polyline':
        context.strokeStyle = colors.roles[mark.role];
        context.lineWidth = mark.lineWidth;
        context.lineJoin = 'round';
        context.beginPath();
        tracePoints(context, mark.points, 0, mark.points.length / 2);
        context.stroke();
        break;
      case 'lines': {
        const { lines } = mark;
        context.strokeStyle = colors.roles[mark.role];
        context.lineWidth = mark.lineWidth;
        context.setLineDash(mark.dash ?? []);
        context.beginPath();
        for (let i = 0; i < lines.length; i += 4) {
          context.moveTo(lines[i]!, lines[i + 1]!);
          context.lineTo(lines[i + 2]!, lines[i + 3]!);
        }
        context.stroke();
        if (mark.dash !== null) context.setLineDash([]);
        break;
      }
      case 'text':
        context.font =
          (mark.bold === true ? 'bold ' : '') +
          (colors.font?.(mark.sizePx) ?? `${mark.sizePx}px sans-serif`);
        context.textBaseline = 'alphabetic';
        context.textAlign = 'left';
        context.lineJoin = 'round';
        context.lineWidth = 3;
        if (mark.haloRole !== null) context.strokeStyle = colors.roles[mark.haloRole];
        context.fillStyle = colors.roles[mark.role];
        for (const item of mark.items) {
          if (mark.haloRole !== null) context.strokeText(item.text, item.x, item.y);
          context.fillText(item.text, item.x, item.y);
        }
        break;
      case 'bands':
        drawBands(context, mark, colors);
        break;
    }
  }
}

/** Each band filled, hatched where it has no stack, edged where tall enough, in order. */
function drawBands<Role extends string>(
  context: CanvasRenderingContext2D,
  mark: BandsMark<Role>,
  colors: CanvasSceneColors<Role>,
): void {
  const { starts, points } = mark;
  context.strokeStyle = colors.roles[mark.edgeRole];
  context.lineWidth = mark.edgeWidth;
  context.lineJoin = 'miter';
  for (let band = 0; band + 1 < starts.length; band++) {
    context.globalAlpha = mark.dimmed?.[band] === 1 ? mark.dimAlpha : 1;
    context.fillStyle = colors.bandColor?.(mark.colors[band]!) ?? colors.roles[mark.edgeRole];
    context.beginPath();
    tracePoints(context, points, starts[band]!, starts[band + 1]!);
    context.closePath();
    context.fill();
    if (mark.hatched[band] === 1 && colors.hatch != null) {
      context.fillStyle = colors.hatch;
      context.fill();
    }
    if (mark.edged[band] === 1) context.stroke();
  }
  context.globalAlpha = 1;
}

/** Points first .. end - 1 (x, y each) as one sub-path. */
function tracePoints(
  context: CanvasRenderingContext2D,
  points: Float64Array,
  first: number,
  end: number,
): void {
  if (end <= first) return;
  context.moveTo(points[first * 2]!, points[first * 2 + 1]!);
  for (let i = first + 1; i < end; i++) context.lineTo(points[i * 2]!, points[i * 2 + 1]!);
}
