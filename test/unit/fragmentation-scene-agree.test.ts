// The fragmentation chart's plot is laid out once (src/shared/chart/fragmentation-scene.ts) and
// drawn by two backends: the page's canvas (src/renderer/fragmentation/fragmentation-draw.ts
// through canvas/canvas-scene.ts) and the exports' SVG (src/shared/render/fragmentation-svg.ts
// through svg-scene.ts). On real snapshots, for the plot box the export has, both draw the same
// marks: the same shapes in the same order, roles, opacities, line widths and dashes.

import { describe, expect, it } from 'vitest';
import { deviceTimesUsable } from '../../src/shared/analyzed/device-times';
import { createEventAxis } from '../../src/shared/chart/event-axis';
import { visibleDomain } from '../../src/shared/chart/fragmentation-layout';
import { palette } from '../../src/shared/render/palette';
import { renderFragmentationSvg } from '../../src/shared/render/fragmentation-svg';
import { allocatorStateIndexOf } from '../../src/shared/state/allocator-state';
import { fragmentationExportMoments } from '../../src/shared/chart/fragmentation-sampling';
import { fragmentationSeries } from '../../src/shared/state/fragmentation-series';
import { smallHoleThreshold } from '../../src/shared/state/memory-figures';
import { drawFragmentation } from '../../src/renderer/fragmentation/fragmentation-draw';
import { fragmentationPlot } from '../../src/renderer/fragmentation/fragmentation-chart';
import { fragmentationTheme } from '../../src/renderer/fragmentation/fragmentation-theme';
import { analyzeFile } from '../support/analyzed';
import { realSnapshotPath } from '../support/real-snapshots';
import { merged, recordingContext, svgOps } from '../support/scene-ops';

// Few events, an OOM on a second device, a long trace.
const SNAPSHOTS = ['a0kuma', 'Constructor-Sun', 'LINYUN'];
const BOXES = [
  { width: 1240, height: 300 },
  { width: 1880, height: 520 },
];

describe('the fragmentation picture: page canvas and exported SVG draw one scene', () => {
  it.each(SNAPSHOTS)('%s', async (prefix) => {
    const snapshot = await analyzeFile(realSnapshotPath(prefix));
    let compared = 0;
    for (const [deviceIndex, device] of snapshot.devices.entries()) {
      if (device.traceLength === 0) continue;
      const series = fragmentationSeries(
        allocatorStateIndexOf(snapshot, device),
        fragmentationExportMoments(device, null, null),
        smallHoleThreshold(device),
      );
      for (const box of BOXES) {
        const svg = renderFragmentationSvg(snapshot, deviceIndex, series, box);
        const size = /<g class="fragmentation-scene"[^>]*data-size="([\d.]+) ([\d.]+)"/.exec(svg)!;
        const canvasSize = {
          width: Number(size[1]),
          height: Number(size[2]),
          devicePixelRatio: 2,
        };
        const mode = deviceTimesUsable(device) ? 'time' : 'event';
        const axis = createEventAxis(device, mode);
        const plot = fragmentationPlot(
          { device, mode, series, windowSeries: null, moment: -1, momentFigures: null },
          axis,
          visibleDomain(axis, null),
          canvasSize,
        );
        const theme = fragmentationTheme(palette('light'));
        const names = new Map<string, string>();
        for (const [role, color] of Object.entries(theme.roles))
          if (!names.has(color)) names.set(color, role);
        const context = recordingContext((style) => names.get(style) ?? `unknown ${style}`);
        drawFragmentation(context, plot, theme);
        const exported = svgOps(svg, 'fragmentation-scene', svgRoles(), () => 'none');
        const page = merged(context.ops);
        const picture = merged(exported.ops);
        expect(picture.map((op) => op.style)).toEqual(page.map((op) => op.style));
        page.forEach((op, i) => expect(picture[i]!.shapes, op.style).toEqual(op.shapes));
        expect(page.map((op) => op.style)).toEqual(
          expect.arrayContaining(['fill cachedFill 1', 'fill smallFill 1']),
        );
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });
});

/** The palette entries of the scene's roles (what the SVG writes, opacity included). */
function svgRoles(): Record<string, { color: string; opacity: number } | string> {
  const { fragmentation: frag, timeline } = palette('light');
  return {
    grid: timeline.grid,
    cached: frag.cached,
    cachedFill: frag.cachedFill,
    largest: frag.largest,
    waste: frag.waste,
    small: frag.small,
    smallFill: frag.smallFill,
    peak: timeline.peakActive,
    oom: timeline.oom,
    moment: timeline.moment,
  };
}
