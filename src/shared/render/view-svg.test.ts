// The exported fragmentation chart and OOM explainer on real snapshots: well-formed standalone
// documents (parsed by resvg, a strict XML reader, and drawn at the declared size) that show
// the figures the state and OOM layers compute for the same moment.

import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { analyzeFile } from '../../../test/support/analyzed';
import { realSnapshotPath } from '../../../test/support/real-snapshots';
import type { AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { fragmentationExportMoments } from '../chart/fragmentation-sampling';
import { formatBytes, formatExactBytes } from '../format/units';
import { deviceExplanationsOf } from '../oom/oom-explainer';
import { allocatorStateIndexOf } from '../state/allocator-state';
import { fragmentationSeries } from '../state/fragmentation-series';
import { figuresOfState, smallHoleThreshold } from '../state/memory-figures';
import { FRAGMENTATION_SVG_CLASS, renderFragmentationSvg } from './fragmentation-svg';
import { MAX_HOLE_ROWS } from '../oom/oom-holes-scene';
import { OOM_SVG_CLASS, renderOomSvg } from './oom-svg';
import { escapeXml } from './svg-markup';

const { Resvg } = createRequire(import.meta.url)(
  '@resvg/resvg-js',
) as typeof import('@resvg/resvg-js');

/** Parses and draws the document; throws on markup that is not well-formed XML. */
function drawnSize(svg: string): { width: number; height: number } {
  const image = new Resvg(svg).render();
  return { width: image.width, height: image.height };
}

/** The text of every <text> element, unescaped, in document order. */
function texts(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((match) =>
    match[1]!
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&amp;', '&'),
  );
}

/** The markup of the first <g> with this class (up to its closing tag, no nested groups). */
function group(svg: string, className: string): string {
  const start = svg.indexOf(`<g class="${className}"`);
  expect(start, className).toBeGreaterThanOrEqual(0);
  return svg.slice(start, svg.indexOf('</g>', start));
}

const views = new Map<string, AnalyzedSnapshot>();
async function snapshotOf(prefix: string): Promise<AnalyzedSnapshot> {
  let snapshot = views.get(prefix);
  if (snapshot === undefined) {
    snapshot = await analyzeFile(realSnapshotPath(prefix));
    views.set(prefix, snapshot);
  }
  return snapshot;
}

describe('renderFragmentationSvg', () => {
  it.each([
    ['a0kuma', 0],
    ['Constructor-Sun', 1],
    ['LINYUN', 0],
  ])('%s: the chart at the peak, its figures those of the allocator state', async (prefix, i) => {
    const snapshot = await snapshotOf(prefix);
    const device = snapshot.devices[i]!;
    const moment = device.figures.active.peakEventIndex;
    const index = allocatorStateIndexOf(snapshot, device);
    const threshold = smallHoleThreshold(device);
    const series = fragmentationSeries(
      index,
      fragmentationExportMoments(device, null, moment),
      threshold,
    );
    const svg = renderFragmentationSvg(snapshot, i, series, { width: 1000, height: 600, moment });
    expect(drawnSize(svg)).toEqual({ width: 1000, height: 600 });
    expect(svg).toContain(`<g class="${FRAGMENTATION_SVG_CLASS}">`);
    expect(/<title>([^<]*)<\/title>/.exec(svg)![1]).toContain(
      `cuda:${device.device} · fragmentation`,
    );

    // The figures line, against the state at the moment and the curves.
    const figures = figuresOfState(index.stateAt(moment), threshold);
    const cached = Math.max(0, device.reservedBytes[moment]! - device.activeBytes[moment]!);
    const line = texts(svg).find((text) => text.startsWith('At the moment:'))!;
    expect(line).toContain(`reserved − active ${formatBytes(cached)}`);
    expect(line).toContain(`largest free block ${formatBytes(figures.largestFreeBytes)}`);
    expect(line).toContain(`internal waste ${formatBytes(figures.internalWasteBytes)}`);
    expect(line).toContain(
      `small holes ${((figures.smallFreeBytes / figures.reservedBytes) * 100).toFixed(1)}% of ${formatBytes(figures.reservedBytes)} reserved`,
    );

    // Every curve drawn, one marker label per OOM and the active peak.
    for (const role of ['cachedFill', 'cached', 'largest', 'waste', 'smallFill', 'small'])
      expect(svg).toContain(`data-role="${role}"`);
    const labels = texts(svg);
    expect(labels.filter((text) => text.startsWith('OOM:'))).toHaveLength(device.ooms.length);
    expect(labels).toContain(`active peak ${formatBytes(device.figures.active.peakBytes)}`);
    // The share pane's axis and the legend.
    expect(labels).toEqual(expect.arrayContaining(['0%', '50%', '100%', 'reserved − active']));
  });

  it('follows the timeline’s window and says which events it shows', async () => {
    const snapshot = await snapshotOf('LINYUN');
    const device = snapshot.devices[0]!;
    const window = { startEvent: 1000, endEvent: 3000 };
    const moments = fragmentationExportMoments(device, window, null);
    // The window's own samples (and the one before it), as the app draws a zoomed chart.
    expect(moments[0]).toBe(999);
    expect(moments.at(-1)).toBeLessThan(3000);
    const series = fragmentationSeries(
      allocatorStateIndexOf(snapshot, device),
      moments,
      smallHoleThreshold(device),
    );
    const svg = renderFragmentationSvg(snapshot, 0, series, {
      width: 800,
      height: 400,
      ...window,
      xMode: 'event',
    });
    expect(drawnSize(svg)).toEqual({ width: 800, height: 400 });
    expect(/<title>([^<]*)<\/title>/.exec(svg)![1]).toContain(
      `events 1,000–2,999 of ${formatExactBytes(device.traceLength)}`,
    );
  });
});

describe('renderOomSvg', () => {
  it.each([
    ['Constructor-Sun', 1],
    ['a0kuma', 0],
    ['Yiyi', 0],
  ])(
    '%s: the verdict, figures, holes, holders and segments of the explanation',
    async (prefix, i) => {
      const snapshot = await snapshotOf(prefix);
      const device = snapshot.devices[i]!;
      const index = allocatorStateIndexOf(snapshot, device);
      const { ooms, peak } = deviceExplanationsOf(snapshot, i, index);
      const explanation = ooms[0] ?? peak!;
      const state = index.stateAt(explanation.event);
      const ordinal = ooms.length === 0 ? null : { number: 1, count: ooms.length };
      const svg = renderOomSvg(snapshot, i, explanation, state, { width: 1200 }, ordinal);

      const declared = /<svg[^>]*\sheight="([\d.]+)"/.exec(svg)![1];
      expect(drawnSize(svg)).toEqual({ width: 1200, height: Number(declared) });
      expect(svg).toContain(`<g class="${OOM_SVG_CLASS}">`);
      const title = /<title>([^<]*)<\/title>/.exec(svg)![1]!;
      expect(title).toContain(
        ooms.length === 0 ? 'no OOM in this trace: what if' : 'out of memory',
      );

      // The verdict, word for word (wrapped into lines).
      const verdict = group(svg, 'oom-verdict');
      expect(verdict).toContain(`data-verdict="${explanation.verdict}"`);
      expect(texts(verdict).join(' ')).toBe(explanation.verdictText.replace(/\s+/g, ' '));

      // The figures, in human units and exact bytes.
      const figures = texts(group(svg, 'oom-figures'));
      expect(figures).toContain(formatBytes(explanation.reservedBytes));
      expect(figures.join(' ')).toContain(`${formatExactBytes(explanation.reservedBytes)} B`);
      expect(figures.join(' ')).toContain(`${formatExactBytes(explanation.largestFreeBytes)} B`);
      if (explanation.requestedBytes !== null)
        expect(figures.join(' ')).toContain(`${formatExactBytes(explanation.requestedBytes)} B`);

      // The request's group first, with its largest free block; the request's row and its
      // group's in bold.
      const scene = svg.slice(svg.indexOf('<g class="oom-holes-scene"'));
      const marked = (mark: string): string[] => {
        const at = scene.indexOf(`data-mark="${mark}"`);
        expect(at, mark).toBeGreaterThanOrEqual(0);
        return texts(scene.slice(at, scene.indexOf('</g>', at)));
      };
      const bold = marked('label-request');
      expect(bold.at(-1)!.startsWith('→ ')).toBe(true);
      const values = marked('value');
      const groupRows = values.filter((value) => value.startsWith('largest '));
      expect(groupRows.length).toBeLessThanOrEqual(MAX_HOLE_ROWS);
      expect(groupRows[0]).toContain(`largest ${formatBytes(explanation.poolLargestFreeBytes)}`);
      if (explanation.roundedRequestBytes !== null)
        expect(values[0]).toBe(formatBytes(explanation.roundedRequestBytes));

      // One row per holder: its label and exact bytes.
      const rows = svg.split('<g class="oom-holder">').slice(1);
      expect(rows).toHaveLength(explanation.holders.length);
      explanation.holders.forEach((holder, h) => {
        const row = texts(rows[h]!.slice(0, rows[h]!.indexOf('</g>')));
        if (holder.topFrame !== null) expect(row[0]!).toContain(holder.topFrame.slice(0, 20));
        expect(row).toContain(formatExactBytes(holder.bytes));
        expect(row).toContain(formatExactBytes(holder.count));
      });

      // The segments of that moment, the largest hole outlined when there is one.
      const segments = svg.slice(svg.indexOf('<g class="oom-segments">'));
      expect(segments).toContain(`${state.segments.length} segments`);
      if (figuresOfState(state, 0).largestFreeBytes > 0)
        expect(segments).toContain('data-role="largestHole"');
      expect(svg).not.toContain(escapeXml('undefined'));
      expect(svg).not.toContain('NaN');
    },
  );

  it('fits a fixed height, as the CLI asks for one', async () => {
    const snapshot = await snapshotOf('Yiyi');
    const index = allocatorStateIndexOf(snapshot, snapshot.devices[0]!);
    const { peak } = deviceExplanationsOf(snapshot, 0, index);
    const svg = renderOomSvg(snapshot, 0, peak!, index.stateAt(peak!.event), {
      width: 900,
      height: 700,
    });
    expect(drawnSize(svg)).toEqual({ width: 900, height: 700 });
  });
});
