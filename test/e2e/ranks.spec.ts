// The Ranks page at 1280x720: eight generated ranks of one job (one leaking: the outlier) opened
// at once; the page orders them by the rank in their names, marks the outlier and the highest as
// the shared finding does, shares one cursor across the small multiples, and compares two ranks
// in one click.

import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { generateLargeSnapshot } from '../../generators/snapshot/generate-large-snapshot';
import { watchPageProblems } from './page-problems';
import { formatExactBytes } from '../../src/shared/format/units';
import { decodeFile } from './snapshot-pages';
import { allocatorStateIndexOf } from '../../src/shared/state/allocator-state';
import { figuresOfState, smallHoleThreshold } from '../../src/shared/state/memory-figures';

test.use({ viewport: { width: 1280, height: 720 } });

// Made in beforeAll, not at import: with fullyParallel a worker can come back to this file after
// its afterAll removed the folder, and the module is not imported again.
let directory = '';
const OUTLIER = 5;
const files: string[] = [];
test.beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'allocscope-ranks-e2e-'));
  const folder = join(directory, 'job');
  mkdirSync(folder);
  const options = { seed: 9, devices: 1, maxAnnotations: 0 };
  const clean = join(directory, 'clean.pickle');
  generateLargeSnapshot(clean, 2_000_000, options);
  // Handed over out of rank order: the page orders them by the names.
  for (const rank of [7, 3, 0, 6, 1, 4, 2]) {
    const path = join(folder, `trainer_rank_${rank}.pickle`);
    copyFileSync(clean, path);
    files.push(path);
  }
  const outlier = join(folder, `trainer_rank_${OUTLIER}.pickle`);
  generateLargeSnapshot(outlier, 2_000_000, { ...options, leakBytesPerStep: 2 ** 30 });
  files.push(outlier);
  // What else a job's folder holds: left alone.
  writeFileSync(join(folder, 'trace.json'), '{}');
  mkdirSync(join(folder, 'logs'));
  copyFileSync(clean, join(folder, 'logs', 'rank_9.pickle'));
  mkdirSync(join(directory, 'no-snapshots'));
  writeFileSync(join(directory, 'no-snapshots', 'notes.txt'), 'nothing here');
});
test.afterAll(() => rmSync(directory, { recursive: true, force: true }));

test('eight ranks side by side: the outlier named, one cursor, two compared', async ({ page }) => {
  // Eight decodes before the first check (the wait below allows a minute on a loaded machine).
  test.setTimeout(120_000);
  const problems = await watchPageProblems(page);
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('file-input').setInputFiles(files);
  await expect(page.locator('[data-tab-state="snapshot"]')).toHaveCount(8, { timeout: 60_000 });
  await page.getByTestId('ranks-open').click();
  const table = page.getByTestId('ranks-table');
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(8);
  expect(
    await rows.evaluateAll((all) => all.map((row) => Number(row.getAttribute('data-rank')))),
  ).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  const peaks = await rows.evaluateAll((all) =>
    all.map((row) => Number(row.getAttribute('data-peak'))),
  );
  // Seven identical ranks and one higher: it is the outlier and the highest, and only it.
  expect(new Set(peaks.filter((_, rank) => rank !== OUTLIER)).size).toBe(1);
  expect(peaks[OUTLIER]).toBeGreaterThan(peaks[0]!);
  await expect(table.locator(`tr[data-rank="${OUTLIER}"]`)).toHaveAttribute(
    'data-marks',
    /highest,outlier/,
  );
  await expect(table.locator('tr[data-rank="0"]')).not.toHaveAttribute('data-marks', /outlier/);
  await expect(page.getByTestId('ranks-finding')).toContainText(`outliers: rank ${OUTLIER}`);
  // Cached free at the peak: the allocator's state there (the state is checked against the
  // Python reference in the unit tests; here, that the page shows it for each rank).
  for (const rank of [0, OUTLIER]) {
    const { snapshot } = await decodeFile(
      files.find((file) => file.endsWith(`_rank_${rank}.pickle`))!,
    );
    const device = snapshot.devices[0]!;
    const peak = Math.min(device.traceLength - 1, device.figures.active.peakEventIndex);
    const figures = figuresOfState(
      allocatorStateIndexOf(snapshot, device).stateAt(peak),
      smallHoleThreshold(device),
    );
    await expect(table.locator(`tr[data-rank="${rank}"] td[data-cached-free]`)).toHaveAttribute(
      'data-cached-free',
      String(figures.cachedFreeBytes),
    );
  }

  // One cursor for all: hovering one small timeline reads every rank at the same place.
  const charts = page.locator('.ranks-small');
  await expect(charts).toHaveCount(8);
  const box = (await charts.nth(2).locator('svg').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  await expect(page.getByTestId('ranks-multiples')).not.toHaveAttribute('data-cursor', '');
  for (let rank = 0; rank < 8; rank++)
    await expect(charts.nth(rank)).toHaveAttribute('data-at-cursor', /^\d+$/);

  // Two ranks, one click: the first one's Compare view, the second chosen.
  await table.locator('tr[data-rank="0"] input[type="checkbox"]').check();
  await table.locator(`tr[data-rank="${OUTLIER}"] input[type="checkbox"]`).check();
  await page.getByTestId('ranks-compare').click();
  await expect(page.getByTestId('compare-view')).toHaveAttribute('data-state', 'shown');
  await expect(page.getByTestId('compare-with').locator('option:checked')).toContainText(
    `trainer_rank_${OUTLIER}.pickle`,
  );
  // By default matched phases: the phase in which the higher rank peaks, in each.
  await expect(page.getByTestId('compare-verdict')).toContainText(/^B's \w+ peaks/);
  // At the ends of an aligned step, what the leaking rank keeps is the largest change.
  await page.getByTestId('compare-at').selectOption('1');
  await expect(page.getByTestId('compare-verdict')).toContainText('at the ends of their step 2');
  await expect(page.getByTestId('compare-table').locator('tbody tr').first()).toHaveAttribute(
    'data-key',
    'nanogpt/train.py:88 train_step',
  );
  expect(await problems()).toEqual([]);
});

test('a folder opens as ranks: its snapshots only, decoded a few at a time, on the Ranks page', async ({
  page,
}) => {
  // Seventeen files decoded in all: on a loaded machine that takes more than the default 30 s.
  test.setTimeout(120_000);
  const problems = await watchPageProblems(page);
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  // Every tab's stage as it changes: no more files than cores read at once.
  await page.evaluate(() => {
    const record = window as unknown as { mostReading: number };
    record.mostReading = 0;
    new MutationObserver(() => {
      const reading = document.querySelectorAll('[data-tab-state="loading"]').length;
      const waiting = document.querySelectorAll('[data-tab-stage="waiting"]').length;
      record.mostReading = Math.max(record.mostReading, reading - waiting);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  // The welcome page's button asks for a folder.
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('welcome-open-folder').click();
  await (await chooser).setFiles(join(directory, 'job'));
  // Straight to the Ranks page (no button to press), which fills as the ranks decode.
  const rows = page.getByTestId('ranks-table').locator('tbody tr');
  await expect(rows).toHaveCount(8, { timeout: 60_000 });
  await expect(page.getByTestId('ranks-opening')).toHaveCount(0);
  await expect(page.locator('[data-tab-state="snapshot"]')).toHaveCount(8);
  expect(
    await rows.evaluateAll((all) => all.map((row) => Number(row.getAttribute('data-rank')))),
  ).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  const mostReading = await page.evaluate(
    () => (window as unknown as { mostReading: number }).mostReading,
  );
  expect(mostReading).toBeGreaterThan(0);
  expect(mostReading).toBeLessThanOrEqual(Math.max(1, cores));
  // Eight tabs of one job: each shows the part of its name that tells it apart.
  const labels = page.getByTestId('tab-name').locator('.tab-name-own');
  expect(await labels.allTextContents()).toContain(`rank_${OUTLIER}.pickle`);

  // A file opened alone shows its own tab; "Ranks (N)" then shows every open snapshot.
  await page.getByTestId('file-input').setInputFiles(join(directory, 'clean.pickle'));
  await expect(page.locator('[data-tab-state="snapshot"]')).toHaveCount(9);
  await expect(page.getByTestId('ranks-page')).toHaveCount(0);
  await page.getByTestId('ranks-open').click();
  await expect(rows).toHaveCount(9);
  // The folder again, from the tab bar: a Ranks page of its own eight, not of all seventeen.
  const again = page.waitForEvent('filechooser');
  await page.getByTestId('open-folder').click();
  await (await again).setFiles(join(directory, 'job'));
  await expect(page.locator('[data-tab-state="snapshot"]')).toHaveCount(17, { timeout: 60_000 });
  await expect(rows).toHaveCount(8);
  // The button offers every open snapshot, not the folder's page it shows.
  await expect(page.getByTestId('ranks-open')).toHaveText('All as ranks (17)');
  await expect(page.getByTestId('ranks-open')).toHaveAttribute('aria-pressed', 'false');
  await page.getByTestId('ranks-open').click();
  await expect(rows).toHaveCount(17);
  await expect(page.getByTestId('ranks-open')).toHaveText('Ranks (17)');
  await expect(page.getByTestId('ranks-open')).toHaveAttribute('aria-pressed', 'true');

  // A folder without snapshots says so, naming it; nothing else changes.
  await page.getByTestId('folder-input').setInputFiles(join(directory, 'no-snapshots'));
  await expect(page.getByTestId('error-notice')).toContainText('no-snapshots');
  await expect(page.getByTestId('error-notice')).toContainText('holds no snapshot files');
  await expect(rows).toHaveCount(17);
  expect(await problems()).toEqual([]);
});

test('a rank that keeps 96 MiB more every step beside seven flat ones is named, with its growth', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const MiB = 2 ** 20;
  const LEAK = 96 * MiB;
  const LEAKING = 6;
  const folder = join(directory, 'growth');
  mkdirSync(folder);
  const paths: string[] = [];
  for (let rank = 0; rank < 8; rank++) {
    const path = join(folder, `rank_${rank}.pickle`);
    generateLargeSnapshot(path, 3_000_000, {
      seed: 40 + rank,
      devices: 1,
      maxAnnotations: 100_000,
      leakBytesPerStep: rank === LEAKING ? LEAK : 0,
    });
    paths.push(path);
  }
  // Each rank's growth, independently: the slope of a least-squares line through the active
  // bytes at the ends of its ProfilerStep spans (paired here by hand, mapped by a scan).
  const slopes: number[] = [];
  for (const path of paths) {
    const { snapshot } = await decodeFile(path);
    const device = snapshot.devices[0]!;
    const times = device.timeUs!;
    const starts = new Map<string, number>();
    const ends: number[] = [];
    for (const mark of snapshot.annotations) {
      if (!/^ProfilerStep#\d+$/.test(mark.name)) continue;
      if (mark.stage === 'START') starts.set(mark.name, mark.timeUs);
      else if ((starts.get(mark.name) ?? -Infinity) >= times[0]!) {
        let event = device.traceLength - 1;
        while (times[event]! > mark.timeUs) event--;
        ends.push(device.activeBytes[event]!);
      }
    }
    const n = ends.length;
    const meanX = (n - 1) / 2;
    const meanY = ends.reduce((sum, y) => sum + y, 0) / n;
    let num = 0;
    let den = 0;
    ends.forEach((y, x) => {
      num += (x - meanX) * (y - meanY);
      den += (x - meanX) ** 2;
    });
    slopes.push(num / den);
  }
  expect(Math.abs(slopes[LEAKING]! - LEAK) / LEAK).toBeLessThan(0.01);

  const problems = await watchPageProblems(page);
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('file-input').setInputFiles(paths);
  await expect(page.locator('[data-tab-state="snapshot"]')).toHaveCount(8, { timeout: 120_000 });
  await page.getByTestId('ranks-open').click();
  const table = page.getByTestId('ranks-table');
  await expect(table.locator('tbody tr')).toHaveCount(8);
  const growths = await table
    .locator('tbody tr')
    .evaluateAll((all) => all.map((row) => Number(row.getAttribute('data-growth'))));
  growths.forEach((growth, rank) =>
    expect(Math.abs(growth - slopes[rank]!)).toBeLessThanOrEqual(1),
  );
  await expect(table.locator(`tr[data-rank="${LEAKING}"]`)).toHaveAttribute('data-marks', /grows/);
  await expect(table.locator('tr[data-rank="0"]')).not.toHaveAttribute('data-marks', /grows/);
  const shown = (slopes[LEAKING]! / MiB).toFixed(1);
  await expect(page.getByTestId('ranks-growth')).toContainText(
    `growing step after step: rank ${LEAKING} (+${shown} MiB per step)`,
  );
  await expect(page.getByTestId('ranks-finding')).toContainText(
    new RegExp(`outliers: (rank \\d+, )*rank ${LEAKING}\\b`),
  );
  expect(await problems()).toEqual([]);
});

test('CPU profiler traces as ranks: peak reserved and cached free not recorded, never 0 B', async ({
  page,
}) => {
  const problems = await watchPageProblems(page);
  const traces = ['clean', 'leak'].map((name) =>
    resolve(`test/fixtures/profiler/${name}.pt.trace.json.gz`),
  );
  const snapshot = resolve('test/fixtures/cuda-h200/leak.pickle');
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('file-input').setInputFiles([...traces, snapshot]);
  await expect(page.locator('[data-tab-state="snapshot"]')).toHaveCount(3, { timeout: 60_000 });
  await page.getByTestId('ranks-open').click();
  const rows = page.getByTestId('ranks-table').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  for (const trace of traces) {
    const row = rows.filter({ hasText: basename(trace) });
    await expect(row.getByTestId('rank-reserved-not-recorded')).toHaveText('not recorded');
    // No segments, so nothing cached and no hole to show either: words, not 0 B.
    await expect(row.getByTestId('rank-cached-free-not-recorded')).toHaveText('not recorded');
  }
  const { snapshot: cuda } = await decodeFile(snapshot);
  const cudaRow = rows.filter({ hasText: 'leak.pickle' });
  await expect(cudaRow.getByTestId('rank-reserved-not-recorded')).toHaveCount(0);
  await expect(cudaRow.getByTestId('rank-cached-free-not-recorded')).toHaveCount(0);
  // Its own reserved peak, in the column before the cached free bytes.
  await expect(cudaRow.locator('td.numeric').nth(2)).toHaveAttribute(
    'title',
    `${formatExactBytes(cuda.devices[0]!.figures.reserved.peakBytes)} bytes`,
  );
  expect(await problems()).toEqual([]);
});
