/// <reference lib="dom" />
// The selected moment drives the segments view and the fragmentation figures; the OOM snapshot
// opens on its OOM. Expectations come from the shared code the page runs, run here on the same
// file.

import { expect, test, type Locator, type Page } from '@playwright/test';
import { createAllocatorStateIndex, BlockKind } from '../../src/shared/state/allocator-state';
import {
  figuresByGroup,
  figuresOfState,
  smallHoleThreshold,
  type MemoryFigures,
} from '../../src/shared/state/memory-figures';
import { formatBytes, formatExactBytes } from '../../src/shared/format/units';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { renderSegmentsSvg } from '../../src/shared/render/segments-svg';
import { groupSegments } from '../../src/shared/chart/segment-order';
import { realSnapshotPath } from '../support/real-snapshots';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';
import { decodeFile, inkedFraction, openSnapshot } from './snapshot-pages';

test.beforeAll(() => {
  assertChromiumInstalled();
});

// Room for the views under the chart: at 1280×720 the chart keeps its 300 px of plot first and
// the views below get a few lines until the divider is dragged (layout.spec.ts).
test.use({ viewport: { width: 1280, height: 900 } });

/** What the page must show at a moment, computed here with the shared code. */
function expectedAt(snapshot: AnalyzedSnapshot, device: AnalyzedDevice, moment: number) {
  const index = createAllocatorStateIndex(device, snapshot.allocatorSettings);
  const state = index.stateAt(moment);
  const threshold = smallHoleThreshold(device);
  return {
    state,
    figures: figuresOfState(state, threshold),
    groups: figuresByGroup(state, threshold),
  };
}

async function expectSegmentsFigures(segments: Locator, moment: number, figures: MemoryFigures) {
  await expect(segments).toHaveAttribute('data-moment', String(moment));
  await expect(segments).toHaveAttribute('data-segment-count', String(figures.segmentCount));
  await expect(segments).toHaveAttribute('data-reserved-bytes', String(figures.reservedBytes));
  await expect(segments).toHaveAttribute('data-active-bytes', String(figures.activeBytes));
  await expect(segments).toHaveAttribute('data-free-bytes', String(figures.cachedFreeBytes));
  await expect(segments).toHaveAttribute(
    'data-largest-free-bytes',
    String(figures.largestFreeBytes),
  );
  await expect(segments).toHaveAttribute('data-free-blocks', String(figures.freeBlockCount));
}

async function momentOf(page: Page): Promise<number> {
  return Number(await page.getByTestId('moment-label').getAttribute('data-moment'));
}

test('segments: the view follows the moment, and a block shows its details', async ({
  page,
}, testInfo) => {
  const path = realSnapshotPath('kkaitlyn111');
  const snapshot = (await decodeFile(path)).snapshot;
  const device = snapshot.devices[0]!;
  const problems = await watchPageProblems(page);
  await openSnapshot(page, path);

  // Without an OOM the page starts on the active peak.
  const peak = device.figures.active.peakEventIndex;
  await expect(page.getByTestId('moment-label')).toHaveAttribute('data-moment', String(peak));
  await expect(page.getByTestId('view-tab-largest')).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('view-tab-segments').click();
  const segments = page.getByTestId('segments-view');
  await expect(segments).toBeVisible();
  await expectSegmentsFigures(segments, peak, expectedAt(snapshot, device, peak).figures);
  await expect(segments).toHaveAttribute('data-drawn', /^[1-9]/);
  expect(await inkedFraction(page.getByTestId('segments-canvas'))).toBeGreaterThan(0.01);
  await page.screenshot({ path: testInfo.outputPath('segments-peak.png') });

  // A click on the timeline (empty space above the curves) moves the moment and the view.
  const timelineCanvas = page.getByTestId('timeline-canvas');
  const box = (await timelineCanvas.boundingBox())!;
  await timelineCanvas.click({ position: { x: Math.round(box.width * 0.3), y: 4 } });
  await expect.poll(() => momentOf(page)).not.toBe(peak);
  const clicked = await momentOf(page);
  expect(clicked).toBeGreaterThanOrEqual(0);
  expect(clicked).toBeLessThan(device.traceLength);
  await expect(page.getByTestId('moment-label')).toContainText(
    `event ${formatExactBytes(clicked)}`,
  );
  await expectSegmentsFigures(segments, clicked, expectedAt(snapshot, device, clicked).figures);

  // The keyboard steps it: → one event, Shift+→ 1% of the trace, End and Home the ends.
  await page.getByTestId('moment-label').click();
  await page.keyboard.press('ArrowRight');
  await expect(segments).toHaveAttribute('data-moment', String(clicked + 1));
  await page.keyboard.press('Shift+ArrowRight');
  const step = Math.max(1, Math.round(device.traceLength / 100));
  await expect(segments).toHaveAttribute('data-moment', String(clicked + 1 + step));
  await page.keyboard.press('End');
  await expect(segments).toHaveAttribute('data-moment', String(device.traceLength - 1));
  await page.keyboard.press('Home');
  await expect(segments).toHaveAttribute('data-moment', '-1');
  // Back to the peak with its button; hover the largest block the view points at.
  await page.getByTestId('moment-peak').click();
  await expectSegmentsFigures(segments, peak, expectedAt(snapshot, device, peak).figures);

  const { state } = expectedAt(snapshot, device, peak);
  await expect(segments).toHaveAttribute('data-block-point', /^\d+,\d+$/);
  const [x, y] = (await segments.getAttribute('data-block-point'))!.split(',').map(Number);
  const canvasBox = (await page.getByTestId('segments-canvas').boundingBox())!;
  await page.mouse.move(canvasBox.x + x!, canvasBox.y + y!);
  const tooltip = page.getByTestId('segments-tooltip');
  await expect(tooltip).toBeVisible();
  const block = Number(await tooltip.getAttribute('data-block'));
  expect(block).toBeGreaterThanOrEqual(0);
  expect(block).toBeLessThan(state.blocks.count);
  const address = state.blocks.address[block]!;
  await expect(tooltip).toContainText(`0x${address.toString(16).padStart(12, '0')}`);
  await expect(tooltip).toContainText(formatExactBytes(state.blocks.sizeBytes[block]!));
  await page.screenshot({ path: testInfo.outputPath('segments-hover.png') });

  // Click: the details panel shows the block; an allocation's block is selected on the timeline.
  await page.mouse.click(canvasBox.x + x!, canvasBox.y + y!);
  const details = page.getByTestId('segment-block-details');
  await expect(details).toHaveAttribute('data-block', String(block));
  const kind = state.blocks.kind[block]!;
  if (kind !== BlockKind.free) {
    const row = state.blocks.allocationRow[block]!;
    const size = state.blocks.sizeBytes[block]!;
    const requested = state.blocks.requestedBytes[block]!;
    await expect(details).toHaveAttribute('data-row', String(row));
    await expect(details.getByTestId('block-size')).toHaveAttribute('data-bytes', String(size));
    await expect(details.getByTestId('block-requested')).toHaveAttribute(
      'data-bytes',
      String(requested),
    );
    await expect(details.getByTestId('block-waste')).toHaveAttribute(
      'data-bytes',
      String(size - requested),
    );
    await expect(page.getByTestId('timeline')).toHaveAttribute('data-selected-row', String(row));
    await expect(page.getByTestId('allocation-panel')).toHaveAttribute('data-row', String(row));
  }
  await page.mouse.move(0, 0);
  await expect(tooltip).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('segments-selected.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(segments).toHaveAttribute('data-drawn', /^[1-9]/);
  await page.screenshot({ path: testInfo.outputPath('segments-dark.png') });
  expect(await problems()).toEqual([]);
});

test('segments: a snapshot of many segments draws every one', async ({ page }, testInfo) => {
  const path = realSnapshotPath('LINYUNLinYun');
  const snapshot = (await decodeFile(path)).snapshot;
  const device = snapshot.devices[0]!;
  const problems = await watchPageProblems(page);
  await openSnapshot(page, path);
  await page.getByTestId('view-tab-segments').click();
  const segments = page.getByTestId('segments-view');
  const peak = device.figures.active.peakEventIndex;
  const expected = expectedAt(snapshot, device, peak);
  await expectSegmentsFigures(segments, peak, expected.figures);
  await expect(segments.getByTestId('segments-group')).toHaveCount(expected.groups.length);
  for (const group of expected.groups) {
    const header = segments.locator(
      `[data-testid="segments-group"][data-group="${group.poolIndex}/${group.streamId}/${group.segmentType}"]`,
    );
    await expect(header).toHaveAttribute('data-reserved-bytes', String(group.reservedBytes));
    await expect(header).toHaveAttribute('data-segments', String(group.segmentCount));
  }
  await expect(segments).toHaveAttribute('data-drawn', /^[1-9]/);
  await page.screenshot({ path: testInfo.outputPath('segments-many.png') });
  // Fit: everything in view, no scrolling.
  await segments.getByTestId('segments-scale').getByRole('radio', { name: 'Fit' }).click();
  await expect(segments).toHaveAttribute('data-scale', 'fit');
  expect(await inkedFraction(page.getByTestId('segments-canvas'))).toBeGreaterThan(0.05);
  await page.screenshot({ path: testInfo.outputPath('segments-many-fit.png') });
  expect(await problems()).toEqual([]);
});

test('segments: the OOM snapshot opens on its OOM', async ({ page }, testInfo) => {
  const path = realSnapshotPath('Constructor-Sun');
  const snapshot = (await decodeFile(path)).snapshot;
  const device = snapshot.devices.find((candidate) => candidate.ooms.length > 0)!;
  expect(device).toBeDefined();
  const oom = device.ooms[0]!.eventIndex;
  const problems = await watchPageProblems(page);
  await openSnapshot(page, path);

  // The snapshot opens on the device with the OOM, at the OOM.
  await expect(page.getByTestId('device-select')).toHaveValue(String(device.device));
  await expect(page.getByTestId('oom-notice')).toBeVisible();
  await expect(page.getByTestId('moment-label')).toHaveAttribute('data-moment', String(oom));
  await expect(page.getByTestId('view-tab-oom')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('oom-explainer')).toBeVisible();
  await expect(page.getByTestId('oom-explainer')).toHaveAttribute('data-event', String(oom));
  await expect(page.getByTestId('oom-verdict')).not.toBeEmpty();
  await expect(page.locator('.tl-marker-label.tl-marker-oom')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('oom-open.png') });

  // Elsewhere and back: the notice brings the moment and the explainer back.
  await page.getByTestId('moment-peak').click();
  await page.getByTestId('view-tab-segments').click();
  await page.getByTestId('oom-go').click();
  await expect(page.getByTestId('moment-label')).toHaveAttribute('data-moment', String(oom));
  await expect(page.getByTestId('oom-explainer')).toBeVisible();

  await page.getByTestId('view-tab-segments').click();
  await expectSegmentsFigures(
    page.getByTestId('segments-view'),
    oom,
    expectedAt(snapshot, device, oom).figures,
  );
  await page.screenshot({ path: testInfo.outputPath('oom-segments.png') });
  expect(await problems()).toEqual([]);
});

/** An outline of the exported picture's scene: x, y, width in picture coordinates. */
interface Outline {
  x: number;
  y: number;
  width: number;
}

/** The bars' outlines of an exported segments SVG, top to bottom and left to right. */
function exportedOutlines(svg: string): Outline[] {
  const scene =
    /<g class="segments-scene"[^>]*data-origin="([\d.]+) ([\d.]+)">([\s\S]*?)<\/g>/.exec(svg)!;
  const [originX, originY] = [Number(scene[1]), Number(scene[2])];
  const outlines: Outline[] = [];
  for (const [, d] of scene[3]!.matchAll(/data-role="(?:outline|expandable)"[^>]* d="([^"]*)"/g))
    for (const sub of d!.matchAll(/M(-?[\d.]+) (-?[\d.]+)h(-?[\d.]+)/g))
      outlines.push({
        // The outline lies half a pixel outside the bar, a pixel wider.
        x: Number(sub[1]) - originX + 0.5,
        y: Number(sub[2]) - originY + 0.5,
        width: Number(sub[3]) - 1,
      });
  return outlines.sort((a, b) => a.y - b.y || a.x - b.x);
}

test('segments: the page draws the scene the export draws (segment order, positions)', async ({
  page,
}) => {
  const path = realSnapshotPath('Constructor-Sun');
  const snapshot = (await decodeFile(path)).snapshot;
  const problems = await watchPageProblems(page);
  await openSnapshot(page, path);
  await page.getByTestId('view-tab-segments').click();
  const segments = page.getByTestId('segments-view');
  for (const scale of ['detail', 'fit'] as const) {
    if (scale === 'fit')
      await segments.getByTestId('segments-scale').getByRole('radio', { name: 'Fit' }).click();
    await expect(segments).toHaveAttribute('data-scale', scale);
    await expect(segments).toHaveAttribute('data-scene-pieces', /:/);
    // The box the page laid its picture out for, the state it shows, the bars it drew.
    const read = (name: string) => segments.getAttribute(name).then((value) => value ?? '');
    const deviceName = await page.getByTestId('device-select').inputValue();
    const deviceIndex = snapshot.devices.findIndex((d) => String(d.device) === deviceName);
    const device = snapshot.devices[deviceIndex]!;
    const moment = Number(await read('data-moment'));
    const box = {
      width: Number(await read('data-box-width')),
      height: Number(await read('data-box-height')),
      scale,
    };
    const drawn = (await read('data-scene-pieces')).split(';').map((text) => {
      const [address, position] = text.split(':') as [string, string];
      const [x, y, width] = position.split(',').map(Number) as [number, number, number];
      return { address: Number.parseInt(address, 16), x, y, width };
    });
    expect(drawn.length).toBeGreaterThan(3);

    // The export of that box, made here by the shared code: its bars, in order, are the page's.
    const state = createAllocatorStateIndex(device, snapshot.allocatorSettings).stateAt(moment);
    const svg = renderSegmentsSvg(snapshot, deviceIndex, state, { box });
    const outlines = exportedOutlines(svg).filter((outline) => outline.width >= 1);
    const shown = drawn.filter((piece) => piece.width >= 1);
    expect(outlines.length).toBeGreaterThanOrEqual(shown.length);
    shown.forEach((piece, i) => {
      const outline = outlines[i]!;
      expect(Math.abs(outline.x - piece.x), `bar ${i} x`).toBeLessThanOrEqual(0.11);
      expect(Math.abs(outline.y - piece.y), `bar ${i} y`).toBeLessThanOrEqual(0.11);
      expect(Math.abs(outline.width - piece.width), `bar ${i} width`).toBeLessThanOrEqual(0.11);
    });
    // The page's order is the shared one: groups as every output orders them, then addresses.
    const byAddress = new Map(state.segments.map((segment) => [segment.address, segment]));
    const order = groupSegments(state.segments).flatMap((group) =>
      group.segments.map((s) => state.segments[s]!.address),
    );
    const drawnOrder = drawn
      .map((piece) => piece.address)
      .filter((address, i, all) => i === 0 || all[i - 1] !== address);
    expect(drawnOrder).toEqual(order.slice(0, drawnOrder.length));
    expect(drawnOrder.every((address) => byAddress.has(address))).toBe(true);
  }
  expect(await problems()).toEqual([]);
});

test('fragmentation: curves and figures at the moment and the peak, in exact bytes', async ({
  page,
}, testInfo) => {
  const path = realSnapshotPath('Constructor-Sun');
  const snapshot = (await decodeFile(path)).snapshot;
  // The page opens on the device that ran out of memory.
  const device = snapshot.devices.find((candidate) => candidate.ooms.length > 0)!;
  const problems = await watchPageProblems(page);
  await openSnapshot(page, path);
  await expect(page.getByTestId('device-select')).toHaveValue(String(device.device));
  await page.getByTestId('view-tab-fragmentation').click();
  const panel = page.getByTestId('fragmentation-panel');
  await expect(panel).toHaveAttribute('data-series', 'ready', { timeout: 20_000 });
  await expect(panel).toHaveAttribute('data-drawn', /^[1-9]/);
  expect(await inkedFraction(page.getByTestId('fragmentation-canvas'))).toBeGreaterThan(0.01);

  // Pick a moment on the timeline: the figures follow it; the peak's stay.
  const timelineCanvas = page.getByTestId('timeline-canvas');
  const box = (await timelineCanvas.boundingBox())!;
  await timelineCanvas.click({ position: { x: Math.round(box.width * 0.6), y: 4 } });
  const peak = device.figures.active.peakEventIndex;
  await expect.poll(() => momentOf(page)).not.toBe(peak);
  const moment = await momentOf(page);
  const figures = page.getByTestId('fragmentation-figures');
  await expect(figures).toHaveAttribute('data-moment', String(moment));
  for (const [when, event] of [
    ['moment', moment],
    ['peak', peak],
  ] as const) {
    const expected = expectedAt(snapshot, device, event);
    const bytes: [string, number][] = [
      ['reserved', expected.figures.reservedBytes],
      ['active', expected.figures.activeBytes],
      ['cached-free', expected.figures.cachedFreeBytes],
      ['largest-free', expected.figures.largestFreeBytes],
      ['internal-waste', expected.figures.internalWasteBytes],
    ];
    for (const [metric, value] of bytes) {
      const cell = figures.getByTestId(`frag-${when}-${metric}`);
      await expect(cell).toHaveAttribute('data-bytes', String(value));
      await expect(cell).toHaveAttribute('title', `${formatExactBytes(value)} bytes`);
      await expect(cell).toHaveText(formatBytes(value));
    }
    await expect(figures.getByTestId(`frag-${when}-free-blocks`)).toHaveAttribute(
      'data-count',
      String(expected.figures.freeBlockCount),
    );
    await expect(
      figures.locator(`[data-testid="frag-group-row"][data-when="${when}"]`),
    ).toHaveCount(expected.groups.length);
  }
  // reserved − active at the moment equals the curves'.
  expect(device.reservedBytes[moment]! - device.activeBytes[moment]!).toBeGreaterThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath('fragmentation.png') });
  expect(await problems()).toEqual([]);
});
