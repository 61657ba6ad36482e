/// <reference lib="dom" />
// The curves drawn while a file decodes (issue 25, "Overlap"): held at 60% of its bytes, the page
// shows memory_allocated and memory_reserved of the entries decoded so far under the progress
// bar; released, the file opens as any other.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import type { SummaryDocument } from '../../src/shared/report/summary-report';
import { assertChromiumInstalled } from './chromium';
import { HELD_FILE_NAME, holdDecodesFor, releaseHeldDecode } from './decode-hold-seam';
import { watchPageProblems } from './page-problems';
import { inkedFraction } from './snapshot-pages';
import { realSnapshotPath } from '../support/real-snapshots';

const CLI = resolve('out/cli/allocscope.js');
/** Three devices, 2.6 MB. */
const MULTI_GPU = realSnapshotPath('Constructor-Sun');

test.beforeAll(() => {
  assertChromiumInstalled();
});

test('the curves of the entries decoded so far are drawn under the progress bar', async ({
  page,
}, testInfo) => {
  const problems = await watchPageProblems(page);
  await holdDecodesFor(page);
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('file-input').setInputFiles({
    name: HELD_FILE_NAME,
    mimeType: 'application/octet-stream',
    buffer: readFileSync(MULTI_GPU),
  });

  const progress = page.getByTestId('progress');
  const preview = page.getByTestId('decode-preview');
  await expect(progress).toHaveAttribute('data-stage', 'reading');
  await expect(preview).toBeVisible();
  await expect.poll(async () => Number(await preview.getAttribute('data-rows'))).toBeGreaterThan(0);
  // Held: the rows are some of the file's, and the picture is drawn.
  const document = JSON.parse(
    execFileSync(process.execPath, [CLI, 'summary', MULTI_GPU, '--json'], { encoding: 'utf8' }),
  ) as SummaryDocument;
  const entries = document.devices.reduce((sum, device) => sum + device.trace_entries, 0);
  const rows = Number(await preview.getAttribute('data-rows'));
  expect(rows).toBeLessThan(entries);
  await expect(preview).toContainText('memory_allocated');
  await expect(preview).toContainText('memory_reserved');
  expect(await inkedFraction(preview.locator('canvas'))).toBeGreaterThan(0.02);
  await page.screenshot({ path: testInfo.outputPath('decode-preview.png') });
  // Still reading: the bar and Cancel stay where they were.
  await expect(progress).toHaveAttribute('data-stage', 'reading');
  await expect(page.getByTestId('cancel')).toBeInViewport();

  await releaseHeldDecode(page);
  await expect(page.getByTestId('snapshot-page')).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await expect(preview).toHaveCount(0);
  expect(await problems()).toEqual([]);
});
