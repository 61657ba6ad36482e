// The OOM picture (the request against the largest free block of each group) is laid out once
// (src/shared/oom/oom-holes-scene.ts) and drawn by two backends: the page's OOM view
// (src/renderer/oom/oom-holes-draw.ts through canvas/canvas-scene.ts) and the exported SVG
// (src/shared/render/oom-svg.ts through svg-scene.ts). On real snapshots with and without an OOM,
// at the width the export has, both draw the same marks in the same order: the same bars,
// outlines, request line and words, in the same palette roles.

import { describe, expect, it } from 'vitest';
import { deviceExplanationsOf } from '../../src/shared/oom/oom-explainer';
import { layoutOomHoles, oomHoleRowsOfState } from '../../src/shared/oom/oom-holes-scene';
import { oomHolesPaints } from '../../src/shared/render/oom-holes-paints';
import { renderOomSvg } from '../../src/shared/render/oom-svg';
import { OOM_HOLES_SCENE_CLASS } from '../../src/shared/render/oom-svg-holes';
import { palette } from '../../src/shared/render/palette';
import { allocatorStateIndexOf } from '../../src/shared/state/allocator-state';
import { drawOomHoles } from '../../src/renderer/oom/oom-holes-draw';
import { oomHolesTheme } from '../../src/renderer/oom/oom-holes-theme';
import { analyzeFile } from '../support/analyzed';
import { realSnapshotPath } from '../support/real-snapshots';
import { merged, recordingContext, svgOps } from '../support/scene-ops';

// An OOM on a second device, none at all (the what-if at the peak), a real CUDA OOM.
const SNAPSHOTS = [
  realSnapshotPath('Constructor-Sun'),
  realSnapshotPath('a0kuma'),
  'test/fixtures/cuda-h200/oom.pickle',
];
const WIDTHS = [1180, 1888, 560];

describe('the OOM picture: page canvas and exported SVG draw one scene', () => {
  it.each(SNAPSHOTS)('%s', async (path) => {
    const snapshot = await analyzeFile(path);
    let compared = 0;
    let withRequest = 0;
    for (const [deviceIndex, device] of snapshot.devices.entries()) {
      if (device.traceLength === 0) continue;
      const index = allocatorStateIndexOf(snapshot, device);
      const { ooms, peak } = deviceExplanationsOf(snapshot, deviceIndex, index);
      for (const explanation of ooms.length > 0 ? ooms.slice(0, 2) : [peak!]) {
        const state = index.stateAt(explanation.event);
        for (const exportWidth of WIDTHS) {
          const svg = renderOomSvg(snapshot, deviceIndex, explanation, state, {
            width: exportWidth,
          });
          const size = new RegExp(
            `<g class="${OOM_HOLES_SCENE_CLASS}"[^>]*data-size="([\\d.]+) ([\\d.]+)"`,
          ).exec(svg)!;
          const width = Number(size[1]);
          // The page's rows come from the state index, as the view reads it.
          const rows = oomHoleRowsOfState(snapshot, device, explanation, state);
          const picture = layoutOomHoles(explanation, rows, width);
          expect(picture.scene.height).toBe(Number(size[2]));

          const theme = oomHolesTheme(palette('light'));
          const names = new Map<string, string>();
          for (const [role, color] of Object.entries(theme.roles))
            if (!names.has(color)) names.set(color, role);
          const context = recordingContext((style) => names.get(style) ?? `unknown ${style}`);
          drawOomHoles(context, picture, theme);
          const exported = svgOps(
            svg,
            OOM_HOLES_SCENE_CLASS,
            oomHolesPaints(palette('light')),
            () => 'none',
          );
          const page = merged(context.ops);
          const drawn = merged(exported.ops);
          expect(drawn.map((op) => op.style)).toEqual(page.map((op) => op.style));
          page.forEach((op, i) => expect(drawn[i]!.shapes, op.style).toEqual(op.shapes));

          // What the picture says, checked against the explanation itself.
          const words = page.filter((op) => op.style.startsWith('text')).flatMap((op) => op.shapes);
          expect(words.some((word) => word.startsWith('→ '))).toBe(true);
          expect(page.some((op) => op.style.startsWith('fill largest'))).toBe(true);
          expect(page.some((op) => op.style.startsWith('fill cachedFree'))).toBe(true);
          if (explanation.roundedRequestBytes !== null) {
            expect(page.some((op) => op.style.startsWith('stroke request 1 1 4 3'))).toBe(true);
            // The request's bar: as long, against the scale, as the rounded request.
            const bar = page.find((op) => op.style.startsWith('fill request'))!.shapes[0]!;
            const xs = bar.split(' ').map((point) => Number(point.split(',')[0]));
            const barWidth = Math.max(...xs) - Math.min(...xs);
            const full = (explanation.roundedRequestBytes / picture.scaleMax) * barWidthOf(width);
            expect(Math.abs(barWidth - Math.max(1, full))).toBeLessThanOrEqual(0.2);
            withRequest++;
          }
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(0);
    if (!path.includes('a0kuma')) expect(withRequest).toBeGreaterThan(0);
  });
});

/** The bars' length at the scale's end, from the layout's rule (label and value columns). */
function barWidthOf(width: number): number {
  const label = Math.round(Math.min(360, Math.max(150, width * 0.3)));
  const value = Math.round(Math.min(300, Math.max(150, width * 0.24)));
  return Math.max(40, width - label - value);
}
