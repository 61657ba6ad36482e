/// <reference lib="dom" />
// The laptop screen (issue 21): at 1280×720, 1366×768 and 1440×900, with an OOM banner and a
// warning shown and no divider touched, the timeline's plot keeps 240 px and every lower view 260
// px of content (eight table rows, the flame graph and the segments chart 200 px); the moment
// readout is never cut; the allocation panel never covers the chart or the export buttons; the
// lower view takes the whole page and back; one warning unfolds to its text; seven bad files give
// five notices and "2 more"; the Ranks page leaves no snapshot's tab selected; a search that
// matches nothing says so.

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

/** Real, three devices, an OOM on device 1 (opens there): 111 allocations alive at the OOM. */
const MULTI_GPU = realSnapshotPath('Constructor-Sun');
/** Real, small, annotated. */
const ADAM = realSnapshotPath('a0kuma');

const LAPTOPS = [
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];
const PLOT_MIN_PX = 240;
const LOWER_CONTENT_MIN_PX = 260;
const CHART_MIN_PX = 200;
const MiB = 1 << 20;

/**
 * A generated snapshot with both notices: one warning (a segment its blocks do not cover to the
 * end) and a final OOM.
 */
function oomWithWarning(): Uint8Array {
  return tinySnapshot((snapshot) => {
    const segment = (snapshot['segments'] as Record<string, unknown>[])[0]!;
    segment['total_size'] = (segment['total_size'] as number) + 512;
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
  directory = await mkdtemp(join(tmpdir(), 'allocscope-laptop-'));
});
test.afterAll(async () => {
  if (directory !== '') await rm(directory, { recursive: true, force: true });
});

async function writeTestFile(name: string, bytes: Uint8Array | string): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, bytes);
  return path;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found, 'the element is laid out').not.toBeNull();
  return found!;
}

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Rows of `table` wholly inside both the window and the lower view's area. */
async function rowsShown(page: Page, rows: Locator): Promise<number> {
  const area = await box(page.locator('.lower-area'));
  const viewport = page.viewportSize()!;
  const bottom = Math.min(area.y + area.height, viewport.height);
  const boxes = await rows.evaluateAll((elements) =>
    elements.map((element) => {
      const rect = element.getBoundingClientRect();
      return { top: rect.top, bottom: rect.bottom };
    }),
  );
  return boxes.filter((row) => row.top >= area.y && row.bottom <= bottom + 0.5).length;
}

async function showView(page: Page, view: string): Promise<void> {
  await page.getByTestId(`view-tab-${view}`).click();
  await expect(page.locator('.lower-area')).toHaveAttribute('data-view', view);
}

/** The moment readout shows all it shows: nothing cut, its title the whole text. */
async function expectReadoutWhole(page: Page): Promise<void> {
  const label = page.getByTestId('moment-label');
  const { scrollWidth, clientWidth } = await label.evaluate((element) => ({
    scrollWidth: element.scrollWidth,
    clientWidth: element.clientWidth,
  }));
  expect(clientWidth).toBeGreaterThan(40);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  expect(await label.getAttribute('title')).toContain(
    `event ${await label.getAttribute('data-moment')}`,
  );
}

for (const viewport of LAPTOPS) {
  test(`${viewport.width}×${viewport.height}, an OOM and a warning: the plot, every lower view, the readout and the exports fit`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    const problems = await watchPageProblems(page);
    const path = await writeTestFile('oom-with-warning.pickle', oomWithWarning());
    const { snapshot } = await decodeFile(path);
    expect(snapshot.warnings.length, 'the generated file has a warning').toBe(1);
    await openSnapshot(page, path);
    await expect(page.getByTestId('oom-notice')).toBeVisible();
    await expect(page.getByTestId('warning-notice')).toBeVisible();

    const canvas = page.getByTestId('timeline-canvas');
    await expect.poll(async () => (await box(canvas)).height).toBeGreaterThanOrEqual(PLOT_MIN_PX);
    // The export bar keeps one line (its buttons on the moment's line).
    const bar = await box(page.locator('.lower-bar'));
    expect(bar.height).toBeLessThanOrEqual(32);
    const exportBox = await box(page.getByTestId('export-bar'));
    expect(exportBox.y + exportBox.height).toBeLessThanOrEqual(bar.y + bar.height + 0.5);
    for (const lower of ['oom', 'largest', 'segments', 'fragmentation', 'holders', 'steps']) {
      await showView(page, lower);
      const area = await box(page.locator('.lower-area'));
      expect(area.height, `${lower}: its content`).toBeGreaterThanOrEqual(LOWER_CONTENT_MIN_PX);
      expect(area.y + area.height).toBeLessThanOrEqual(viewport.height + 0.5);
      await expectReadoutWhole(page);
    }
    // The OOM explainer shows its verdict whole.
    await showView(page, 'oom');
    const verdict = await box(page.getByTestId('oom-verdict'));
    const area = await box(page.locator('.lower-area'));
    expect(verdict.y + verdict.height).toBeLessThanOrEqual(area.y + area.height);
    await page.screenshot({ path: testInfo.outputPath(`oom-warning-${viewport.width}.png`) });
    expect(await problems()).toEqual([]);
  });

  test(`${viewport.width}×${viewport.height}, a real OOM snapshot: eight rows, the flame graph and the segments chart`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await openSnapshot(page, MULTI_GPU);
    await expect(page.getByTestId('oom-notice')).toBeVisible();
    const canvas = page.getByTestId('timeline-canvas');
    await expect.poll(async () => (await box(canvas)).height).toBeGreaterThanOrEqual(PLOT_MIN_PX);

    await showView(page, 'largest');
    await expect
      .poll(() => rowsShown(page, page.getByTestId('largest-row')))
      .toBeGreaterThanOrEqual(8);
    await showView(page, 'holders');
    await expect
      .poll(() => rowsShown(page, page.getByTestId('holders-table').locator('tbody tr')))
      .toBeGreaterThanOrEqual(8);
    const flame = await box(page.getByTestId('flame-graph'));
    expect(flame.height).toBeGreaterThanOrEqual(CHART_MIN_PX);
    await showView(page, 'segments');
    await expect
      .poll(async () => (await box(page.getByTestId('segments-canvas'))).height)
      .toBeGreaterThanOrEqual(CHART_MIN_PX);
    await expectReadoutWhole(page);
    await page.screenshot({ path: testInfo.outputPath(`real-oom-${viewport.width}.png`) });
  });
}

test('1280×720: the allocation panel takes the lower view’s side at once, never over the chart or the exports', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const problems = await watchPageProblems(page);
  await openSnapshot(page, MULTI_GPU);
  await showView(page, 'largest');
  const canvas = page.getByTestId('timeline-canvas');
  const before = await box(canvas);

  // The largest allocation: the table's first row.
  await page.getByTestId('largest-row').first().click();
  const panel = page.getByTestId('allocation-panel');
  await expect(panel).toBeVisible();
  await expect(page.getByTestId('snapshot-body')).toHaveAttribute('data-panel', 'docked');
  const panelBox = await box(panel);
  expect(intersects(panelBox, await box(canvas))).toBe(false);
  expect(intersects(panelBox, await box(page.getByTestId('export-bar')))).toBe(false);
  // The chart did not move or narrow; the table keeps six rows and more beside the panel.
  expect(await box(canvas)).toEqual(before);
  await expect
    .poll(() => rowsShown(page, page.getByTestId('largest-row')))
    .toBeGreaterThanOrEqual(6);
  await page.screenshot({ path: testInfo.outputPath('panel-from-row.png') });

  // Opened from the timeline (the largest band), the same.
  await page.keyboard.press('Escape');
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toHaveAttribute('data-largest-band', /^\d+,\d+$/);
  const [x, y] = (await timeline.getAttribute('data-largest-band'))!.split(',').map(Number);
  await page.mouse.click(before.x + x!, before.y + y!);
  await expect(panel).toBeVisible();
  expect(intersects(await box(panel), await box(canvas))).toBe(false);
  expect(await box(canvas)).toEqual(before);
  await expect
    .poll(() => rowsShown(page, page.getByTestId('largest-row')))
    .toBeGreaterThanOrEqual(6);
  await page.screenshot({ path: testInfo.outputPath('panel-from-timeline.png') });
  expect(await problems()).toEqual([]);
});

test('M and the button give the lower view the whole page and back, remembered', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openSnapshot(page, ADAM);
  const area = page.locator('.lower-area');
  const normal = (await box(area)).height;
  await page.locator('body').press('m');
  await expect(page.getByTestId('snapshot-body')).toHaveAttribute('data-full-page', 'true');
  await expect(page.getByTestId('timeline-canvas')).toBeHidden();
  await expect.poll(async () => (await box(area)).height).toBeGreaterThan(normal + 250);
  // Remembered across a reload.
  await openSnapshot(page, ADAM);
  await expect(page.getByTestId('snapshot-body')).toHaveAttribute('data-full-page', 'true');
  await page.getByTestId('full-page').click();
  await expect(page.getByTestId('snapshot-body')).toHaveAttribute('data-full-page', 'false');
  await expect(page.getByTestId('timeline-canvas')).toBeVisible();
  await expect.poll(async () => (await box(area)).height).toBeCloseTo(normal, 0);
});

test('one warning unfolds to its text', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const path = await writeTestFile('oom-with-warning.pickle', oomWithWarning());
  const { snapshot } = await decodeFile(path);
  await openSnapshot(page, path);
  const warning = page.getByTestId('warning-notice');
  await warning.getByTestId('notice-toggle').click();
  await expect(warning).toHaveAttribute('data-unfolded', 'true');
  await expect(warning).toContainText(snapshot.warnings[0]!);
  await expect(warning.locator('.notice-message')).toBeVisible();
});

test('seven files that are no snapshots give five notices and "2 more notices"', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  const paths = [];
  for (let i = 1; i <= 7; i++)
    paths.push(await writeTestFile(`bad-${i}.pickle`, `plain text ${i}, not a snapshot\n`));
  await page.getByTestId('file-input').setInputFiles(paths);
  const strip = page.getByTestId('failure-notices');
  await expect(strip).toHaveAttribute('data-count', '7', { timeout: 30_000 });
  await expect(strip.getByTestId('error-notice').filter({ visible: true })).toHaveCount(5);
  await expect(strip.getByTestId('notices-more')).toHaveText(/^2 more notices/);
  await strip.getByTestId('notices-more').click();
  await expect(strip.getByTestId('error-notice').filter({ visible: true })).toHaveCount(7);
});

test('the Ranks page leaves no snapshot’s tab selected', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openSnapshot(page, ADAM);
  await page.getByTestId('file-input').setInputFiles(MULTI_GPU);
  await expect(page.getByTestId('tab')).toHaveCount(2);
  await expect(page.getByTestId('ranks-open')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('ranks-open').click();
  await expect(page.locator('[data-testid="tab"][aria-selected="true"]')).toHaveCount(0);
  // Picking a tab selects it (and leaves the Ranks page).
  await page.getByTestId('tab').first().click();
  await expect(page.locator('[data-testid="tab"][aria-selected="true"]')).toHaveCount(1);
});

test('a search that matches nothing says so, not that nothing is alive', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openSnapshot(page, MULTI_GPU);
  await showView(page, 'holders');
  await page.getByTestId('holders-search').fill('no-frame-is-called-this');
  await expect(page.getByTestId('holders-empty')).toHaveText(
    /^Nothing alive here matches the search \(111 allocations are alive\)\.$/,
  );
  await expect(page.getByTestId('holders-view')).not.toContainText('Nothing is alive');
});
