/// <reference lib="dom" />
// The snapshot page's layout: the chart keeps a usable height on a laptop screen with an OOM and
// a warning shown (each notice on one line, side by side), the dividers resize the panes with the
// mouse and the keyboard and the sizes outlive a reload, opening the allocation panel never moves
// the chart, failures to open a file float without pushing the page down, and the drop overlay
// lets clicks through to the welcome screen. (laptop.spec.ts: every lower view at laptop sizes.)

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { tinySnapshot } from '../support/hostile-files';
import { realSnapshotPath } from '../support/real-snapshots';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';
import { decodeFile, openSnapshot } from './snapshot-pages';

test.beforeAll(() => {
  assertChromiumInstalled();
});

/** Three devices, an OOM on device 1 (opens there). */
const MULTI_GPU = realSnapshotPath('Constructor-Sun');
/** Small, full-featured: annotations, deep stacks. */
const ADAM = realSnapshotPath('a0kuma');

const MiB = 1 << 20;

/**
 * A generated snapshot with both kinds of notice: its blocks overlap (the decoder warns) and its
 * trace ends in an OOM.
 */
function oomWithWarning(): Uint8Array {
  return tinySnapshot((snapshot) => {
    const segment = (snapshot['segments'] as Record<string, unknown>[])[0]!;
    const blocks = segment['blocks'] as Record<string, unknown>[];
    blocks[1]!['address'] = (segment['address'] as number) + MiB / 2;
    (snapshot['device_traces'] as Record<string, unknown>[][])[0]!.push({
      action: 'oom',
      size: 64 * MiB,
      device_free: MiB,
      stream: 0,
      time_us: 1_005,
    });
  });
}

let directory = '';
test.beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'allocscope-layout-'));
});
test.afterAll(async () => {
  if (directory !== '') await rm(directory, { recursive: true, force: true });
});

async function writeTestFile(name: string, bytes: Uint8Array | string): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, bytes);
  return path;
}

async function box(
  locator: Locator,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  expect(found, 'the element is laid out').not.toBeNull();
  return found!;
}

for (const { plotPx, ...viewport } of [
  { width: 1280, height: 720, plotPx: 240 },
  { width: 1920, height: 1080, plotPx: 300 },
]) {
  test(`at ${viewport.width}×${viewport.height} the chart keeps ${plotPx} px beside an OOM and a warning`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const problems = await watchPageProblems(page);
    const path = await writeTestFile('oom-with-warning.pickle', oomWithWarning());
    const { snapshot } = await decodeFile(path);
    expect(snapshot.warnings.length, 'the generated file has a warning').toBeGreaterThan(0);
    expect(snapshot.devices[0]!.ooms.length, 'and an OOM').toBe(1);
    await openSnapshot(page, path);

    const notices = page.getByTestId('page-notices');
    const oom = notices.getByTestId('oom-notice');
    const warning = notices.getByTestId('warning-notice');
    await expect(oom).toBeVisible();
    await expect(warning).toBeVisible();
    await expect(warning).toContainText(snapshot.warnings[0]!);
    // Side by side, one line each: the two notices take one row.
    const [oomBox, warningBox, stripBox] = [await box(oom), await box(warning), await box(notices)];
    expect(Math.abs(oomBox.y - warningBox.y)).toBeLessThan(2);
    expect(stripBox.height).toBeLessThanOrEqual(36);

    const canvas = page.getByTestId('timeline-canvas');
    await expect.poll(async () => (await box(canvas)).height).toBeGreaterThanOrEqual(plotPx);
    await page.screenshot({ path: testInfo.outputPath(`oom-warning-${viewport.width}.png`) });

    // Unfolding the warning shows all of it; folding gives the line back.
    await warning.getByTestId('notice-toggle').click();
    await expect(warning).toHaveAttribute('data-unfolded', 'true');
    await warning.getByTestId('notice-toggle').click();
    await expect(warning).toHaveAttribute('data-unfolded', 'false');
    expect(await problems()).toEqual([]);
  });
}

test('a real OOM snapshot at 1280×720: one notice line, the chart 240 px tall', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openSnapshot(page, MULTI_GPU);
  await expect(page.getByTestId('oom-notice')).toBeVisible();
  const canvas = page.getByTestId('timeline-canvas');
  await expect.poll(async () => (await box(canvas)).height).toBeGreaterThanOrEqual(240);
  // The OOM explainer below still shows its tab bar and the start of its answer.
  await expect(page.getByTestId('view-tab-oom')).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath('multi-gpu-1280.png') });
});

test('the dividers resize the panes by mouse and keyboard, and a reload keeps the sizes', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSnapshot(page, ADAM);
  const separator = page.getByTestId('separator-chart');
  const lower = page.locator('.lower-pane');
  const initialLower = (await box(lower)).height;
  expect(await separator.getAttribute('role')).toBe('separator');

  // Dragging the divider 100 px up: the views below 100 px taller.
  const handle = await box(separator);
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2 - 100, {
    steps: 5,
  });
  await page.mouse.up();
  await expect.poll(async () => (await box(lower)).height).toBeCloseTo(initialLower + 100, -1);
  const dragged = (await box(lower)).height;

  // The keyboard: ↓ moves it down, without stepping the moment.
  const moment = await page.getByTestId('moment-label').getAttribute('data-moment');
  await separator.focus();
  await page.keyboard.press('ArrowDown');
  await expect.poll(async () => (await box(lower)).height).toBeLessThan(dragged - 2);
  await expect(page.getByTestId('moment-label')).toHaveAttribute('data-moment', moment!);
  const chosen = (await box(lower)).height;

  // A reload keeps the size.
  await openSnapshot(page, ADAM);
  await expect
    .poll(async () => (await box(page.locator('.lower-pane'))).height)
    .toBeCloseTo(chosen, -1);

  // Double-click gives the default back, and a reload keeps that.
  const divider = await box(page.getByTestId('separator-chart'));
  await page.mouse.dblclick(divider.x + divider.width / 2, divider.y + divider.height / 2);
  await expect
    .poll(async () => (await box(page.locator('.lower-pane'))).height)
    .toBeCloseTo(initialLower, -1);
  await openSnapshot(page, ADAM);
  await expect
    .poll(async () => (await box(page.locator('.lower-pane'))).height)
    .toBeCloseTo(initialLower, -1);
});

/**
 * Clicks the largest band of the timeline and leaves the pointer there. In this file it is alive
 * from the start to the end: clicked at a quarter of the width.
 */
async function clickLargestBand(page: Page): Promise<{ x: number; y: number }> {
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toHaveAttribute('data-largest-band', /^\d+,\d+$/);
  const [, y] = (await timeline.getAttribute('data-largest-band'))!.split(',').map(Number);
  const canvas = await box(page.getByTestId('timeline-canvas'));
  const point = { x: canvas.x + canvas.width / 4, y: canvas.y + y! };
  await page.mouse.move(point.x, point.y);
  await page.mouse.down();
  await page.mouse.up();
  return point;
}

test('opening the allocation panel never moves the chart: it takes the lower view’s side at once', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems = await watchPageProblems(page);
  await openSnapshot(page, ADAM);
  const body = page.getByTestId('snapshot-body');
  const canvas = page.getByTestId('timeline-canvas');
  await expect(body).toHaveAttribute('data-panel', 'none');
  const before = await box(canvas);
  const view = page.locator('.lower-area');
  const viewBefore = await box(view);

  await clickLargestBand(page);
  const panel = page.getByTestId('allocation-panel');
  await expect(panel).toBeVisible();
  await expect(body).toHaveAttribute('data-panel', 'docked');
  expect(await box(canvas)).toEqual(before);
  const panelBox = await box(panel);
  expect(panelBox.y).toBeGreaterThanOrEqual(before.y + before.height);
  await expect.poll(async () => (await box(view)).width).toBeLessThan(viewBefore.width - 200);
  await page.screenshot({ path: testInfo.outputPath('panel-docked.png') });

  // Closing it from the keyboard: the lower view takes its width back; the chart stays.
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(body).toHaveAttribute('data-panel', 'none');
  await expect.poll(async () => (await box(view)).width).toBe(viewBefore.width);
  expect(await box(canvas)).toEqual(before);

  // The side divider resizes the panel, remembered like the other.
  await clickLargestBand(page);
  const side = page.getByTestId('separator-side');
  const width = (await box(panel)).width;
  await side.focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await box(panel)).width).toBeGreaterThan(width + 2);
  expect(await problems()).toEqual([]);
});

test('failures to open files float on one line each and push no page down', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openSnapshot(page, ADAM);
  const pageTop = (await box(page.getByTestId('snapshot-page'))).y;
  const canvasBefore = await box(page.getByTestId('timeline-canvas'));

  const names = ['first.pickle', 'second.pickle', 'third.pickle'];
  for (const name of names) {
    await page
      .getByTestId('file-input')
      .setInputFiles(await writeTestFile(name, 'plain text, not a snapshot\n'));
    await expect(page.locator(`.notices [data-file-name="${name}"]`)).toHaveCount(1);
  }
  const strip = page.getByTestId('failure-notices');
  // Each on its line (five fit before "N more notices": laptop.spec.ts).
  for (const name of names) await expect(strip.locator(`[data-file-name="${name}"]`)).toBeVisible();
  await expect(strip.getByTestId('notices-more')).toHaveCount(0);
  expect((await box(page.getByTestId('snapshot-page'))).y).toBe(pageTop);
  expect(await box(page.getByTestId('timeline-canvas'))).toEqual(canvasBefore);

  await strip
    .locator('[data-file-name="second.pickle"]')
    .getByRole('button', { name: /Dismiss/ })
    .click();
  await expect(strip.locator('[data-file-name="second.pickle"]')).toHaveCount(0);
});

test('the drop overlay shows only during a drag and lets clicks through to the welcome buttons', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  const overlay = page.getByTestId('drop-overlay');
  await expect(overlay).toHaveCount(0);

  const dataTransfer = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array([0x80, 0x04])], 'dragged.pickle'));
    return transfer;
  });
  await page.dispatchEvent('body', 'dragenter', { dataTransfer });
  await expect(overlay).toBeVisible();
  expect(await overlay.evaluate((element) => getComputedStyle(element).pointerEvents)).toBe('none');

  // Its label stays clear of the buttons, and the point at the centre of each is the button's.
  const label = await box(overlay.locator('.drop-target'));
  for (const button of [
    page.getByRole('button', { name: 'Open snapshot…' }),
    page.getByTestId('open-demo'),
  ]) {
    const place = await box(button);
    expect(label.y + label.height).toBeLessThan(place.y);
    const hit = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? null,
      { x: place.x + place.width / 2, y: place.y + place.height / 2 },
    );
    expect(hit).toBe(await button.textContent());
  }

  // A drag that goes without a drop or a leave (the browser lost it) takes the overlay along.
  await expect(overlay).toHaveCount(0, { timeout: 3_000 });
  await page.dispatchEvent('body', 'dragenter', { dataTransfer });
  await expect(overlay).toBeVisible();
  await page.dispatchEvent('body', 'dragleave', { dataTransfer });
  await expect(overlay).toHaveCount(0);

  // And the demo button still works.
  await page.getByTestId('open-demo').click();
  await expect(page.getByTestId('snapshot-page')).toBeVisible({ timeout: 20_000 });
});
