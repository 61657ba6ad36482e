/// <reference lib="dom" />
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import type { DeviceSummary, SummaryDocument } from '../../src/shared/report/summary-report';
import { formatBytes, formatExactBytes } from '../../src/shared/format/units';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';
import { tinySnapshot } from '../support/hostile-files';
import { realSnapshotPath } from '../support/real-snapshots';

const snapshotsDirectory = resolve('test/fixtures/real');
const snapshot = (name: string) => join(snapshotsDirectory, name);
/** Small, full-featured: times, annotations, one device. */
const ADAM = snapshot('a0kuma_pytorchMemoryViz__tests__gpu_memory_snapshot-adam.pickle');
/** Three devices, an OOM on device 1. */
const MULTI_GPU = snapshot('Constructor-Sun_code_location__memory_snapshot.pickle');
/** Inconsistent on purpose: opens with a warning. */
const INCONSISTENT = snapshot('drisspg_transformer_nuggets__test__data__mini_snapshot.pickle');
/** No time_us. */
const NO_TIMES = snapshot('Yiyi-philosophy_LLM-inference__oom_snapshot.pickle');
const DEMO = resolve('resources/demo-snapshot.pickle');
const CLI = resolve('out/cli/allocscope.js');

test.beforeAll(() => {
  assertChromiumInstalled();
});

/** The CLI's figures for a file, the reference the page must agree with. */
function cliSummary(path: string): SummaryDocument {
  if (!existsSync(CLI)) throw new Error(`${CLI} not found; run \`npm run build\` first.`);
  return JSON.parse(
    execFileSync(process.execPath, [CLI, 'summary', path, '--json'], { encoding: 'utf8' }),
  ) as SummaryDocument;
}

function deviceOf(document: SummaryDocument, device: number): DeviceSummary {
  const summary = document.devices.find((candidate) => candidate.device === device);
  if (!summary) throw new Error(`device ${device} not in ${document.file}`);
  return summary;
}

async function waitUntilReady(page: Page): Promise<void> {
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
}

async function openFiles(page: Page, ...paths: string[]): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(paths);
}

async function expectSummaryMatches(page: Page, summary: DeviceSummary): Promise<void> {
  const strip = page.getByTestId('summary-strip');
  const figures = [
    ['summary-active-peak', summary.active_bytes.peak],
    ['summary-active-final', summary.active_bytes.final],
    ['summary-reserved-peak', summary.reserved_bytes!.peak],
    ['summary-reserved-final', summary.reserved_bytes!.final],
  ] as const;
  for (const [testId, bytes] of figures) {
    const figure = strip.getByTestId(testId);
    await expect(figure).toHaveAttribute('data-bytes', String(bytes));
    await expect(figure).toHaveText(formatBytes(bytes));
    await expect(figure).toHaveAttribute('title', `${formatExactBytes(bytes)} bytes`);
  }
  await expect(strip.getByTestId('summary-segments')).toHaveAttribute(
    'data-count',
    String(summary.segments),
  );
  await expect(strip.getByTestId('summary-events')).toHaveAttribute(
    'data-count',
    String(summary.trace_entries),
  );
  await expect(strip.getByTestId('summary-ooms')).toHaveAttribute(
    'data-count',
    String(summary.oom.length),
  );
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
  await expect(page.getByTestId('open-demo')).toBeVisible();
  await expect(page.getByTestId('tab')).toHaveCount(0);
  // The Electron bridge must not leak into the web build.
  expect(await page.evaluate(() => 'allocscope' in window)).toBe(false);

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: testInfo.outputPath(`welcome-${colorScheme}.png`) });
  }
  expect(await problems()).toEqual([]);
});

test('the Open button and Ctrl+O both ask for a file', async ({ page }) => {
  await page.goto('./');
  await waitUntilReady(page);
  const byButton = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Open snapshot…' }).click();
  expect((await byButton).isMultiple()).toBe(true);

  const byKey = page.waitForEvent('filechooser');
  await page.keyboard.press('Control+o');
  await byKey;
});

test('a real snapshot opens with the figures of the CLI', async ({ page }, testInfo) => {
  const problems = await watchPageProblems(page);
  const expected = deviceOf(cliSummary(ADAM), 0);
  await page.goto('./');
  await waitUntilReady(page);

  await openFiles(page, ADAM);
  await waitUntilReady(page);
  await expect(page.getByTestId('tab')).toHaveCount(1);
  await expect(page.getByTestId('tab')).toHaveAttribute('data-file-name', basename(ADAM));
  await expect(page.getByTestId('tab')).toHaveAttribute('aria-selected', 'true');
  await expectSummaryMatches(page, expected);
  await expect(page.getByTestId('device-select')).toHaveValue('0');
  await expect(page.getByTestId('x-mode')).toHaveAttribute('data-value', 'time');
  await expect(page.getByTestId('summary-trace-window')).not.toHaveText('—');
  await expect(page.getByTestId('progress')).toHaveCount(0);

  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: testInfo.outputPath(`snapshot-${colorScheme}.png`) });
  }
  expect(await problems()).toEqual([]);
});

test('a multi-GPU snapshot switches devices, each with its own figures', async ({
  page,
}, testInfo) => {
  const document = cliSummary(MULTI_GPU);
  await page.goto('./');
  await waitUntilReady(page);
  await openFiles(page, MULTI_GPU);
  await waitUntilReady(page);

  const select = page.getByTestId('device-select');
  // Each device with its active peak, and OOM where it ran out.
  await expect(select.locator('option')).toHaveText(
    document.devices.map(
      (device) =>
        `cuda:${device.device} · ${formatBytes(device.active_bytes.peak)}` +
        (device.oom.length > 0 ? ' · OOM' : ''),
    ),
  );
  // It opens on the device that ran out of memory.
  await expect(select).toHaveValue('1');
  await expectSummaryMatches(page, deviceOf(document, 1));
  await expect(page.getByTestId('summary-ooms')).toHaveText('1');
  await select.selectOption('0');
  await expectSummaryMatches(page, deviceOf(document, 0));
  await select.selectOption('1');
  await expectSummaryMatches(page, deviceOf(document, 1));
  await page.screenshot({ path: testInfo.outputPath('multi-gpu-device-1.png') });
});

test('a file whose first device is idle opens on the device with the largest peak', async ({
  page,
}) => {
  // Like a real two-GPU dump whose cuda:0 holds nothing (one `snapshot` event) while cuda:1
  // holds the memory: no OOM, so the default device is the largest active peak.
  const bytes = tinySnapshot((snapshot) => {
    const segments = snapshot.segments as Record<string, unknown>[];
    segments[0]!.device = 1;
    const [trace] = snapshot.device_traces as unknown[][];
    snapshot.device_traces = [
      [{ action: 'snapshot', addr: 0, size: 0, stream: 0, time_us: 5, frames: [] }],
      trace,
    ];
  });
  const folder = await mkdtemp(join(tmpdir(), 'allocscope-idle-'));
  const path = join(folder, 'idle-cuda0.pickle');
  try {
    await writeFile(path, bytes);
    const document = cliSummary(path);
    expect(document.devices.map((device) => device.device)).toEqual([0, 1]);
    expect(document.devices[0]!.active_bytes.peak).toBe(0);
    await page.goto('./');
    await waitUntilReady(page);
    await openFiles(page, path);
    await waitUntilReady(page);
    await expect(page.getByTestId('device-select')).toHaveValue('1');
    await expectSummaryMatches(page, deviceOf(document, 1));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test('the real Muduard snapshot opens on cuda:1, the device that holds its memory', async ({
  page,
}) => {
  // A bare list of segments (an old format), all on cuda:1: the page must not open on a cuda:0
  // the file does not have.
  const path = realSnapshotPath('Muduard_LayoutEditing__memory_snapshot.pickle');
  const document = cliSummary(path);
  expect(document.devices.map((device) => device.device)).toEqual([1]);
  const busy = deviceOf(document, 1);
  expect(busy.reserved_bytes!.final).toBeGreaterThan(0);
  await page.goto('./');
  await waitUntilReady(page);
  await openFiles(page, path);
  await waitUntilReady(page);
  await expect(page.getByTestId('device-select')).toHaveValue('1');
  await expectSummaryMatches(page, busy);
});

test('tabs of long names that differ in the middle keep the part that differs', async ({
  page,
}) => {
  const folder = await mkdtemp(join(tmpdir(), 'allocscope-tabs-'));
  const prefix = 'cs336_systems__results__memory_profiles__xl';
  const paths = [128, 512].map((ctx) => join(folder, `${prefix}_ctx${ctx}_full_step_bf16.pickle`));
  try {
    const bytes = await readFile(ADAM);
    for (const path of paths) await writeFile(path, bytes);
    await page.goto('./');
    await waitUntilReady(page);
    await openFiles(page, paths[0]!);
    await waitUntilReady(page);
    await openFiles(page, paths[1]!);
    await waitUntilReady(page);
    const names = page.getByTestId('tab-name');
    await expect(names).toHaveCount(2);
    await expect(names.nth(0)).toContainText('ctx128');
    await expect(names.nth(1)).toContainText('ctx512');
    // Shown whole, not cut by the tab's width (the text, not only the DOM, carries the difference).
    for (const name of [names.nth(0), names.nth(1)]) {
      expect(await name.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(
        true,
      );
    }
    // The whole name stays one hover away.
    await expect(page.getByTestId('tab').nth(1)).toHaveAttribute(
      'title',
      new RegExp(`^${basename(paths[1]!).replace(/\./g, '\\.')} — `),
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test('a file without times offers the event axis only', async ({ page }) => {
  await page.goto('./');
  await waitUntilReady(page);
  await openFiles(page, NO_TIMES);
  await waitUntilReady(page);
  const xMode = page.getByTestId('x-mode');
  await expect(xMode).toHaveAttribute('data-value', 'event');
  await expect(xMode.getByRole('radio', { name: 'Time' })).toBeDisabled();
  await expect(page.getByTestId('summary-trace-window')).toHaveText('—');
});

test("a snapshot's warnings show on it and can be dismissed", async ({ page }, testInfo) => {
  const [warning] = cliSummary(INCONSISTENT).warnings;
  expect(warning).toBeDefined();
  await page.goto('./');
  await waitUntilReady(page);
  await openFiles(page, INCONSISTENT);
  await waitUntilReady(page);

  const notice = page.getByTestId('warning-notice');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(warning!);
  await page.screenshot({ path: testInfo.outputPath('warning-notice.png') });
  await notice.getByRole('button', { name: 'Dismiss the warnings' }).click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId('tab')).toHaveCount(1);
});

test('a bad file shows an error naming it; the open snapshot stays', async ({ page }, testInfo) => {
  const directory = await mkdtemp(join(tmpdir(), 'allocscope-e2e-'));
  const badPath = join(directory, 'not-a-snapshot.pickle');
  await writeFile(badPath, 'this is plain text, not a pickle\n');
  try {
    await page.goto('./');
    await waitUntilReady(page);
    await openFiles(page, ADAM);
    await waitUntilReady(page);

    await openFiles(page, badPath);
    await expect(page.locator('body')).toHaveAttribute('data-state', 'error');
    const notice = page.getByTestId('error-notice');
    await expect(notice).toHaveCount(1);
    await expect(notice).toContainText('not-a-snapshot.pickle');
    await expect(notice).toContainText('not a memory snapshot');
    await page.screenshot({ path: testInfo.outputPath('error-notice.png') });

    // The snapshot opened before is still open and shown.
    const tabs = page.getByTestId('tab');
    await expect(tabs).toHaveCount(1);
    await expect(tabs).toHaveAttribute('data-file-name', basename(ADAM));
    await expect(tabs).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('summary-strip')).toBeVisible();

    await notice.getByRole('button', { name: /Dismiss/ }).click();
    await expect(notice).toHaveCount(0);
    await waitUntilReady(page);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});

test('a file decodes on several Web Workers (?jobs=3) with the figures of the CLI', async ({
  page,
}, testInfo) => {
  const problems = await watchPageProblems(page);
  const file = realSnapshotPath('LINYUNLinYun');
  const expected = deviceOf(cliSummary(file), 0);
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto('./?jobs=3');
  await waitUntilReady(page);
  const before = workers.length;
  await openFiles(page, file);
  await waitUntilReady(page);
  // The spine and the workers the page started for its two later parts.
  await expect(page.getByTestId('tab')).toHaveAttribute('data-decode-threads', '3');
  await expect(page.getByTestId('decode-threads')).toHaveText('decoded on 3 threads');
  expect(workers.length - before).toBeGreaterThanOrEqual(2);
  await expectSummaryMatches(page, expected);
  await page.screenshot({ path: testInfo.outputPath('decoded-in-parts.png') });

  // Its gzip has no frames to hop along: one thread, the same figures.
  const directory = await mkdtemp(join(tmpdir(), 'allocscope-parts-'));
  try {
    const gzipped = join(directory, `${basename(file)}.gz`);
    await writeFile(gzipped, gzipSync(await readFile(file)));
    await openFiles(page, gzipped);
    await waitUntilReady(page);
    await expect(page.getByTestId('tab')).toHaveCount(2);
    await expect(page.getByTestId('tab').nth(1)).toHaveAttribute('data-decode-threads', '1');
    await expect(page.getByTestId('decode-threads')).toHaveCount(0);
    await expectSummaryMatches(page, expected);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
  expect(await problems()).toEqual([]);
});

test('two files open in two tabs; closing one keeps the other', async ({ page }, testInfo) => {
  const adam = deviceOf(cliSummary(ADAM), 0);
  const noTimes = deviceOf(cliSummary(NO_TIMES), 0);
  await page.goto('./');
  await waitUntilReady(page);

  await openFiles(page, ADAM);
  await waitUntilReady(page);
  await openFiles(page, NO_TIMES);
  await waitUntilReady(page);

  const tabs = page.getByTestId('tab');
  await expect(tabs).toHaveCount(2);
  await expect(tabs.nth(0)).toHaveAttribute('data-file-name', basename(ADAM));
  await expect(tabs.nth(1)).toHaveAttribute('data-file-name', basename(NO_TIMES));
  // The file opened last is the one shown.
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expectSummaryMatches(page, noTimes);
  await page.screenshot({ path: testInfo.outputPath('two-tabs.png') });

  await tabs.nth(0).click();
  await expectSummaryMatches(page, adam);

  // Ctrl+Tab cycles; Ctrl+W closes the current tab.
  await page.keyboard.press('Control+Tab');
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Control+w');
  await expect(tabs).toHaveCount(1);
  await expect(tabs).toHaveAttribute('data-file-name', basename(ADAM));
  await expectSummaryMatches(page, adam);

  await tabs.getByTestId('tab-close').click();
  await expect(tabs).toHaveCount(0);
  await expect(page.getByTestId('open-demo')).toBeVisible();
  await waitUntilReady(page);
});

test('a file dropped on the window opens', async ({ page }) => {
  const expected = deviceOf(cliSummary(ADAM), 0);
  const bytes = (await readFile(ADAM)).toString('base64');
  await page.goto('./');
  await waitUntilReady(page);

  const dataTransfer = await page.evaluateHandle(
    ({ name, base64 }) => {
      const transfer = new DataTransfer();
      const data = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
      transfer.items.add(new File([data], name));
      return transfer;
    },
    { name: basename(ADAM), base64: bytes },
  );
  await page.dispatchEvent('body', 'dragenter', { dataTransfer });
  await expect(page.locator('.drop-overlay')).toBeVisible();
  await page.dispatchEvent('body', 'drop', { dataTransfer });
  await expect(page.locator('.drop-overlay')).toHaveCount(0);
  await waitUntilReady(page);
  await expect(page.getByTestId('tab')).toHaveAttribute('data-file-name', basename(ADAM));
  await expectSummaryMatches(page, expected);
});

test('a decode can be cancelled while it runs', async ({ page }, testInfo) => {
  // Hold the demo download open, so the decode waits in the worker until cancelled.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/demo-snapshot.pickle', async (route) => {
    await held;
    await route.abort().catch(() => {});
  });
  await page.goto('./');
  await waitUntilReady(page);

  await page.getByTestId('open-demo').click();
  await expect(page.locator('body')).toHaveAttribute('data-state', 'loading');
  const progress = page.getByTestId('progress');
  await expect(progress).toBeVisible();
  await expect(progress).toContainText('demo-snapshot.pickle');
  await expect(page.getByTestId('tab')).toHaveAttribute('data-tab-state', 'loading');
  await page.screenshot({ path: testInfo.outputPath('progress.png') });

  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('tab')).toHaveCount(0);
  await expect(page.getByTestId('error-notice')).toHaveCount(0);
  await waitUntilReady(page);
  release();
});

test('the demo snapshot opens from the welcome page', async ({ page }) => {
  test.skip(!existsSync(DEMO), `${DEMO} does not exist yet (generated separately)`);
  const problems = await watchPageProblems(page);
  const expected = deviceOf(cliSummary(DEMO), 0);
  await page.goto('./');
  await waitUntilReady(page);
  await page.getByTestId('open-demo').click();
  await waitUntilReady(page);
  await expect(page.getByTestId('tab')).toHaveAttribute('data-file-name', 'demo-snapshot.pickle');
  await expectSummaryMatches(page, expected);
  expect(await problems()).toEqual([]);
});

test('the build also works opened straight from disk (file://)', async ({ page }) => {
  const problems = await watchPageProblems(page);
  await page.goto(pathToFileURL(resolve('out/web/index.html')).href);
  await waitUntilReady(page);
  await expect(page.getByRole('heading', { name: 'allocscope' })).toBeVisible();

  // A page from disk cannot fetch the demo file beside it: it says why.
  await page.getByTestId('open-demo').click();
  await expect(page.locator('body')).toHaveAttribute('data-state', 'error');
  await expect(page.getByTestId('error-notice')).toContainText('file://');

  // The decoder is an inline (blob:) worker, so it starts from a file:// page too.
  await openFiles(page, ADAM);
  await waitUntilReady(page);
  await expectSummaryMatches(page, deviceOf(cliSummary(ADAM), 0));
  expect(await problems()).toEqual([]);
});
