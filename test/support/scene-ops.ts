// Test support for the pictures drawn from one scene (src/shared/chart/scene-marks.ts) by two
// backends: a 2D context that records what the canvas backend draws, and a reader of what the SVG
// backend wrote, both as operations (style and shapes, points rounded as the SVG writes them), so
// a test holds the page's drawing against the export's, mark by mark. Pixels are never compared.

import { expect } from 'vitest';
import type { Paint } from '../../src/shared/render/palette';
import { num } from '../../src/shared/render/svg-markup';

/** One drawing operation: what is painted, how, and its shapes (points as the SVG writes them). */
export interface Op {
  style: string;
  shapes: string[];
}

/**
 * Points of a shape: rounded as the SVG writes them, repeated points and the middle points of a
 * run along one level or upright line in one direction left out (the SVG writes such a run once).
 */
export function shape(points: readonly [number, number][]): string {
  const out: [number, number][] = [];
  for (const [x, y] of points) {
    const point: [number, number] = [Number(num(x)), Number(num(y))];
    const last = out.at(-1);
    if (last !== undefined && last[0] === point[0] && last[1] === point[1]) continue;
    const before = out.at(-2);
    if (before !== undefined && last !== undefined) {
      const level = before[1] === last[1] && last[1] === point[1];
      const upright = before[0] === last[0] && last[0] === point[0];
      const onward = level
        ? Math.sign(last[0] - before[0]) === Math.sign(point[0] - last[0])
        : upright && Math.sign(last[1] - before[1]) === Math.sign(point[1] - last[1]);
      if (onward) out.pop();
    }
    out.push(point);
  }
  const text = out.map(([x, y]) => `${x},${y}`);
  if (text.length > 1 && text[0] === text.at(-1)) text.pop();
  return text.join(' ');
}

/** Consecutive operations of one style merged (the SVG gathers a batch into one path). */
export function merged(ops: readonly Op[]): Op[] {
  const out: Op[] = [];
  for (const op of ops) {
    const last = out.at(-1);
    if (last !== undefined && last.style === op.style) last.shapes.push(...op.shapes);
    else out.push({ style: op.style, shapes: [...op.shapes] });
  }
  return out;
}

/** A 2D context that records what is drawn, its colour named by the role (or band) it paints. */
export function recordingContext(nameOf: (style: string) => string): CanvasRenderingContext2D & {
  ops: Op[];
} {
  const ops: Op[] = [];
  let paths: [number, number][][] = [];
  let dash: number[] = [];
  const context = {
    ops,
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    globalAlpha: 1,
    font: '',
    textBaseline: '',
    textAlign: '',
    lineJoin: '',
    save() {},
    restore() {},
    clip() {},
    rect() {},
    setLineDash(segments: number[]) {
      dash = [...segments];
    },
    beginPath() {
      paths = [];
    },
    moveTo(x: number, y: number) {
      paths.push([[x, y]]);
    },
    lineTo(x: number, y: number) {
      paths.at(-1)!.push([x, y]);
    },
    closePath() {},
    fill() {
      ops.push({
        style: `fill ${nameOf(context.fillStyle)} ${context.globalAlpha}`,
        shapes: paths.map(shape),
      });
    },
    stroke() {
      ops.push({
        style: `stroke ${nameOf(context.strokeStyle)} ${context.globalAlpha} ${context.lineWidth} ${dash.join(' ')}`,
        shapes: paths.map((path) => shape(path)),
      });
    },
    fillRect(x: number, y: number, width: number, height: number) {
      ops.push({
        style: `fill ${nameOf(context.fillStyle)} ${context.globalAlpha}`,
        shapes: [
          shape([
            [x, y],
            [x + width, y],
            [x + width, y + height],
            [x, y + height],
          ]),
        ],
      });
    },
    strokeText() {},
    fillText(text: string, x: number, y: number) {
      ops.push({
        style: `text ${nameOf(context.fillStyle)}`,
        shapes: [`${text}@${num(x)},${num(y)}`],
      });
    },
  };
  return context as unknown as CanvasRenderingContext2D & { ops: Op[] };
}

/** Points of SVG path data (M, L, H, V, h, v, z), one list per subpath. */
export function pathShapes(d: string): string[] {
  const shapes: string[] = [];
  let points: [number, number][] = [];
  let x = 0;
  let y = 0;
  for (const [, command, args] of d.matchAll(/([MLHVhvZz])([^MLHVhvZz]*)/g)) {
    const values = args!.trim() === '' ? [] : args!.trim().split(/[ ,]+/).map(Number);
    if (command === 'M') {
      if (points.length > 0) shapes.push(shape(points));
      [x, y] = values as [number, number];
      points = [[x, y]];
      continue;
    }
    if (command === 'L') [x, y] = values as [number, number];
    else if (command === 'H') x = values[0]!;
    else if (command === 'V') y = values[0]!;
    else if (command === 'h') x += values[0]!;
    else if (command === 'v') y += values[0]!;
    else continue; // z: closed, as every filled shape is
    points.push([x, y]);
  }
  if (points.length > 0) shapes.push(shape(points));
  return shapes;
}

/** The operations of the SVG's scene, in plot coordinates. */
export function svgOps(
  svg: string,
  sceneClass: string,
  roles: Readonly<Record<string, Paint | string>>,
  bandName: (hex: string) => string,
): { ops: Op[]; size: [number, number]; hatched: number } {
  const scene = new RegExp(
    `<g class="${sceneClass}"[^>]*data-size="([\\d.]+) ([\\d.]+)">([\\s\\S]*?)</g></g>`,
  ).exec(svg);
  expect(scene, `the SVG has a ${sceneClass}`).not.toBeNull();
  const ops: Op[] = [];
  const roleOpacity = (role: string): number => {
    const paint = roles[role]!;
    return typeof paint === 'string' ? 1 : paint.opacity;
  };
  let hatched = 0;
  for (const element of scene![3]!.matchAll(
    /<path ([^>]*?)\/>|<g class="scene-text"([^>]*)>([\s\S]*?)<\/g>/g,
  )) {
    if (element[2] !== undefined) {
      const role = /data-role="([\w-]+)"/.exec(element[2])![1]!;
      for (const text of element[3]!.matchAll(/<text x="([-\d.]+)" y="([-\d.]+)">([^<]*)<\/text>/g))
        ops.push({
          style: `text ${role}`,
          shapes: [`${unescape(text[3]!)}@${text[1]},${text[2]}`],
        });
      continue;
    }
    const attributes = element[1]!;
    // The hatch over a band with no stack (the recording canvas draws none), then its edge.
    const hatch = attributes.includes('class="no-stack-hatch"');
    if (hatch) hatched++;
    const d = /d="([^"]*)"/.exec(attributes)![1]!;
    const role = /data-role="([\w-]+)"/.exec(attributes)?.[1];
    const fill = hatch ? 'none' : /fill="(#[0-9a-f]{6}|none)"/.exec(attributes)![1]!;
    const dimmed = Number(/ opacity="([\d.]+)"/.exec(attributes)?.[1] ?? 1);
    const name = role ?? bandName(fill);
    const paintOpacity = role === undefined ? 1 : roleOpacity(role);
    if (fill !== 'none') {
      const opacity = Number(/fill-opacity="([\d.]+)"/.exec(attributes)?.[1] ?? 1);
      const alpha = role === undefined ? dimmed : opacity / paintOpacity;
      ops.push({ style: `fill ${name} ${round(alpha)}`, shapes: pathShapes(d) });
    }
    const width = /stroke-width="([\d.]+)"/.exec(attributes)?.[1];
    if (width !== undefined) {
      const strokeRole = role ?? 'bandSeparator';
      const dash = /stroke-dasharray="([^"]*)"/.exec(attributes)?.[1] ?? '';
      ops.push({
        style: `stroke ${strokeRole} ${dimmed} ${Number(width)} ${dash}`,
        shapes: pathShapes(d),
      });
    }
  }
  return { ops, size: [Number(scene![1]), Number(scene![2])], hatched };
}

function unescape(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
