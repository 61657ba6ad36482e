/// <reference lib="dom" />
// PyTorch's memory timelines (export_memory_timeline, recorded with real PyTorch 2.13:
// test/fixtures/profiler) in the web build at 1280x720: a timeline alone opens on its categories
// (the timeline coloured by category, Who holds it by category over time) with the bytes at the
// peak by PyTorch's category, the CLI's figures; the views that need segments say a timeline has
// none. A trace and its timeline chosen together open as one tab whose allocations have
// PyTorch's categories; a timeline of another run is refused, naming it.

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';
import { inkedFraction } from './snapshot-pages';

const DIR = resolve('test/fixtures/profiler');
const CLI = resolve('out/cli/allocscope.js');

test.use({ viewport: { width: 1280, height: 720 } });
test.beforeAll(() => assertChromiumInstalled());

interface CategoryRow {
  category: string;
  bytes: number;
}

function categoriesAtPeak(args: string[]): CategoryRow[] {
  const summary = JSON.parse(
    execFileSync(process.execPath, [CLI, 'summary', ...args, '--json'], { encoding: 'utf8' }),
  ) as { devices: { categories_at_peak: CategoryRow[] }[] };
  return summary.devices[0]!.categories_at_peak;
}

test('a memory timeline alone: its categories over time and the bytes at the peak', async ({
  page,
}) => {
  const problems = await watchPageProblems(page);
  const path = resolve(DIR, 'dataloader.memory-timeline.json');
  const expected = categoriesAtPeak([path]).filter((row) => row.bytes > 0);
  expect(expected.map((row) => row.category)).toEqual([
    'PARAMETER',
    'INPUT',
    'ACTIVATION',
    'GRADIENT',
  ]);

  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('file-input').setInputFiles(path);
  await expect(page.getByTestId('snapshot-page')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('snapshot-page')).toContainText('PyTorch memory timeline');

  const line = page.getByTestId('categories-at-peak');
  await expect(line).toBeVisible();
  const items = line.locator('[data-category]');
  await expect(items).toHaveCount(expected.length);
  for (const [i, row] of expected.entries()) {
    await expect(items.nth(i)).toHaveAttribute('data-category', row.category);
    await expect(items.nth(i)).toHaveAttribute('data-bytes', String(row.bytes));
  }
  await expect(line).toContainText('INPUT 74.3 KiB (76,032 B)');

  // Opens on the categories: Who holds it by category, over time; the timeline drawn.
  await expect(page.getByTestId('view-tab-holders')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('holders-group-by')).toHaveValue('category');
  await expect(page.getByTestId('holders-categories').locator('svg')).toBeVisible();
  await expect.poll(() => inkedFraction(page.getByTestId('timeline-canvas'))).toBeGreaterThan(0.05);
  await page.screenshot({ path: 'test-results/memory-timeline-1280.png' });

  // Segments: a timeline records none, and says so.
  await page.keyboard.press('2');
  await expect(page.getByTestId('segments-not-recorded')).toContainText(
    'A PyTorch memory timeline does not record segments',
  );
  expect(await problems()).toEqual([]);
});

test('a trace and its timeline chosen together: one tab, its allocations categorised', async ({
  page,
}) => {
  const problems = await watchPageProblems(page);
  const trace = resolve(DIR, 'leak.pt.trace.json.gz');
  const timeline = resolve(DIR, 'leak.memory-timeline.raw.json.gz');
  const expected = categoriesAtPeak([trace, '--memory-timeline', timeline]).filter(
    (row) => row.bytes > 0,
  );
  expect(expected.find((row) => row.category === 'unknown')?.bytes).toBe(6 * 1_048_576);

  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('file-input').setInputFiles([trace, timeline]);
  await expect(page.getByTestId('snapshot-page')).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('tab')).toHaveCount(1);
  await expect(page.getByTestId('tab-name')).toContainText('leak.pt.trace.json.gz');

  const items = page.getByTestId('categories-at-peak').locator('[data-category]');
  await expect(items).toHaveCount(expected.length);
  for (const [i, row] of expected.entries()) {
    await expect(items.nth(i)).toHaveAttribute('data-bytes', String(row.bytes));
  }
  // Who holds it, by category: the 6 MiB the script keeps are PyTorch's unknown.
  await page.keyboard.press('5');
  await expect(page.getByTestId('view-tab-holders')).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('holders-group-by').selectOption('category');
  const unknown = page.getByTestId('holders-table').locator('tbody tr', { hasText: 'unknown' });
  await expect(unknown).toHaveAttribute('data-bytes', String(6 * 1_048_576));
  await page.screenshot({ path: 'test-results/trace-with-timeline-1280.png' });
  expect(await problems()).toEqual([]);
});

test('a timeline of another run beside a trace is refused, naming the timeline', async ({
  page,
}) => {
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await page
    .getByTestId('file-input')
    .setInputFiles([
      resolve(DIR, 'clean.pt.trace.json.gz'),
      resolve(DIR, 'leak.memory-timeline.json'),
    ]);
  const notice = page.getByTestId('error-notice');
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(notice).toContainText(
    "the memory timeline leak.memory-timeline.json: not a memory timeline of this trace's run",
  );
  // Neither file opens on its own: the pair was asked for, and the pair is refused.
  await expect(page.getByTestId('tab')).toHaveCount(0);
});
