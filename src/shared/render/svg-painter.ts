// The SVG backend of a scene (chart/scene-painter.ts): the marks of one role and style gathered
// into one <path> each (first use first), so a picture of thousands of marks stays a small
// file. The page's canvas backend (src/renderer/canvas/canvas-painter.ts) draws the same marks.

import type { ScenePainter } from '../chart/scene-painter';
import type { Color } from './palette';
import { fillOf, strokeOf } from './render-theme';
import { num } from './svg-markup';

export interface SvgPainter<Role extends string> extends ScenePainter<Role> {
  /** The marks so far as markup, one path per role and style. */
  markup(): string;
}

interface Layer {
  attributes: string;
  d: string;
}

function rectPath(x: number, y: number, width: number, height: number): string {
  return `M${num(x)} ${num(y)}h${num(width)}v${num(height)}h${num(-width)}z`;
}

export function svgPainter<Role extends string>(
  colors: Readonly<Record<Role, Color>>,
): SvgPainter<Role> {
  const layers = new Map<string, Layer>();
  const layer = (key: string, attributes: () => string): Layer => {
    let found = layers.get(key);
    if (found === undefined) {
      found = { attributes: attributes(), d: '' };
      layers.set(key, found);
    }
    return found;
  };
  return {
    fillRect(x, y, width, height, role) {
      if (!(width > 0) || !(height > 0)) return;
      layer(`fill ${role}`, () => `data-role="${role}" ${fillOf(colors[role])}`).d += rectPath(
        x,
        y,
        width,
        height,
      );
    },
    strokeRect(x, y, width, height, role, lineWidth, dash) {
      const dashes = dash === null ? '' : dash.join(' ');
      layer(`stroke ${role} ${lineWidth} ${dashes}`, () => {
        const dashing = dash === null ? '' : ` stroke-dasharray="${dashes}"`;
        return `data-role="${role}" fill="none" ${strokeOf(colors[role])} stroke-width="${lineWidth}"${dashing}`;
      }).d += rectPath(x, y, width, height);
    },
    markup() {
      return [...layers.values()]
        .filter((entry) => entry.d !== '')
        .map((entry) => `<path ${entry.attributes} d="${entry.d}"/>`)
        .join('\n');
    },
  };
}
