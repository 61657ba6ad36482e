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
import { palette } from '../../src/shared/render/palette';
import { renderTimelineSvg } from '../../src/shared/render/timeline-svg';
import { timelineSvgColors } from '../../src/shared/render/timeline-svg-bands';
import { renderTheme } from '../../src/shared/render/render-theme';
import { stepsOf } from '../../src/shared/steps/find-steps';
import { phasesOf } from '../../src/shared/steps/phases';
import { drawTimeline, HatchPatterns } from '../../src/renderer/timeline/timeline-draw';
import { plotScene } from '../../src/renderer/timeline/timeline-pictures';
import { layoutPlot, timelineData } from '../../src/renderer/timeline/timeline-plot';
import { timelineTheme } from '../../src/renderer/timeline/timeline-theme';
import { analyzeBytes, analyzeFile } from '../support/analyzed';
import { realSnapshotPath } from '../support/real-snapshots';
import { merged, pathShapes, recordingContext, shape, svgOps, type Op } from '../support/scene-ops';

/** The hatch tile needs a DOM canvas; without one the canvas draws no hatch (the SVG's is skipped). */
beforeAll(() => {
  (globalThis as { document?: unknown }).document = {
    createElement: () => ({ getContext: () => null }),
  };
});
afterAll(() => {
  delete (globalThis as { document?: unknown }).document;
});

/** The page's drawing of the plot the export has, as operations. */
function pageOps(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  size: [number, number],
): { ops: Op[]; hatched: number } {
  const device = snapshot.devices[deviceIndex]!;
  const mode = deviceTimesUsable(device) ? 'time' : 'event';
  const data = timelineData(snapshot, device, mode);
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
    steps: device.traceLength > 0 ? stepsOf(snapshot, device).steps : [],
    phases: device.traceLength > 0 ? phasesOf(snapshot, device).phases : [],
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
  drawTimeline(context, canvasSize, scene, theme, new HatchPatterns());
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

async function compare(snapshot: AnalyzedSnapshot): Promise<number> {
  let compared = 0;
  const theme = renderTheme('light');
  for (const deviceIndex of snapshot.devices.keys()) {
    for (const box of BOXES) {
      const svg = renderTimelineSvg(snapshot, deviceIndex, { ...box, xMode: undefined });
      const hexNames = new Map<string, string>();
      const bandIndexes = new Set<number>();
      const device = snapshot.devices[deviceIndex]!;
      const exported0 = /<g class="timeline-scene"[^>]*data-size="([\d.]+) ([\d.]+)"/.exec(svg)!;
      const size: [number, number] = [Number(exported0[1]), Number(exported0[2])];
      const page = pageOps(snapshot, deviceIndex, size);
      for (const op of page.ops) {
        const band = /^fill band (-?\d+)/.exec(op.style);
        if (band !== null) bandIndexes.add(Number(band[1]));
      }
      const colors = timelineSvgColors(theme);
      for (const index of bandIndexes) hexNames.set(colors.bandColor!(index), `band ${index}`);
      const exported = svgOps(
        svg,
        'timeline-scene',
        colors.roles,
        (hex) => hexNames.get(hex) ?? `unknown ${hex}`,
      );
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
    const snapshot = await analyzeFile(realSnapshotPath(prefix));
    expect(await compare(snapshot)).toBeGreaterThan(0);
  });

  it('a generated training run with steps and phases', async () => {
    const snapshot = await generatedRun();
    const device = snapshot.devices[0]!;
    expect(stepsOf(snapshot, device).steps.length).toBeGreaterThan(1);
    expect(phasesOf(snapshot, device).phases.length).toBeGreaterThan(2);
    expect(await compare(snapshot)).toBeGreaterThan(0);
    // The phase bands in the export lie over the phases' events: [x of the first event, x of the
    // one after the last), computed here from the axis alone.
    const width = 1240;
    const svg = renderTimelineSvg(snapshot, 0, { width, height: 420 });
    const size = /data-size="([\d.]+) ([\d.]+)"/.exec(svg)!;
    const plotWidth = Number(size[1]);
    const plotHeight = Number(size[2]);
    const axis = createEventAxis(device, deviceTimesUsable(device) ? 'time' : 'event');
    const [x0, x1] = [axis.toX(axis.minEvent), axis.toX(axis.maxEvent)];
    const xOf = (event: number): number => ((axis.toX(event) - x0) / (x1 - x0)) * plotWidth;
    const drawn: string[] = [];
    for (const path of svg.matchAll(/<path d="([^"]*)"[^>]*data-role="phase-(\w+)"/g))
      for (const rect of pathShapes(path[1]!)) drawn.push(`${path[2]} ${rect}`);
    const expected = phasesOf(snapshot, device).phases.map((phase) => {
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
