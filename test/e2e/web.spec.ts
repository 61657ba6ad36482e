/// <reference lib="dom" />
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { formatBytes } from '../../src/shared/units';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';

test.beforeAll(() => {
  assertChromiumInstalled();
});

async function waitUntilReady(page: Page): Promise<void> {
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
}

test('welcome page renders with no console errors or CSP violations', async ({
  page,
}, testInfo) => {
  const problems = await watchPageProblems(page);
  await page.goto('./');
  await waitUntilReady(page);

  await expect(page.getByRole('heading', { name: 'allocscope' })).toBeVisible();
  await expect(page.getByText('PyTorch CUDA memory snapshot')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open snapshot…' })).toBeVisible();
  // The Electron bridge must not leak into the web build.
  expect(await page.evaluate(() => 'allocscope' in window)).toBe(false);

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: testInfo.outputPath(`welcome-${colorScheme}.png`) });
  }
  expect(await problems()).toEqual([]);
});

test('choosing a file shows its name and size', async ({ page }, testInfo) => {
  const problems = await watchPageProblems(page);
  await page.goto('./');
  await waitUntilReady(page);

  const sizeBytes = 3 * 1024 * 1024 + 123_456;
  const fileChooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Open snapshot…' }).click();
  await (
    await fileChooser
  ).setFiles({
    name: 'training-step.pickle',
    mimeType: 'application/octet-stream',
    buffer: Buffer.alloc(sizeBytes),
  });

  const chosenFile = page.getByTestId('chosen-file');
  await expect(chosenFile).toContainText('training-step.pickle');
  await expect(chosenFile).toContainText(formatBytes(sizeBytes));
  await page.screenshot({ path: testInfo.outputPath('file-chosen.png') });
  expect(await problems()).toEqual([]);
});

test('the build also works opened straight from disk (file://)', async ({ page }) => {
  const problems = await watchPageProblems(page);
  await page.goto(pathToFileURL(resolve('out/web/index.html')).href);
  await waitUntilReady(page);
  await expect(page.getByRole('heading', { name: 'allocscope' })).toBeVisible();
  expect(await problems()).toEqual([]);
});
