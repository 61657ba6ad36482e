// The timeline's plot is laid out once (src/shared/chart/timeline-scene.ts) and drawn by two
// backends: the page's canvas (src/renderer/timeline/timeline-draw.ts through
// canvas/canvas-scene.ts) and the exports' SVG (src/shared/render/timeline-svg.ts through
// svg-scene.ts). On real snapshots and a generated training run with steps and phases, for the
// plot box the export has, both draw the same marks: the same shapes in the same order, in the
// same roles of the palette, opacities, line widths and dashes. The canvas is a recording context;
// the SVG is read back from its markup. Pixels are never compared.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import type { AnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { deviceTimesUsable } from '../../src/shared/analyzed/device-times';
import { createEventAxis } from '../../src/shared/chart/event-axis';
import type { TimelineRole } from '../../src/shared/chart/timeline-scene';
import { palette } from '../../src/shared/render/palette';
import { num } from '../../src/shared/render/svg-markup';
import { renderTimelineSvg } from '../../src/shared/render/timeline-svg';
import { timelineSvgColors } from '../../src/shared/render/timeline-svg-bands';
import { renderTheme } from '../../src/shared/render/render-theme';
import { stepsOf } from '../../src/shared/steps/find-steps';
import { phasesOf } from '../../src/shared/steps/phases';
import { drawTimeline } from '../../src/renderer/timeline/timeline-draw';
import { plotScene } from '../../src/renderer/timeline/timeline-pictures';
import { layoutPlot, timelineData } from '../../src/renderer/timeline/timeline-plot';
import { timelineTheme } from '../../src/renderer/timeline/timeline-theme';
import { analyzeBytes, analyzeFile } from '../support/analyzed';
import { realSnapshotPath } from '../support/real-snapshots';

/** One drawing operation: what is painted, how, and its shapes (points as the SVG writes them). */
interface Op {
  style: string;
  shapes: string[];
}

/** The hatch tile needs a DOM canvas; without one the canvas draws no hatch (the SVG's is skipped). */
beforeAll(() => {
  (globalThis as { document?: unknown }).document = {
    createElement: () => ({ getContext: () => null }),
  };
});
afterAll(() => {
  delete (globalThis as { document?: unknown }).document;
});

/**
 * Points of a shape: rounded as the SVG writes them, repeated points and the middle points of a
 * run along one level or upright line in one direction left out (the SVG writes such a run once).
 */
function shape(points: readonly [number, number][]): string {
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
function merged(ops: readonly Op[]): Op[] {
  const out: Op[] = [];
  for (const op of ops) {
    const last = out.at(-1);
    if (last !== undefined && last.style === op.style) last.shapes.push(...op.shapes);
    else out.push({ style: op.style, shapes: [...op.shapes] });
  }
  return out;
}

/** A 2D context that records what is drawn, its colour named by the role (or band) it paints. */
function recordingContext(nameOf: (style: string) => string): CanvasRenderingContext2D & {
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
function pathShapes(d: string): string[] {
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
function svgOps(
  svg: string,
  bandName: (hex: string) => string,
): { ops: Op[]; size: [number, number]; hatched: number } {
  const scene =
    /<g class="timeline-scene"[^>]*data-size="([\d.]+) ([\d.]+)">([\s\S]*?)<\/g><\/g>/.exec(svg);
  expect(scene, 'the SVG has a timeline scene').not.toBeNull();
  const ops: Op[] = [];
  const roleOpacity = (role: string): number => {
    const paint = timelineSvgColors(renderTheme('light')).roles[role as TimelineRole];
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

/** The page's drawing of the plot the export has, as operations. */
function pageOps(
  view: AnalyzedSnapshot,
  deviceIndex: number,
  size: [number, number],
): { ops: Op[]; hatched: number } {
  const device = view.devices[deviceIndex]!;
  const mode = deviceTimesUsable(device) ? 'time' : 'event';
  const data = timelineData(view, device, mode);
  const axis = createEventAxis(device, mode);
  const canvasSize = { width: size[0], height: size[1], devicePixelRatio: 2 };
  const plot = layoutPlot(
    data,
    { x0: axis.toX(axis.minEvent), x1: axis.toX(axis.maxEvent) },
    canvasSize,
  );
  const scene = plotScene(plot, {
    coloring: null,
    highlight: null,
    steps: device.traceLength > 0 ? stepsOf(view, device).steps : [],
    phases: device.traceLength > 0 ? phasesOf(view, device).phases : [],
  });
  const theme = timelineTheme(palette('light'));
  const names = new Map<string, string>();
  for (const [role, color] of Object.entries(theme.roles))
    if (!names.has(color)) names.set(color, role);
  let hatched = 0;
  for (const mark of scene.marks)
    if (mark.type === 'bands') {
      for (const index of mark.colors) names.set(theme.colorOfIndex(index), `band ${index}`);
      for (const flag of mark.hatched) hatched += flag;
    }
  const context = recordingContext((style) => names.get(style) ?? `unknown ${style}`);
  drawTimeline(context, canvasSize, scene, theme);
  return { ops: context.ops, hatched };
}

const MiB = 2 ** 20;
const directory = mkdtempSync(join(tmpdir(), 'allocscope-timeline-scene-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function generatedRun(): Promise<AnalyzedSnapshot> {
  const path = join(directory, 'steps.pickle');
  generateLargeSnapshot(path, 24 * MiB, {
    seed: 7,
    devices: 1,
    maxAnnotations: 0,
    dumpAfterSteps: 4,
  });
  return analyzeBytes(new Uint8Array(readFileSync(path)));
}

// Many allocations and a long trace, an OOM on a second device, record_function spans, few events.
const SNAPSHOTS = ['LINYUN', 'Constructor-Sun', 'kkaitlyn111', 'a0kuma'];
// A 1280×720 laptop's export and a 1920×1080 screen's.
const BOXES = [
  { width: 1240, height: 420 },
  { width: 1880, height: 700 },
];

async function compare(view: AnalyzedSnapshot): Promise<number> {
  let compared = 0;
  const theme = renderTheme('light');
  for (const deviceIndex of view.devices.keys()) {
    for (const box of BOXES) {
      const svg = renderTimelineSvg(view, deviceIndex, { ...box, xMode: undefined });
      const hexNames = new Map<string, string>();
      const bandIndexes = new Set<number>();
      const device = view.devices[deviceIndex]!;
      const exported0 = /<g class="timeline-scene"[^>]*data-size="([\d.]+) ([\d.]+)"/.exec(svg)!;
      const size: [number, number] = [Number(exported0[1]), Number(exported0[2])];
      const page = pageOps(view, deviceIndex, size);
      for (const op of page.ops) {
        const band = /^fill band (-?\d+)/.exec(op.style);
        if (band !== null) bandIndexes.add(Number(band[1]));
      }
      const colors = timelineSvgColors(theme);
      for (const index of bandIndexes) hexNames.set(colors.bandColor(index), `band ${index}`);
      const exported = svgOps(svg, (hex) => hexNames.get(hex) ?? `unknown ${hex}`);
      const pageMerged = merged(page.ops);
      const svgMerged = merged(exported.ops);
      expect(
        svgMerged.map((op) => op.style),
        `${device.device} ${box.width}`,
      ).toEqual(pageMerged.map((op) => op.style));
      pageMerged.forEach((op, i) =>
        expect(svgMerged[i]!.shapes, `${op.style} (#${i})`).toEqual(op.shapes),
      );
      expect(exported.hatched).toBe(page.hatched);
      expect(pageMerged.some((op) => op.style.startsWith('fill band'))).toBe(
        device.allocations.count > 0,
      );
      compared++;
    }
  }
  return compared;
}

describe('the timeline picture: page canvas and exported SVG draw one scene', () => {
  it.each(SNAPSHOTS)('%s', async (prefix) => {
    const view = await analyzeFile(realSnapshotPath(prefix));
    expect(await compare(view)).toBeGreaterThan(0);
  });

  it('a generated training run with steps and phases', async () => {
    const view = await generatedRun();
    const device = view.devices[0]!;
    expect(stepsOf(view, device).steps.length).toBeGreaterThan(1);
    expect(phasesOf(view, device).phases.length).toBeGreaterThan(2);
    expect(await compare(view)).toBeGreaterThan(0);
    // The phase bands in the export lie over the phases' events: [x of the first event, x of the
    // one after the last), computed here from the axis alone.
    const width = 1240;
    const svg = renderTimelineSvg(view, 0, { width, height: 420 });
    const size = /data-size="([\d.]+) ([\d.]+)"/.exec(svg)!;
    const plotWidth = Number(size[1]);
    const plotHeight = Number(size[2]);
    const axis = createEventAxis(device, deviceTimesUsable(device) ? 'time' : 'event');
    const [x0, x1] = [axis.toX(axis.minEvent), axis.toX(axis.maxEvent)];
    const xOf = (event: number): number => ((axis.toX(event) - x0) / (x1 - x0)) * plotWidth;
    const drawn: string[] = [];
    for (const path of svg.matchAll(/<path d="([^"]*)"[^>]*data-role="phase-(\w+)"/g))
      for (const rect of pathShapes(path[1]!)) drawn.push(`${path[2]} ${rect}`);
    const expected = phasesOf(view, device).phases.map((phase) => {
      const left = Math.max(-1, xOf(phase.startEvent));
      const right = Math.min(plotWidth + 1, xOf(phase.endEvent + 1));
      const top = plotHeight - 4 - 1 - 5;
      return `${phase.name} ${shape([
        [left, top],
        [left + Math.max(1, right - left), top],
        [left + Math.max(1, right - left), top + 5],
        [left, top + 5],
      ])}`;
    });
    expect(drawn.sort()).toEqual(expected.sort());
  });
});
