/// <reference lib="dom" />
// The timeline with every real snapshot: it draws, its bands answer the pointer, the table and
// the chart share a selection, and zooming moves the window. Expectations come from decoding the
// same file here with the shared code the page runs.

import { basename } from 'node:path';
import { expect, test } from '@playwright/test';
import { allocationsAliveAt } from '../../src/shared/analysis/allocation-table';
import { isFrameworkFrame, topUserFrameId } from '../../src/shared/analysis/user-frame';
import { NO_STACK } from '../../src/shared/snapshot/model';
import { realSnapshotPaths } from '../support/real-snapshots';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';
import { decodeFile, inkedFraction, openSnapshot } from './snapshot-pages';

test.beforeAll(() => {
  assertChromiumInstalled();
});

function parseDomain(text: string | null): [number, number] {
  const [start, end] = (text ?? '').split(',').map(Number);
  return [start!, end!];
}

for (const path of realSnapshotPaths()) {
  const name = basename(path, '.pickle');
  const slug = name.split('_')[0]!;

  test(`timeline: ${name}`, async ({ page }, testInfo) => {
    const { model, view } = await decodeFile(path);
    const problems = await watchPageProblems(page);
    await openSnapshot(page, path);

    const timeline = page.getByTestId('timeline');
    if (view.devices.length === 0) {
      // Nothing to chart: the page says so instead of drawing an empty plot.
      await expect(timeline).toHaveCount(0);
      await page.screenshot({ path: testInfo.outputPath(`timeline-${slug}.png`), fullPage: true });
      expect(await problems()).toEqual([]);
      return;
    }

    // The chart drew.
    await expect(timeline).toHaveAttribute('data-drawn', /^[1-9]/);
    const deviceOrdinal = Number(await timeline.getAttribute('data-device'));
    const device = view.devices.find((candidate) => candidate.device === deviceOrdinal)!;
    // Every mark is in the legend: both peak markers, and "no stack recorded" where such
    // allocations are drawn.
    const legend = page.getByRole('list', { name: 'Legend' });
    await expect(legend).toContainText('reserved peak');
    await expect(legend).toContainText('active peak');
    const unrecorded = device.allocations.stackId.some((stackId) => stackId === NO_STACK);
    await expect(page.getByTestId('legend-no-stack')).toHaveCount(unrecorded ? 1 : 0);
    expect(device).toBeDefined();
    const canvas = page.getByTestId('timeline-canvas');
    expect(await inkedFraction(canvas)).toBeGreaterThan(0.02);
    expect(parseDomain(await timeline.getAttribute('data-x-domain'))).toEqual(
      device.traceLength === 0 ? [-1, 0] : [0, device.traceLength],
    );

    // Hovering the largest band at the active peak shows that allocation and its stack.
    const peak = device.figures.active.peakEventIndex;
    const aliveAtPeak = allocationsAliveAt(device.allocations, peak);
    if (aliveAtPeak.length > 0) {
      const position = await timeline.getAttribute('data-largest-band');
      expect(position).toMatch(/^\d+,\d+$/);
      const [x, y] = position!.split(',').map(Number);
      await canvas.hover({ position: { x: x!, y: y! } });
      const tooltip = page.getByTestId('tooltip');
      await expect(tooltip).toBeVisible();
      await expect(tooltip).toHaveAttribute('data-row', /^\d+$/);
      const row = Number(await tooltip.getAttribute('data-row'));
      const stackId = device.allocations.stackId[row]!;
      const frameId = stackId === NO_STACK ? null : topUserFrameId(model, stackId);
      if (frameId === null) {
        await expect(tooltip).toContainText('no stack recorded');
      } else {
        const topFrame = tooltip.getByTestId('tooltip-frame').first();
        await expect(topFrame).toBeVisible();
        // Where the stack has a frame of the user's own code, that is the one shown first.
        const filename = model.frames.filename[frameId]!;
        if (!isFrameworkFrame(filename, model.frames.name[frameId]!))
          await expect(topFrame).toContainText(model.frames.name[frameId]!);
      }
      await page.mouse.move(0, 0);
      await expect(tooltip).toHaveCount(0);
    }

    // Selecting the first row of the table selects it, highlights it in the chart and opens the panel.
    // (A device with an OOM opens on its OOM explainer; the table is one tab away.)
    if (device.ooms.length > 0) await page.getByTestId('view-tab-largest').click();
    const rows = page.getByTestId('largest-row');
    await expect(rows).toHaveCount(Math.min(100, aliveAtPeak.length));
    if (aliveAtPeak.length > 0) {
      const first = rows.first();
      const row = await first.getAttribute('data-row');
      expect(Number(row)).toBe(aliveAtPeak[0]);
      await first.click();
      await expect(first).toHaveAttribute('aria-selected', 'true');
      await expect(timeline).toHaveAttribute('data-selected-row', row!);
      await expect(timeline).toHaveAttribute('data-selected-drawn', /^(band|outline)$/);
      await expect(page.getByTestId('allocation-panel')).toHaveAttribute('data-row', row!);
    }

    // Wheel zoom narrows the window around the pointer; 0 on the focused chart resets it.
    await page.screenshot({ path: testInfo.outputPath(`timeline-${slug}.png`), fullPage: true });
    if (device.traceLength >= 16) {
      const before = await timeline.getAttribute('data-x-domain');
      const box = (await canvas.boundingBox())!;
      await canvas.hover({ position: { x: box.width / 2, y: box.height / 2 } });
      await page.mouse.wheel(0, -400);
      await expect(timeline).not.toHaveAttribute('data-x-domain', before!);
      const [start, end] = parseDomain(await timeline.getAttribute('data-x-domain'));
      expect(end - start).toBeLessThan(device.traceLength);
      await expect(timeline).toHaveAttribute('data-drawn', /^[1-9]/);
      expect(await inkedFraction(canvas)).toBeGreaterThan(0.02);
      await page.screenshot({ path: testInfo.outputPath(`timeline-${slug}-zoomed.png`) });
      await timeline.focus();
      await page.keyboard.press('0');
      await expect(timeline).toHaveAttribute('data-x-domain', before!);
    }
    expect(await problems()).toEqual([]);
  });
}

test('timeline: panel stack, framework toggle, copy, and the dark theme', async ({
  page,
  context,
}, testInfo) => {
  const path = realSnapshotPaths().find((candidate) => basename(candidate).startsWith('a0kuma'))!;
  const { view } = await decodeFile(path);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const problems = await watchPageProblems(page);
  await openSnapshot(page, path);
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toHaveAttribute('data-largest-band', /^\d+,\d+$/);

  // Clicking the band selects it (the panel opens on it).
  const [x, y] = (await timeline.getAttribute('data-largest-band'))!.split(',').map(Number);
  await page.getByTestId('timeline-canvas').click({ position: { x: x!, y: y! } });
  const panel = page.getByTestId('allocation-panel');
  await expect(panel).toBeVisible();
  const row = Number(await panel.getAttribute('data-row'));
  await expect(timeline).toHaveAttribute('data-selected-drawn', 'band');
  await expect(page.locator(`[data-testid="largest-row"][data-row="${row}"]`)).toHaveAttribute(
    'aria-selected',
    'true',
  );

  const device = view.devices[0]!;
  const stackId = device.allocations.stackId[row]!;
  const frameCount = view.stacks.offsets[stackId + 1]! - view.stacks.offsets[stackId]!;
  const frames = panel.getByTestId('stack-frame');
  await expect(frames).toHaveCount(frameCount);
  await panel.getByTestId('hide-framework').check();
  const userFrames = await frames.count();
  expect(userFrames).toBeLessThan(frameCount);

  await panel.getByTestId('copy-stack').click();
  await expect(panel.getByTestId('copy-stack')).toHaveText('Copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.split('\n')).toHaveLength(userFrames);

  // Clicking empty space above the curves sets the moment: the table lists what was alive then.
  await page.getByTestId('timeline-canvas').click({ position: { x: 10, y: 4 } });
  await expect(page.getByTestId('largest-table')).toContainText('at the selected moment');

  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(timeline).toHaveAttribute('data-drawn', /^[1-9]/);
  await page.screenshot({ path: testInfo.outputPath('timeline-dark.png'), fullPage: true });
  expect(await problems()).toEqual([]);
});

test('timeline: keyboard, drag, the overview brush and the x mode move the window', async ({
  page,
}) => {
  const path = realSnapshotPaths().find((candidate) => basename(candidate).startsWith('kkaitlyn'))!;
  const problems = await watchPageProblems(page);
  await openSnapshot(page, path);
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toHaveAttribute('data-drawn', /^[1-9]/);
  await expect(timeline).toHaveAttribute('data-x-mode', 'time');
  const full = parseDomain(await timeline.getAttribute('data-x-domain'));
  const total = full[1] - full[0];
  const domain = async (): Promise<[number, number]> =>
    parseDomain(await timeline.getAttribute('data-x-domain'));

  // Keyboard: + zooms in about the centre, → pans later, 0 resets.
  await timeline.focus();
  await page.keyboard.press('+');
  await expect.poll(async () => (await domain())[0]).toBeGreaterThan(full[0]);
  const zoomed = await domain();
  expect(zoomed[1]).toBeLessThan(full[1]);
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await domain())[0]).toBeGreaterThan(zoomed[0]);

  // Dragging the plot to the left shows later events.
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  await page.keyboard.press('-');
  await page.keyboard.press('+');
  await page.keyboard.press('ArrowLeft');
  const dragStart = await domain();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await domain())[0]).toBeGreaterThan(dragStart[0]);

  // The shell's x mode switch redraws with events evenly spaced (the window stays).
  await page.getByTestId('x-mode').getByRole('radio', { name: 'Event #' }).click();
  await expect(timeline).toHaveAttribute('data-x-mode', 'event');
  // Brushing 20%..50% of the overview shows about that part of the trace (events, now).
  await timeline.focus();
  await page.keyboard.press('0');
  await expect.poll(domain).toEqual(full);
  const overview = page.locator('.tl-overview-brush');
  const strip = (await overview.boundingBox())!;
  const plotLeft = box.x;
  const y = strip.y + strip.height / 2;
  await page.mouse.move(plotLeft + box.width * 0.2, y);
  await page.mouse.down();
  await page.mouse.move(plotLeft + box.width * 0.5, y, { steps: 5 });
  await page.mouse.up();
  await expect
    .poll(async () => {
      const [start, end] = await domain();
      return [Math.round((start / total) * 10), Math.round((end / total) * 10)];
    })
    .toEqual([2, 5]);

  expect(await problems()).toEqual([]);
});

test('the timeline tooltip says what a click does for the view below it', async ({ page }) => {
  const adam = realSnapshotPaths().find((path) => basename(path).startsWith('a0kuma'))!;
  await openSnapshot(page, adam);
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  // Above the curves: no allocation under the pointer, so the tooltip describes the moment.
  const abovePeak = { x: box.width / 2, y: 6 };
  for (const [tab, hint] of [
    ['largest', /list the allocations alive here/],
    ['segments', /segments at this moment/],
    ['fragmentation', /fragmentation figures at this moment/],
  ] as const) {
    await page.getByTestId(`view-tab-${tab}`).click();
    await canvas.hover({ position: abovePeak });
    await expect(page.getByTestId('timeline-click-hint')).toHaveText(hint);
    await page.mouse.move(0, 0);
  }
});
