// The segments picture is laid out once (src/shared/chart/segments-scene.ts) and drawn by two
// backends: the page's canvas (src/renderer/segments/segments-draw.ts through
// canvas/canvas-painter.ts) and the exports' SVG (src/shared/render/segments-svg.ts through
// svg-painter.ts). On real snapshots, for the boxes a laptop's segments view has, both draw the same
// marks: the same rectangles in the same order (so the same segment order and block positions),
// the same roles of the palette, the same line widths and dashes. The canvas is a recording
// context; the SVG is read back from its markup. Pixels are never compared.

import { describe, expect, it } from 'vitest';
import { SEGMENTS_PADDING } from '../../src/shared/chart/segments-scene';
import { allocatorStateIndexOf } from '../../src/shared/state/allocator-state';
import { defaultMoment } from '../../src/shared/analyzed/moments';
import { cssColor, palette } from '../../src/shared/render/palette';
import { fillOf, strokeOf } from '../../src/shared/render/render-theme';
import { renderSegmentsSvg } from '../../src/shared/render/segments-svg';
import { num } from '../../src/shared/render/svg-markup';
import { groupSegments } from '../../src/renderer/segments/segment-groups';
import { drawSegments } from '../../src/renderer/segments/segments-draw';
import { segmentsTheme } from '../../src/renderer/segments/segments-theme';
import { layoutScene, type SegmentsBox } from '../../src/shared/chart/segments-scene';
import type { SegmentsRole } from '../../src/shared/chart/segments-paint';
import { analyzeFile } from '../support/analyzed';
import { realSnapshotPath } from '../support/real-snapshots';

/** One mark as either backend drew it, picture coordinates, numbers as the SVG writes them. */
interface Mark {
  layer: string;
  rect: string;
}

const ROLES: readonly SegmentsRole[] = [
  'allocated',
  'pendingFree',
  'free',
  'outline',
  'expandable',
  'largestHole',
];

/** A 2D context that records the rectangles drawn, in the style they were drawn with. */
function recordingContext(
  colors: Record<SegmentsRole, string>,
): CanvasRenderingContext2D & { marks: Mark[] } {
  const roleOf = (style: string): string =>
    ROLES.find((role) => colors[role] === style) ?? `unknown ${style}`;
  const marks: Mark[] = [];
  let dash: number[] = [];
  const rect = (x: number, y: number, width: number, height: number): string =>
    [x - SEGMENTS_PADDING.left, y - SEGMENTS_PADDING.top, width, height].map(num).join(' ');
  const context = {
    marks,
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    setLineDash(segments: number[]) {
      dash = [...segments];
    },
    fillRect(x: number, y: number, width: number, height: number) {
      marks.push({ layer: `fill ${roleOf(context.fillStyle)}`, rect: rect(x, y, width, height) });
    },
    strokeRect(x: number, y: number, width: number, height: number) {
      marks.push({
        layer: `stroke ${roleOf(context.strokeStyle)} ${context.lineWidth} ${dash.join(' ')}`,
        rect: rect(x, y, width, height),
      });
    },
  };
  return context as unknown as CanvasRenderingContext2D & { marks: Mark[] };
}

/** The marks of the SVG's scene, by layer in the order drawn, moved to picture coordinates. */
function svgMarks(svg: string): { marks: Mark[]; paths: string[] } {
  const scene =
    /<g class="segments-scene"[^>]*data-origin="([\d.]+) ([\d.]+)">([\s\S]*?)<\/g>/.exec(svg);
  expect(scene, 'the SVG has a segments scene').not.toBeNull();
  const [originX, originY] = [Number(scene![1]), Number(scene![2])];
  const marks: Mark[] = [];
  const paths = [...scene![3]!.matchAll(/<path ([^>]*?) d="([^"]*)"\/>/g)];
  for (const [, attributes, d] of paths) {
    const role = /data-role="(\w+)"/.exec(attributes!)![1]!;
    const stroke = attributes!.includes('fill="none"');
    const width = /stroke-width="([\d.]+)"/.exec(attributes!)?.[1] ?? '';
    const dash = /stroke-dasharray="([^"]*)"/.exec(attributes!)?.[1] ?? '';
    const layer = stroke ? `stroke ${role} ${width} ${dash}` : `fill ${role}`;
    for (const sub of d!.matchAll(/M(-?[\d.]+) (-?[\d.]+)h(-?[\d.]+)v(-?[\d.]+)h-?[\d.]+z/g)) {
      const [x, y, w, h] = sub.slice(1, 5).map(Number) as [number, number, number, number];
      marks.push({ layer, rect: [x - originX, y - originY, w, h].map(num).join(' ') });
    }
  }
  return { marks, paths: paths.map((path) => path[1]!) };
}

/** Each layer's marks, in the order drawn (the SVG gathers a layer in one path, in order). */
function byLayer(marks: readonly Mark[]): Map<string, string[]> {
  const layers = new Map<string, string[]>();
  for (const mark of marks) {
    const list = layers.get(mark.layer) ?? [];
    list.push(mark.rect);
    layers.set(mark.layer, list);
  }
  return layers;
}

// Many segments (1,400, most thinner than a pixel at Fit), expandable segments, an OOM, few blocks.
const SNAPSHOTS = ['LINYUN', 'Constructor-Sun', 'Yiyi', 'a0kuma', 'volcengine'];
// The segments view's scroll box on a 1280×720 laptop and on a 1920×1080 screen.
const BOXES: SegmentsBox[] = [
  { width: 1176, height: 260, scale: 'detail' },
  { width: 1176, height: 260, scale: 'fit' },
  { width: 1800, height: 520, scale: 'detail' },
];

describe('the segments picture: page canvas and exported SVG draw one scene', () => {
  it.each(SNAPSHOTS)('%s', async (prefix) => {
    const snapshot = await analyzeFile(realSnapshotPath(prefix));
    let compared = 0;
    for (const [deviceIndex, device] of snapshot.devices.entries()) {
      const state = allocatorStateIndexOf(snapshot, device).stateAt(defaultMoment(device));
      if (state.segments.length === 0) continue;
      for (const box of BOXES) {
        // The page: the view's groups, the chart's layout for its scroll box, every row drawn
        // (a canvas as tall as the picture, not scrolled) at a device pixel ratio of 2.
        const scene = layoutScene(
          state,
          groupSegments(state.segments),
          box.scale,
          box.width,
          box.height,
        );
        const theme = segmentsTheme(palette('light'));
        const context = recordingContext(theme);
        const size = {
          width: box.width,
          height: scene.layout.height + SEGMENTS_PADDING.top,
          devicePixelRatio: 2,
        };
        const drawn = drawSegments(context, scene, theme, size, 0);
        expect(drawn.endRow).toBe(scene.layout.rows.length);

        // The export of the same box.
        const svg = renderSegmentsSvg(snapshot, deviceIndex, state, { box, theme: 'light' });
        const exported = svgMarks(svg);

        const page = byLayer(context.marks);
        const picture = byLayer(exported.marks);
        expect([...picture.keys()].sort()).toEqual([...page.keys()].sort());
        for (const [layer, rects] of page) expect(picture.get(layer), layer).toEqual(rects);
        expect(exported.marks.length).toBe(context.marks.length);

        // Each role in the palette's colour, on screen and in the file alike.
        const colors = palette('light').segments;
        for (const attributes of exported.paths) {
          const role = /data-role="(\w+)"/.exec(attributes)![1] as SegmentsRole;
          const paint = attributes.includes('fill="none"')
            ? strokeOf(colors[role])
            : fillOf(colors[role]);
          expect(attributes).toContain(paint);
          expect(theme[role]).toBe(cssColor(colors[role]));
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });
});
