/// <reference lib="dom" />
// The timeline with every real snapshot: it draws, its bands answer the pointer, the table and
// the chart share a selection, and zooming moves the window. Expectations come from decoding the
// same file here with the shared code the page runs.

import { basename } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { allocationsAliveAt } from '../../src/shared/analysis/allocation-table';
import { isFrameworkFrame, topUserFrameId } from '../../src/shared/analysis/user-frame';
import { NO_STACK } from '../../src/shared/snapshot/model';
import { bandColoring, coloringLegend } from '../../src/shared/holders/band-coloring';
import { realSnapshotPaths } from '../support/real-snapshots';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';
import { decodeFile, inkedFraction, openSnapshot } from './snapshot-pages';

test.beforeAll(() => {
  assertChromiumInstalled();
});

// Room for the table's rows under the chart: at 1280×720 the chart keeps its 300 px of plot first
// and the views below get a few lines until the divider is dragged (layout.spec.ts).
test.use({ viewport: { width: 1280, height: 900 } });

function parseDomain(text: string | null): [number, number] {
  const [start, end] = (text ?? '').split(',').map(Number);
  return [start!, end!];
}

for (const path of realSnapshotPaths()) {
  const name = basename(path, '.pickle');
  const slug = name.split('_')[0]!;

  test(`timeline: ${name}`, async ({ page }, testInfo) => {
    const { model, snapshot } = await decodeFile(path);
    const problems = await watchPageProblems(page);
    await openSnapshot(page, path);

    const timeline = page.getByTestId('timeline');
    if (snapshot.devices.length === 0) {
      // Nothing to chart: the page says so instead of drawing an empty plot.
      await expect(timeline).toHaveCount(0);
      await page.screenshot({ path: testInfo.outputPath(`timeline-${slug}.png`), fullPage: true });
      expect(await problems()).toEqual([]);
      return;
    }

    // The chart drew.
    await expect(timeline).toHaveAttribute('data-drawn', /^[1-9]/);
    const deviceOrdinal = Number(await timeline.getAttribute('data-device'));
    const device = snapshot.devices.find((candidate) => candidate.device === deviceOrdinal)!;
    // Every mark is in the legend: both peak markers, and "no stack recorded" where such
    // allocations are drawn.
    const legend = page.getByRole('list', { name: 'Legend' });
    // The peak lines are drawn where there is a trace to find the peaks in.
    for (const peak of ['reserved peak', 'active peak']) {
      if (device.traceLength > 0) await expect(legend).toContainText(peak);
      else await expect(legend).not.toContainText(peak);
    }
    const unrecorded = device.allocations.stackId.some((stackId) => stackId === NO_STACK);
    await expect(page.getByTestId('legend-no-stack')).toHaveCount(unrecorded ? 1 : 0);
    // Every kind of mark the canvas drew has its legend entry.
    const drawnMarks = ((await timeline.getAttribute('data-marks')) ?? '').split(' ');
    expect(drawnMarks).toContain('active');
    const legendMarks = await legend
      .locator('li[data-mark]')
      .evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset['mark']));
    for (const mark of drawnMarks) expect(legendMarks, mark).toContain(mark);
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

    // Wheel zoom narrows the window around the pointer; 0 resets it.
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
  const { snapshot } = await decodeFile(path);
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

  const device = snapshot.devices[0]!;
  const stackId = device.allocations.stackId[row]!;
  const frameCount = snapshot.stacks.offsets[stackId + 1]! - snapshot.stacks.offsets[stackId]!;
  // Framework frames start folded; "show framework frames" lists them all.
  const frames = panel.getByTestId('stack-frame');
  await expect(panel.getByTestId('stack-fold').first()).toBeVisible();
  expect(await frames.count()).toBeLessThan(frameCount);
  await panel.getByTestId('show-framework').check();
  await expect(frames).toHaveCount(frameCount);

  // "Copy stack" copies every frame, one a line.
  await panel.getByTestId('copy-stack').click();
  await expect(panel.getByTestId('copy-stack')).toHaveText('Copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied.split('\n')).toHaveLength(frameCount);

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

  // Keyboard: + zooms in about the centre, D pans later, 0 resets (← → step the moment).
  await timeline.focus();
  await page.keyboard.press('+');
  await expect.poll(async () => (await domain())[0]).toBeGreaterThan(full[0]);
  const zoomed = await domain();
  expect(zoomed[1]).toBeLessThan(full[1]);
  await page.keyboard.press('d');
  await expect.poll(async () => (await domain())[0]).toBeGreaterThan(zoomed[0]);

  // Dragging the plot to the left shows later events.
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  await page.keyboard.press('-');
  await page.keyboard.press('+');
  await page.keyboard.press('a');
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

/** The canvas pixel (r, g, b) at a point of the plot given in CSS pixels. */
async function pixelAt(canvas: ReturnType<Page['getByTestId']>, x: number, y: number) {
  return canvas.evaluate(
    (element, point) => {
      const canvasElement = element as HTMLCanvasElement;
      const ratio = canvasElement.width / canvasElement.getBoundingClientRect().width;
      const context = canvasElement.getContext('2d')!;
      const [r, g, b] = context.getImageData(
        Math.round(point.x * ratio),
        Math.round(point.y * ratio),
        1,
        1,
      ).data;
      return [r!, g!, b!];
    },
    { x, y },
  );
}

const distance = (a: number[], b: number[]): number =>
  Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** An rgb() colour of computed style as [r, g, b]. */
const rgbOf = (css: string): number[] => (css.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);

test('allocations with no recorded stack are named and drawn apart from the merged ones', async ({
  page,
}) => {
  // Most of this full training step's memory was allocated before recording started.
  const path = realSnapshotPaths().find((file) => basename(file).startsWith('LINYUN'))!;
  const { snapshot } = await decodeFile(path);
  expect(snapshot.devices[0]!.allocations.stackId.some((stackId) => stackId === NO_STACK)).toBe(
    true,
  );
  await openSnapshot(page, path);
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toHaveAttribute('data-no-stack-band', /\d+,\d+/);
  await expect(page.getByTestId('legend-no-stack')).toHaveText('no stack recorded');
  const other = page.locator('.tl-legend li[data-mark="other"] .tl-swatch');
  await expect(other.locator('..')).toHaveText('smaller allocations (merged)');
  const mergedColor = rgbOf(
    await other.evaluate((element) => getComputedStyle(element).backgroundColor),
  );
  const swatch = page.getByTestId('legend-no-stack').locator('.tl-swatch');
  const noStackColor = rgbOf(
    await swatch.evaluate((element) => getComputedStyle(element).backgroundColor),
  );
  expect(distance(noStackColor, mergedColor)).toBeGreaterThan(40);
  // On the canvas: a no-stack band's pixels (fill or hatch) are far from the merged grey.
  const [x, y] = ((await timeline.getAttribute('data-no-stack-band')) ?? '').split(',').map(Number);
  const canvas = page.getByTestId('timeline-canvas');
  for (const dx of [0, 1, 2, 3]) {
    expect(distance(await pixelAt(canvas, x! + dx, y!), mergedColor)).toBeGreaterThan(25);
  }
  // The hover names it the same way.
  await canvas.hover({ position: { x: x!, y: y! } });
  await expect(page.getByTestId('tooltip')).toContainText('no stack recorded');
});

test('colour by: stack or allocation, remembered, redraws the bands', async ({ page }) => {
  const path = realSnapshotPaths().find((file) => basename(file).startsWith('Maphsge4'))!;
  await openSnapshot(page, path);
  const timeline = page.getByTestId('timeline');
  const toggle = page.getByTestId('color-by');
  await expect(toggle).toHaveAttribute('data-value', 'stack');
  await expect(timeline).toHaveAttribute('data-largest-band', /\d+,\d+/);
  const canvas = page.getByTestId('timeline-canvas');
  const snapshotPixels = () =>
    canvas.evaluate((element) => {
      const canvasElement = element as HTMLCanvasElement;
      const { data } = canvasElement
        .getContext('2d')!
        .getImageData(0, 0, canvasElement.width, canvasElement.height);
      return Array.from(data.filter((_, i) => i % 4 !== 3 && i % 64 < 4));
    });
  const byStack = await snapshotPixels();
  const drawn = Number(await timeline.getAttribute('data-drawn'));
  await toggle.selectOption('allocation');
  await expect(toggle).toHaveAttribute('data-value', 'allocation');
  await expect(timeline).toHaveAttribute('data-drawn', String(drawn + 1));
  const byAllocation = await snapshotPixels();
  const changed = byStack.filter((value, i) => value !== byAllocation[i]).length;
  expect(changed / byStack.length).toBeGreaterThan(0.01);
  await expect(page.getByRole('list', { name: 'Legend' })).toContainText(
    'allocations (colour = allocation)',
  );
  // Remembered: a page opened later colours by allocation from the start.
  await openSnapshot(page, path);
  await expect(page.getByTestId('color-by')).toHaveAttribute('data-value', 'allocation');
  await expect(page.getByTestId('timeline')).toHaveAttribute('data-color-by', 'allocation');
});

test('colour by a grouping: the legend names its groups and the bands take their colours', async ({
  page,
}) => {
  const path = realSnapshotPaths().find((file) => basename(file).startsWith('a0kuma'))!;
  const { snapshot } = await decodeFile(path);
  const device = snapshot.devices[0]!;
  await openSnapshot(page, path);
  const timeline = page.getByTestId('timeline');
  const canvas = page.getByTestId('timeline-canvas');
  await expect(page.getByTestId('color-legend')).toHaveCount(0);
  for (const colorBy of ['category', 'frame'] as const) {
    const drawn = Number(await timeline.getAttribute('data-drawn'));
    await page.getByTestId('color-by').selectOption(colorBy);
    await expect(timeline).toHaveAttribute('data-color-by', colorBy);
    await expect
      .poll(async () => Number(await timeline.getAttribute('data-drawn')))
      .toBeGreaterThan(drawn);
    // The legend is the colouring's (the groups and their order are checked against an
    // independent count in test/unit/band-coloring.test.ts).
    const expected = coloringLegend(bandColoring(snapshot, device, colorBy))!;
    const legend = page.getByTestId('color-legend');
    await expect(legend.locator('li')).toHaveCount(expected.length);
    expect(
      await legend.locator('li').evaluateAll((items) => items.map((item) => item.dataset['group'])),
    ).toEqual(expected.map((entry) => entry.name));
    await expect(page.getByRole('list', { name: 'Legend' })).toContainText(
      `allocations (colour = ${bandColoring(snapshot, device, colorBy).name})`,
    );
    // The largest band at the peak is drawn in one of the legend's colours (once the plot has
    // been redrawn at the height the legend's row leaves it).
    const swatches = await legend
      .locator('.tl-swatch')
      .evaluateAll((items) => items.map((item) => getComputedStyle(item).backgroundColor));
    const nearestSwatch = async (): Promise<number> => {
      const [x, y] = (await timeline.getAttribute('data-largest-band'))!.split(',').map(Number);
      const pixel = await pixelAt(canvas, x!, y!);
      return Math.min(...swatches.map((css) => distance(rgbOf(css), pixel)));
    };
    await expect.poll(nearestSwatch, { message: colorBy }).toBeLessThan(6);
  }
  // Back to stack: no colour legend.
  await page.getByTestId('color-by').selectOption('stack');
  await expect(page.getByTestId('color-legend')).toHaveCount(0);
});

test('annotation spans are named in a lane above the plot', async ({ page }) => {
  const path = realSnapshotPaths().find((file) => basename(file).startsWith('LINYUN'))!;
  const { snapshot } = await decodeFile(path);
  const names = snapshot.annotations.map((annotation) => annotation.name);
  expect(names.length).toBeGreaterThan(0);
  await openSnapshot(page, path);
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toHaveAttribute('data-marks', /annotations/);
  await expect(page.locator('.tl-legend li[data-mark="annotations"]')).toBeVisible();
  // The name is drawn on the canvas: the label row under the lane bars holds ink of the
  // annotation text colour where the span is, and not where there is no span.
  const canvas = page.getByTestId('timeline-canvas');
  const textColor = rgbOf(
    await page
      .evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--tl-annotation-text'),
      )
      .then((hex) => {
        const value = Number.parseInt(hex.trim().slice(1), 16);
        return `rgb(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255})`;
      }),
  );
  const labelInk = await canvas.evaluate((element, color) => {
    const canvasElement = element as HTMLCanvasElement;
    const ratio = canvasElement.width / canvasElement.getBoundingClientRect().width;
    const { data, width } = canvasElement
      .getContext('2d')!
      .getImageData(0, Math.round(10 * ratio), canvasElement.width, Math.round(11 * ratio));
    const columns = new Set<number>();
    for (let i = 0; i < data.length; i += 4) {
      const d = Math.hypot(
        data[i]! - color[0]!,
        data[i + 1]! - color[1]!,
        data[i + 2]! - color[2]!,
      );
      if (d < 60 && data[i + 3]! > 200) columns.add(Math.floor(((i / 4) % width) / ratio));
    }
    return [...columns].sort((a, b) => a - b);
  }, textColor);
  expect(labelInk.length).toBeGreaterThan(20);
});
