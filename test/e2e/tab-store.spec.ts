// One store per tab (src/renderer/state/tab-store.ts): what the user did on a snapshot's page
// survives switching to another tab and back; and every lower view of the registry exports its
// own picture (PNG and SVG) with a title that names the file, the device and the moment.

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import { realSnapshotPath } from '../support/real-snapshots';
import { assertChromiumInstalled } from './chromium';
import { openSnapshot } from './snapshot-pages';
import { watchPageProblems } from './page-problems';

test.use({ viewport: { width: 1280, height: 720 } });

test.beforeAll(() => {
  assertChromiumInstalled();
});

test('a search in Who holds it, a zoomed flame node and the timeline’s zoom survive another tab', async ({
  page,
}) => {
  const problems = await watchPageProblems(page);
  const first = realSnapshotPath('LINYUN');
  await openSnapshot(page, first);
  await page.keyboard.press('5');
  const flame = page.getByTestId('flame-graph');
  await expect(flame).toBeVisible();
  // A search that keeps some of the memory: the name of the first frame under the root.
  const child = flame.locator('.flame-node[data-depth="1"]').first();
  const childName = ((await child.textContent()) ?? '').trim();
  expect(childName).not.toBe('');
  await page.getByTestId('holders-search').fill(childName);
  await expect(page.getByTestId('holders-search-result')).toBeVisible();
  // Zoom into the first node under the root of the searched graph.
  await flame.locator('.flame-node[data-depth="1"]').first().click();
  await expect(flame.locator('.flame-crumbs button')).toHaveCount(2);
  const crumbs = await flame.locator('.flame-crumbs button').allTextContents();
  const result = page.getByTestId('holders-search-result');
  const bytes = await result.getAttribute('data-bytes');
  const count = await result.getAttribute('data-count');
  // The timeline zoomed in with its key.
  const timeline = page.getByTestId('timeline');
  await timeline.focus();
  const wholeDomain = await timeline.getAttribute('data-x-domain');
  await page.keyboard.press('w');
  await expect(timeline).not.toHaveAttribute('data-x-domain', wholeDomain ?? '');
  // The window reaches the store once a frame: wait until the range the export uses is there.
  await page.waitForTimeout(200);
  const zoomedDomain = (await timeline.getAttribute('data-x-domain')) ?? '';

  // Another file, in a tab of its own, then back.
  await page.getByTestId('file-input').setInputFiles(realSnapshotPath('a0kuma'));
  const tabs = page.getByTestId('tab');
  await expect(tabs).toHaveCount(2);
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('snapshot-page')).toHaveAttribute(
    'aria-label',
    basename(realSnapshotPath('a0kuma')),
  );
  await tabs.nth(0).click();
  await expect(page.getByTestId('snapshot-page')).toHaveAttribute('aria-label', basename(first));

  // All of it is as it was: the view, the search, the node, what they keep, the window.
  await expect(page.getByTestId('holders-view')).toBeVisible();
  await expect(page.getByTestId('holders-search')).toHaveValue(childName);
  await expect(flame.locator('.flame-crumbs button')).toHaveText(crumbs);
  await expect(result).toHaveAttribute('data-bytes', bytes ?? '');
  await expect(result).toHaveAttribute('data-count', count ?? '');
  await expect(timeline).toHaveAttribute('data-search-curve', 'drawn');
  await expect(timeline).toHaveAttribute('data-x-domain', zoomedDomain);
  expect(await problems()).toEqual([]);
});

/** Clicks an export button and returns the file the browser was handed. */
async function download(page: Page, testId: string): Promise<{ file: Download; bytes: Buffer }> {
  const started = page.waitForEvent('download');
  await page.getByTestId(testId).click();
  const file = await started;
  const bytes = await readFile(await file.path());
  await expect(page.getByTestId('export-notice')).toHaveAttribute('data-state', 'saved');
  return { file, bytes };
}

/** The views whose picture is about one moment (Steps and Compare draw the whole trace). */
const VIEWS = [
  { id: 'largest', picture: 'timeline', moment: true },
  { id: 'segments', picture: 'segments', moment: true },
  { id: 'fragmentation', picture: 'fragmentation', moment: true },
  { id: 'oom', picture: 'oom', moment: true },
  { id: 'holders', picture: 'flame', moment: true },
  { id: 'steps', picture: 'steps', moment: false },
  { id: 'compare', picture: 'compare', moment: false },
] as const;

test('each lower view exports its own PNG and SVG, titled with the file, device and moment', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const problems = await watchPageProblems(page);
  // Real, three devices, an OOM on cuda:1 (the page opens there, at the OOM).
  const path = realSnapshotPath('Constructor-Sun');
  const fileName = basename(path);
  const base = fileName.replace(/\.pickle$/, '');
  await openSnapshot(page, path);
  await expect(page.getByTestId('export-bar')).toBeVisible();
  const moment = Number(await page.getByTestId('moment-label').getAttribute('data-moment'));
  for (const view of VIEWS) {
    await page.getByTestId(`view-tab-${view.id}`).click();
    await expect(page.locator('#lower-view')).toHaveAttribute('data-view', view.id);
    await expect(page.getByTestId('export-what')).toHaveAttribute('data-view', view.picture);
    const svg = await download(page, 'export-svg');
    expect(svg.file.suggestedFilename()).toBe(`${base}.cuda1.${view.picture}.svg`);
    const text = svg.bytes.toString('utf8');
    const title = await page.evaluate((markup) => {
      const document = new DOMParser().parseFromString(markup, 'image/svg+xml');
      if (document.getElementsByTagName('parsererror').length > 0) return null;
      return document.documentElement.querySelector('title')?.textContent ?? '';
    }, text);
    expect(title, view.id).not.toBeNull();
    if (view.id !== 'compare') {
      expect(title, view.id).toContain(fileName);
      expect(title, view.id).toContain('cuda:1');
    }
    if (view.moment)
      expect(title, `${view.id}: ${title}`).toMatch(
        new RegExp(`(event ${moment.toLocaleString('en-US')}|final state)`),
      );
    const png = await download(page, 'export-png');
    expect(png.file.suggestedFilename()).toBe(`${base}.cuda1.${view.picture}.png`);
    expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    // Not blank: a drawn picture compresses far worse than an empty one.
    expect(png.bytes.length, view.id).toBeGreaterThan(5_000);
  }
  expect(await problems()).toEqual([]);
});
