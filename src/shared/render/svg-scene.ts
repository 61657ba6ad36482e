// The SVG backend of a scene of marks (chart/scene-marks.ts): each batch one <path> (the bands
// one each, text one group), in the palette colour of its role, its kind in data-mark. The page's
// canvas backend (src/renderer/canvas/canvas-scene.ts) draws the same marks. Coordinates are
// written to 0.1 px (svg-markup.ts num), with H and V where a line is level or upright.

import type { BandsMark, SceneMark } from '../chart/scene-marks';
import type { Paint } from './palette';
import { escapeXml, num } from './svg-markup';

export interface SvgSceneColors<Role extends string> {
  roles: Readonly<Record<Role, Paint | string>>;
  /** The colour of a band palette index (chart/band-colors.ts hexOfIndex); needed by bands marks. */
  bandColor?: (index: number) => string;
  /** The fill of the hatch over bands drawn hatched: url(#…) of a pattern in the <defs>. */
  hatchFill?: string;
}

export function sceneMarkup<Role extends string>(
  marks: readonly SceneMark<Role>[],
  colors: SvgSceneColors<Role>,
): string {
  const parts: string[] = [];
  for (const mark of marks) {
    const tag =
      mark.type === 'bands'
        ? ''
        : ` data-role="${mark.role}"${mark.tag === null ? '' : ` data-mark="${mark.tag}"`}`;
    switch (mark.type) {
      case 'rects': {
        const { rects } = mark;
        let d = '';
        for (let i = 0; i < rects.length; i += 4) {
          const [x, y, width, height] = [rects[i]!, rects[i + 1]!, rects[i + 2]!, rects[i + 3]!];
          // Absolute corners, so each is rounded once, as the canvas places it.
          d += `M${num(x)} ${num(y)}H${num(x + width)}V${num(y + height)}H${num(x)}z`;
        }
        parts.push(`<path d="${d}" ${paint('fill', colors.roles[mark.role], mark.alpha)}${tag}/>`);
        break;
      }
      case 'polygon':
        parts.push(
          `<path d="${pointsPath(mark.points, 0, mark.points.length / 2, true)}" ${paint('fill', colors.roles[mark.role], 1)}${tag}/>`,
        );
        break;
      case 'polyline':
        parts.push(
          `<path d="${pointsPath(mark.points, 0, mark.points.length / 2, false)}" fill="none" ${paint('stroke', colors.roles[mark.role], 1)} stroke-width="${mark.lineWidth}" stroke-linejoin="round"${tag}/>`,
        );
        break;
      case 'lines': {
        const { lines } = mark;
        let d = '';
        for (let i = 0; i < lines.length; i += 4)
          d += `M${num(lines[i]!)} ${num(lines[i + 1]!)}L${num(lines[i + 2]!)} ${num(lines[i + 3]!)}`;
        const dash = mark.dash === null ? '' : ` stroke-dasharray="${mark.dash.join(' ')}"`;
        parts.push(
          `<path d="${d}" fill="none" ${paint('stroke', colors.roles[mark.role], 1)} stroke-width="${mark.lineWidth}"${dash}${tag}/>`,
        );
        break;
      }
      case 'text': {
        const halo =
          mark.haloRole === null
            ? ''
            : ` ${paint('stroke', colors.roles[mark.haloRole], 1)} stroke-width="3" stroke-linejoin="round" paint-order="stroke"`;
        const texts = mark.items
          .map(
            (item) => `<text x="${num(item.x)}" y="${num(item.y)}">${escapeXml(item.text)}</text>`,
          )
          .join('');
        parts.push(
          `<g class="scene-text" font-size="${mark.sizePx}"${mark.bold === true ? ' font-weight="bold"' : ''} ${paint('fill', colors.roles[mark.role], 1)}${halo}${tag}>${texts}</g>`,
        );
        break;
      }
      case 'bands':
        parts.push(bandsMarkup(mark, colors));
        break;
    }
  }
  return parts.join('\n');
}

/** Each band a path: its fill, its hatch after it where drawn hatched, its edge last. */
function bandsMarkup<Role extends string>(
  mark: BandsMark<Role>,
  colors: SvgSceneColors<Role>,
): string {
  const { starts, points } = mark;
  const edge = `${paint('stroke', colors.roles[mark.edgeRole], 1)} stroke-width="${num2(mark.edgeWidth)}"`;
  const parts: string[] = [];
  for (let band = 0; band + 1 < starts.length; band++) {
    const d = pointsPath(points, starts[band]!, starts[band + 1]!, true);
    const dimmed = mark.dimmed?.[band] === 1 ? ` opacity="${mark.dimAlpha}"` : '';
    const edged = mark.edged[band] === 1;
    const hatched = mark.hatched[band] === 1;
    const fill = `fill="${colors.bandColor?.(mark.colors[band]!) ?? 'none'}"`;
    const tag = ` data-mark="${hatched ? mark.hatchedTag : mark.tag}"`;
    if (!hatched) {
      parts.push(`<path d="${d}" ${fill}${edged ? ` ${edge}` : ''}${dimmed}${tag}/>`);
      continue;
    }
    parts.push(`<path d="${d}" ${fill}${dimmed}${tag}/>`);
    parts.push(
      `<path class="no-stack-hatch" d="${d}" fill="${colors.hatchFill ?? 'none'}"${edged ? ` ${edge}` : ''}${dimmed}/>`,
    );
  }
  return `<g class="bands">${parts.join('')}</g>`;
}

/** fill or stroke attributes of a role's paint at `alpha` on top of its own opacity. */
function paint(kind: 'fill' | 'stroke', value: Paint | string, alpha: number): string {
  const color = typeof value === 'string' ? value : value.color;
  const opacity = (typeof value === 'string' ? 1 : value.opacity) * alpha;
  return opacity >= 1
    ? `${kind}="${color}"`
    : `${kind}="${color}" ${kind}-opacity="${Math.round(opacity * 1000) / 1000}"`;
}

/** A width that may be under a tenth of a pixel (a hairline at a high pixel ratio). */
function num2(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/**
 * Points first .. end - 1 (x, y each) as path data: H or V where only one coordinate changes,
 * runs along one level or upright line as one command, points that repeat the last left out.
 */
export function pointsPath(
  points: Float64Array,
  first: number,
  end: number,
  close: boolean,
): string {
  if (end <= first) return '';
  let x = num(points[first * 2]!);
  let y = num(points[first * 2 + 1]!);
  const parts = [`M${x} ${y}`];
  let last: 'H' | 'V' | 'L' | 'M' = 'M';
  let lastDirection = 0;
  for (let i = first + 1; i < end; i++) {
    const nextX = num(points[i * 2]!);
    const nextY = num(points[i * 2 + 1]!);
    if (nextX === x && nextY === y) continue;
    const command = nextY === y ? 'H' : nextX === x ? 'V' : 'L';
    const part =
      command === 'H' ? `H${nextX}` : command === 'V' ? `V${nextY}` : `L${nextX} ${nextY}`;
    // Along the same line in the same direction: the run's end replaces its middle points.
    const onward =
      command === last &&
      command !== 'L' &&
      (command === 'H'
        ? Math.sign(Number(nextX) - Number(x)) === lastDirection
        : Math.sign(Number(nextY) - Number(y)) === lastDirection);
    if (onward) parts[parts.length - 1] = part;
    else parts.push(part);
    lastDirection =
      command === 'H' ? Math.sign(Number(nextX) - Number(x)) : Math.sign(Number(nextY) - Number(y));
    last = command;
    x = nextX;
    y = nextY;
  }
  return close ? `${parts.join('')}Z` : parts.join('');
}
