// The shared SVG renderers on real snapshots: well-formed standalone documents of the requested
// size, bounded in size whatever the trace, the app's geometry (src/shared/chart, which the app
// uses too), escaped text.

import { readdirSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { once } from '../../../test/support/analyzed';
import { realSnapshotPath } from '../../../test/support/real-snapshots';
import { columnStartEvents, createEventAxis, eventWindow } from '../chart/event-axis';
import { decodeSnapshot } from '../snapshot/decode-snapshot';
import { createAllocatorStateIndex } from '../state/allocator-state';
import { figuresOfState, smallHoleThreshold } from '../state/memory-figures';
import { formatBytes } from '../format/units';
import { buildAnalyzedSnapshot, type AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { renderTheme } from './render-theme';
import { renderSegmentsSvg, segmentsBoxOf } from './segments-svg';
import { escapeXml, num } from './svg-markup';
import { renderTimelineSvg } from './timeline-svg';

const views = new Map<string, AnalyzedSnapshot>();
async function snapshotOf(path: string, fileName = basename(path)): Promise<AnalyzedSnapshot> {
  const key = `${path}\n${fileName}`;
  let snapshot = views.get(key);
  if (snapshot === undefined) {
    const bytes = new Uint8Array(readFileSync(path));
    const model = await decodeSnapshot(once(bytes), { totalBytes: bytes.length });
    snapshot = buildAnalyzedSnapshot(model, { fileName, fileBytes: bytes.length });
    views.set(key, snapshot);
  }
  return snapshot;
}

/**
 * A strict enough XML check for generated documents: one root, tags nest and close, attributes
 * are quoted, text and attribute values hold no raw '<' and only known or numeric entities.
 */
function checkWellFormed(xml: string): { root: string; attributes: Record<string, string> } {
  const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/y;
  const stack: string[] = [];
  let root: { root: string; attributes: Record<string, string> } | null = null;
  let at = 0;
  const checkText = (text: string): void => {
    expect(text).not.toMatch(/</);
    expect(text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, '')).not.toMatch(/&/);
  };
  while (at < xml.length) {
    const next = xml.indexOf('<', at);
    if (next < 0) {
      expect(xml.slice(at).trim()).toBe('');
      break;
    }
    const text = xml.slice(at, next);
    if (stack.length === 0) expect(text.trim()).toBe('');
    else checkText(text);
    tag.lastIndex = next;
    const match = tag.exec(xml);
    expect(match, `bad markup at ${xml.slice(next, next + 80)}`).not.toBeNull();
    const [whole, closing, name, attributeText, selfClosing] = match!;
    for (const value of attributeText!.matchAll(/="([^"]*)"/g)) checkText(value[1]!);
    if (closing === '/') expect(stack.pop()).toBe(name);
    else {
      if (stack.length === 0) {
        expect(root, 'a second root element').toBeNull();
        const attributes: Record<string, string> = {};
        for (const pair of attributeText!.matchAll(/([\w:.-]+)="([^"]*)"/g))
          attributes[pair[1]!] = pair[2]!;
        root = { root: name!, attributes };
      }
      if (selfClosing !== '/') stack.push(name!);
    }
    at = next + whole.length;
  }
  expect(stack).toEqual([]);
  expect(root).not.toBeNull();
  return root!;
}

function expectStandalone(svg: string, width: number, height: number): void {
  const { root, attributes } = checkWellFormed(svg);
  expect(root).toBe('svg');
  expect(attributes).toMatchObject({
    xmlns: 'http://www.w3.org/2000/svg',
    width: String(width),
    height: String(height),
    viewBox: `0 0 ${width} ${height}`,
  });
  // Coordinates are rounded: never more than one decimal, never exponents.
  for (const [, value] of svg.matchAll(/ (?:x|y|width|height|d)="([^"]*)"/g)) {
    expect(value).not.toMatch(/\d\.\d\d/);
    expect(value).not.toMatch(/\de[-+]?\d/);
  }
}

/** The band paths: one per allocation drawn individually. */
function bandPaths(svg: string): string[] {
  const groups = [...svg.matchAll(/<g class="bands"[^>]*>(.*?)<\/g>/g)].map((m) => m[1]!);
  expect(groups).toHaveLength(1);
  return (
    groups
      .join('')
      .match(/<path d="M[^"]*Z" fill="#[0-9a-f]{6}"[^>]*data-mark="(?:bands|no-stack)"\/>/g) ?? []
  );
}

const CONSTRUCTOR_SUN = realSnapshotPath('Constructor-Sun');
const LINYUN = realSnapshotPath('LINYUNLinYun');
const A0KUMA = realSnapshotPath('a0kuma');

describe('svg markup', () => {
  it('escapes text and attribute values and drops characters XML forbids', () => {
    expect(escapeXml(`a&b<c>"d"'e'\u0001`)).toBe('a&amp;b&lt;c&gt;&quot;d&quot;&#39;e&#39;');
  });

  it('writes coordinates with at most one decimal', () => {
    expect([num(1.2345), num(-0.04), num(10), num(1e21 / 1e21), num(Number.NaN)]).toEqual([
      '1.2',
      '0',
      '10',
      '1',
      '0',
    ]);
  });
});

describe('the shared chart geometry on a real device', () => {
  it("splits the whole trace into the pixel columns of the app's window", async () => {
    const snapshot = await snapshotOf(CONSTRUCTOR_SUN);
    const device = snapshot.devices[1]!;
    for (const mode of ['time', 'event'] as const) {
      const axis = createEventAxis(device, mode);
      expect(axis.mode).toBe(mode);
      const window = eventWindow(axis, axis.minX, axis.maxX, 333);
      expect(columnStartEvents(axis, window.startEvent, window.endEvent, 333)).toEqual(
        window.columnStartEvents,
      );
    }
  });
});

describe('renderTimelineSvg', () => {
  it('draws the bands, curves, markers and axes of a device as a standalone document', async () => {
    const snapshot = await snapshotOf(CONSTRUCTOR_SUN);
    const svg = renderTimelineSvg(snapshot, 1, { width: 1200, height: 700 });
    expectStandalone(svg, 1200, 700);
    expect(svg).toContain('cuda:1');
    expect(svg).toMatch(/OOM: 4\.9 GiB requested/);
    expect(svg).toContain(
      `active peak ${formatBytes(snapshot.devices[1]!.figures.active.peakBytes)}`,
    );
    expect(svg).toMatch(/>\d+ GiB</); // byte ticks in binary units
    expect(svg).toMatch(/ s</); // time ticks
    const bands = bandPaths(svg);
    expect(bands.length).toBeGreaterThan(5);
  });

  it('stays small on a long trace and caps the bands', async () => {
    const snapshot = await snapshotOf(LINYUN);
    const svg = renderTimelineSvg(snapshot, 0, { width: 1600, height: 900, xMode: 'event' });
    expectStandalone(svg, 1600, 900);
    const bands = bandPaths(svg);
    expect(bands.length).toBeGreaterThan(100);
    expect(bands.length).toBeLessThanOrEqual(1000);
    expect(svg.length).toBeLessThan(3_000_000);
  });

  it('draws record_function spans where the file has them', async () => {
    const snapshot = await snapshotOf(realSnapshotPath('kkaitlyn111'));
    expect(snapshot.annotations.length).toBeGreaterThan(100);
    for (const xMode of ['time', 'event'] as const) {
      const svg = renderTimelineSvg(snapshot, 0, { width: 900, height: 500, xMode });
      expectStandalone(svg, 900, 500);
      // The lane bars along the top (2 px tall) and the wash, each a path marked as annotations.
      expect(svg).toMatch(
        /<path d="M[^"]*V2H[^"]*"[^>]*data-role="annotationLane" data-mark="annotations"\/>/,
      );
      expect(svg).toContain('data-legend="annotations"');
    }
  });

  it('shows a window and a moment, in either theme, with the file name escaped', async () => {
    const snapshot = await snapshotOf(A0KUMA, 'runs & <tests>.pickle');
    const device = snapshot.devices[0]!;
    const svg = renderTimelineSvg(snapshot, 0, {
      width: 800,
      height: 400,
      startEvent: 5,
      endEvent: 20,
      moment: 12,
      theme: 'dark',
    });
    expectStandalone(svg, 800, 400);
    expect(svg).toContain('runs &amp; &lt;tests&gt;.pickle');
    expect(svg).toContain(`events 5–19 of ${device.traceLength}`);
    expect(svg).toContain('moment: after event 12');
    expect(svg).toContain(`fill="${renderTheme('dark').background}"`);
  });
});

describe('renderSegmentsSvg', () => {
  /** The subpaths of the scene's path of one role (fills: its blocks; strokes: its bars). */
  const rolePath = (svg: string, role: string, stroke = false): string[] => {
    const pattern = new RegExp(
      `<path data-role="${role}" ${stroke ? 'fill="none" ' : 'fill='}[^>]*? d="([^"]*)"`,
    );
    return (pattern.exec(svg)?.[1] ?? '').split('M').filter((part) => part !== '');
  };

  it('draws one outlined bar per segment with the totals of the state', async () => {
    const snapshot = await snapshotOf(CONSTRUCTOR_SUN);
    const device = snapshot.devices[1]!;
    const state = createAllocatorStateIndex(device, snapshot.allocatorSettings).stateAt(421);
    const svg = renderSegmentsSvg(snapshot, 1, state, {
      box: segmentsBoxOf(1000, 600, 'fit'),
      height: 600,
    });
    expectStandalone(svg, 1000, 600);
    // One outline per piece of a bar (a segment wider than a row flows on over the next rows):
    // every segment has one, each piece of a long one adds one.
    const outlined =
      rolePath(svg, 'outline', true).length + rolePath(svg, 'expandable', true).length;
    const longest = Math.max(...state.segments.map((segment) => segment.sizeBytes));
    const smallest = Math.min(...state.segments.map((segment) => segment.sizeBytes));
    expect(outlined).toBeGreaterThanOrEqual(state.segments.length);
    expect(outlined).toBeLessThanOrEqual(state.segments.length + Math.ceil(longest / smallest));
    expect(rolePath(svg, 'largestHole', true)).toHaveLength(1);
    expect(rolePath(svg, 'expandable', true).length).toBeGreaterThan(0);
    expect(svg).toContain('stroke-dasharray="3 2"');
    const figures = figuresOfState(state, smallHoleThreshold(device));
    expect(svg).toContain(`reserved ${formatBytes(figures.reservedBytes)}`);
    expect(svg).toContain(`largest hole ${formatBytes(figures.largestFreeBytes)}`);
    expect(svg).toContain('default pool · default stream · large segments');
  });

  it('fits 1,400 segments into a fixed height at Fit, and grows with them at Detail', async () => {
    const snapshot = await snapshotOf(LINYUN);
    const device = snapshot.devices[0]!;
    const state = createAllocatorStateIndex(device, snapshot.allocatorSettings).stateAt(
      device.traceLength - 1,
    );
    expect(state.segments.length).toBeGreaterThan(1000);
    const fitted = renderSegmentsSvg(snapshot, 0, state, {
      box: segmentsBoxOf(1600, 900, 'fit'),
      height: 900,
    });
    expectStandalone(fitted, 1600, 900);
    expect(fitted).not.toContain('do not fit');
    expect(fitted.length).toBeLessThan(1_000_000);

    const detail = renderSegmentsSvg(snapshot, 0, state, {
      box: { width: 1600, height: 400, scale: 'detail' },
    });
    const height = Number(/height="(\d+(?:\.\d)?)"/.exec(detail)![1]);
    expect(height).toBeGreaterThan(900);
    expectStandalone(detail, 1600, height);
  });

  it('handles a state without segments', async () => {
    const snapshot = await snapshotOf(A0KUMA);
    const svg = renderSegmentsSvg(
      snapshot,
      0,
      {
        device: 0,
        event: -1,
        segments: [],
        blocks: {
          count: 0,
          address: new Float64Array(0),
          sizeBytes: new Float64Array(0),
          requestedBytes: new Float64Array(0),
          kind: new Uint8Array(0),
          allocationRow: new Int32Array(0),
          sizeIsEstimate: new Uint8Array(0),
        },
        outsideSegments: [],
        clippedBlocks: 0,
      },
      { box: { width: 600, height: 300, scale: 'detail' }, theme: 'dark' },
    );
    const height = Number(/height="(\d+)"/.exec(svg)![1]);
    expectStandalone(svg, 600, height);
    expect(svg).toContain('No segments are reserved at this moment.');
  });
});

// The renderers and the chart helpers they share with the app import nothing from the DOM, Node
// or d3: the same code runs in the page and in the CLI.
it('the renderers are pure shared code', () => {
  for (const dir of ['.', '../chart']) {
    const files = readdirSync(resolve(import.meta.dirname, dir)).filter(
      (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
    );
    expect(files.length).toBeGreaterThan(2);
    for (const file of files) {
      const source = readFileSync(resolve(import.meta.dirname, dir, file), 'utf8');
      expect(source, file).not.toMatch(/from 'node:|from 'd3|document\.|window\./);
    }
  }
});
