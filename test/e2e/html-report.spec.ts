/// <reference lib="dom" />
// `allocscope html` as a colleague gets it: the page the built CLI writes, opened from disk
// (file://, no server) in Chromium, shows the snapshot inside with the CLI's figures, on the
// device, moment and view it was written with, with no console error and no CSP violation.
// Needs `npm run build:cli` (the CLI and its page template; `npm test` builds both).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import type { DeviceSummary, SummaryDocument } from '../../src/shared/report/summary-report';
import { formatBytes, formatExactBytes } from '../../src/shared/format/units';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';

const CLI = resolve('out/cli/allocscope.js');
const real = (name: string) => resolve('test/fixtures/real', name);
/** Small, full-featured: times, annotations, one device. */
const ADAM = real('a0kuma_pytorchMemoryViz__tests__gpu_memory_snapshot-adam.pickle');
/** Three devices, an OOM on device 1 (where the page opens by default). */
const MULTI_GPU = real('Constructor-Sun_code_location__memory_snapshot.pickle');

let folder: string;
test.beforeAll(() => {
  assertChromiumInstalled();
  if (!existsSync(CLI)) throw new Error(`${CLI} not found; run \`npm run build:cli\` first.`);
  folder = mkdtempSync(join(tmpdir(), 'allocscope-html-'));
});
test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

function cli(...args: string[]): string {
  return execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
}

/** Writes the page with the built CLI; its file:// URL. */
function writePage(input: string, name: string, ...options: string[]): string {
  const output = join(folder, name);
  cli('html', input, '-o', output, ...options);
  return pathToFileURL(output).href;
}

function deviceSummary(input: string, device: number): DeviceSummary {
  const document = JSON.parse(cli('summary', input, '--json')) as SummaryDocument;
  const summary = document.devices.find((candidate) => candidate.device === device);
  if (summary === undefined) throw new Error(`device ${device} not in ${input}`);
  return summary;
}

async function expectFigures(page: Page, summary: DeviceSummary): Promise<void> {
  const strip = page.getByTestId('summary-strip');
  for (const [testId, bytes] of [
    ['summary-active-peak', summary.active_bytes.peak],
    ['summary-active-final', summary.active_bytes.final],
    ['summary-reserved-peak', summary.reserved_bytes!.peak],
    ['summary-reserved-final', summary.reserved_bytes!.final],
  ] as const) {
    await expect(strip.getByTestId(testId)).toHaveAttribute('data-bytes', String(bytes));
    await expect(strip.getByTestId(testId)).toHaveText(formatBytes(bytes));
  }
  await expect(strip.getByTestId('summary-events')).toHaveAttribute(
    'data-count',
    String(summary.trace_entries),
  );
  await expect(strip.getByTestId('summary-ooms')).toHaveAttribute(
    'data-count',
    String(summary.oom.length),
  );
}

/** Opens the page from disk and waits until its snapshot is shown (decoding takes a while). */
async function openPage(page: Page, url: string): Promise<void> {
  expect(url.startsWith('file://')).toBe(true);
  await page.goto(url);
  await expect(page.getByTestId('tab')).toHaveCount(1);
  await expect(page.getByTestId('summary-strip')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
}

test('the page opens from disk with the snapshot inside and the CLI figures', async ({
  page,
}, testInfo) => {
  const problems = await watchPageProblems(page);
  const url = writePage(ADAM, 'adam.html');
  // No server: every request the page makes is its own file, a data: or a blob: URL.
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await openPage(page, url);
  await expect(page.getByTestId('tab')).toHaveAttribute('data-file-name', basename(ADAM));
  await expect(page).toHaveTitle(`${basename(ADAM)} · allocscope`);
  await expectFigures(page, deviceSummary(ADAM, 0));
  // The file's own size (not the gzip the page carries), as the CLI reads it.
  const bytes = readFileSync(ADAM).length;
  await expect(page.locator(`[title="${formatExactBytes(bytes)} bytes"]`)).toContainText(
    `${formatBytes(bytes)}`,
  );
  // The timeline is drawn.
  await expect(page.locator('canvas').first()).toBeVisible();
  expect(requests.filter((request) => !/^(file|data|blob):/.test(request))).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('html-report.png') });
  expect(await problems()).toEqual([]);
});

test('--device, --moment and --view open the page on the finding', async ({ page }) => {
  const problems = await watchPageProblems(page);
  const expected = deviceSummary(MULTI_GPU, 0);
  const url = writePage(
    MULTI_GPU,
    'multi.html',
    '--device',
    '0',
    '--moment',
    'peak',
    '--view',
    'segments',
  );
  await openPage(page, url);
  // Not the default device (1, with the OOM): the one asked for, at its active peak.
  await expect(page.getByTestId('device-select')).toHaveValue('0');
  await expectFigures(page, expected);
  await expect(page.getByTestId('view-tab-segments')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('moment-label')).toHaveAttribute(
    'data-moment',
    String(expected.active_bytes.peak_event_index),
  );

  // An event by number, and the categories over time (Who holds it).
  await openPage(
    page,
    writePage(MULTI_GPU, 'multi-40.html', '--moment', '40', '--view', 'categories'),
  );
  await expect(page.getByTestId('device-select')).toHaveValue('1');
  await expect(page.getByTestId('moment-label')).toHaveAttribute('data-moment', '40');
  await expect(page.getByTestId('view-tab-holders')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('holders-over-time')).toBeChecked();
  expect(await problems()).toEqual([]);
});

test('a gzip snapshot is carried as it is and opens as the CLI reads it', async ({ page }) => {
  const problems = await watchPageProblems(page);
  const gzipped = join(folder, 'multi.pickle.gz');
  writeFileSync(gzipped, gzipSync(readFileSync(MULTI_GPU)));
  await openPage(page, writePage(gzipped, 'gz.html'));
  await expect(page.getByTestId('tab')).toHaveAttribute('data-file-name', 'multi.pickle.gz');
  await expect(page.getByTestId('device-select')).toHaveValue('1');
  await expectFigures(page, deviceSummary(gzipped, 1));
  expect(await problems()).toEqual([]);
});

test('a page cut short says so instead of opening empty', async ({ page }) => {
  const whole = readFileSync(new URL(writePage(MULTI_GPU, 'whole.html')), 'utf8');
  const cut = join(folder, 'cut.html');
  // A download that stopped half-way through the snapshot's pieces.
  writeFileSync(cut, whole.slice(0, whole.indexOf('data-allocscope-chunk="0"') + 5000));
  await page.goto(pathToFileURL(cut).href);
  await expect(page.getByText(/this page is cut short/)).toBeVisible();
  await expect(page.getByTestId('tab')).toHaveCount(0);
});

test('the template without a snapshot is the plain web app, from disk', async ({ page }) => {
  const problems = await watchPageProblems(page);
  await page.goto(pathToFileURL(resolve('out/cli/assets/viewer.html')).href);
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByRole('button', { name: 'Open snapshot…' })).toBeVisible();
  await expect(page.getByTestId('tab')).toHaveCount(0);
  // A file chosen in it opens as in the web build.
  await page.getByTestId('file-input').setInputFiles(ADAM);
  await expectFigures(page, deviceSummary(ADAM, 0));
  expect(await problems()).toEqual([]);
});
