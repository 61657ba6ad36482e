/// <reference lib="dom" />
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import { reportDocumentSchema, type ReportDocument } from '../../src/shared/report/report-document';
import type { SummaryDocument } from '../../src/shared/report/summary-report';
import { formatBytes, formatExactBytes } from '../../src/shared/format/units';
import { parseCsv } from '../support/csv';
import { CSV_FORMULAS, csvFormulasSnapshot } from '../support/hostile-files';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';

const snapshotsDirectory = resolve('test/fixtures/real');
/** Small, full-featured: times, annotations, one device. */
const ADAM = join(
  snapshotsDirectory,
  'a0kuma_pytorchMemoryViz__tests__gpu_memory_snapshot-adam.pickle',
);
const ADAM_BASE = 'a0kuma_pytorchMemoryViz__tests__gpu_memory_snapshot-adam';
const CLI = resolve('out/cli/allocscope.js');

/** The CSV's columns, as README.md documents them (this file has no detail columns). */
const CSV_COLUMNS = [
  'rank_at_moment',
  'alive_at_moment',
  'address',
  'size_bytes',
  'block_bytes',
  'stream',
  'start_event',
  'end_event',
  'start_ms_from_trace_start',
  'end_ms_from_trace_start',
  'start_time_us_epoch',
  'end_time_us_epoch',
  'lifetime_events',
  'top_user_frame',
  'stack_id',
  'user_frames',
] as const;

test.beforeAll(() => {
  assertChromiumInstalled();
});

function cli<T>(...args: string[]): T {
  if (!existsSync(CLI)) throw new Error(`${CLI} not found; run \`npm run build\` first.`);
  return JSON.parse(
    execFileSync(process.execPath, [CLI, ...args], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    }),
  ) as T;
}

async function openAdam(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('file-input').setInputFiles(ADAM);
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('export-bar')).toBeVisible();
}

/** Clicks an export button and returns the file the browser was handed. */
async function download(page: Page, testId: string): Promise<{ file: Download; bytes: Buffer }> {
  const started = page.waitForEvent('download');
  await page.getByTestId(testId).click();
  const file = await started;
  const path = await file.path();
  const bytes = await readFile(path);
  await expect(page.getByTestId('export-notice')).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('export-notice')).toContainText(
    `Saved ${file.suggestedFilename()}`,
  );
  return { file, bytes };
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test('PNG: the chart at the css size times the scale (2× by default, 3× on request)', async ({
  page,
}, testInfo) => {
  const problems = await watchPageProblems(page);
  await openAdam(page);
  await expect(page.getByTestId('export-scale')).toHaveValue('2');

  for (const scale of [2, 3]) {
    await page.getByTestId('export-scale').selectOption(String(scale));
    const box = (await page.getByTestId('timeline').boundingBox())!;
    const { file, bytes } = await download(page, 'export-png');
    expect(file.suggestedFilename()).toBe(`${ADAM_BASE}.cuda0.timeline.png`);
    const size = pngSize(bytes);
    expect(size).toEqual({
      width: Math.round(Math.round(box.width) * scale),
      height: Math.round(Math.round(box.height) * scale),
    });
    expect(size.width).toBeGreaterThanOrEqual(2 * box.width - 1);
    // Not blank: a drawn chart compresses far worse than an empty canvas.
    expect(bytes.length).toBeGreaterThan(20_000);
    await writeFile(testInfo.outputPath(`timeline-${scale}x.png`), bytes);
  }
  expect(await problems()).toEqual([]);
});

test('PNG and SVG of the segments view when it is shown', async ({ page }, testInfo) => {
  await openAdam(page);
  await page.getByTestId('view-tab-segments').click();
  await expect(page.getByTestId('segments-view')).toBeVisible();
  // The box the page's segments picture is laid out in (the chart writes it on the view): the
  // export lays the picture out in the same box, so it is the picture on screen.
  const box = {
    width: Number(await page.getByTestId('segments-view').getAttribute('data-box-width')),
  };
  expect(box.width).toBeGreaterThan(0);

  const svg = await download(page, 'export-svg');
  expect(svg.file.suggestedFilename()).toBe(`${ADAM_BASE}.cuda0.segments.svg`);
  const root = /<svg\b[^>]*>/.exec(svg.bytes.toString('utf8'))![0];
  const width = Number(/\swidth="([\d.]+)"/.exec(root)![1]);
  const height = Number(/\sheight="([\d.]+)"/.exec(root)![1]);
  expect(width).toBe(Math.round(box.width));

  const png = await download(page, 'export-png');
  expect(png.file.suggestedFilename()).toBe(`${ADAM_BASE}.cuda0.segments.png`);
  // The segments chart is as tall as its segments need: the SVG's height, times the scale.
  expect(pngSize(png.bytes)).toEqual({ width: width * 2, height: Math.round(height * 2) });
  await writeFile(testInfo.outputPath('segments-2x.png'), png.bytes);
});

test('SVG: a well-formed standalone chart', async ({ page }) => {
  await openAdam(page);
  const { file, bytes } = await download(page, 'export-svg');
  expect(file.suggestedFilename()).toBe(`${ADAM_BASE}.cuda0.timeline.svg`);
  const text = bytes.toString('utf8');
  expect(text).toContain('<svg');
  const parsed = await page.evaluate((svg) => {
    const document = new DOMParser().parseFromString(svg, 'image/svg+xml');
    return {
      error: document.getElementsByTagName('parsererror').length > 0,
      root: document.documentElement.localName,
      namespace: document.documentElement.namespaceURI,
      width: document.documentElement.getAttribute('width'),
    };
  }, text);
  expect(parsed).toMatchObject({
    error: false,
    root: 'svg',
    namespace: 'http://www.w3.org/2000/svg',
  });
  const box = (await page.getByTestId('timeline').boundingBox())!;
  expect(Number(parsed.width)).toBe(Math.round(box.width));
});

test('JSON: the findings, as the page and the CLI figure them', async ({ page }) => {
  await openAdam(page);
  const { file, bytes } = await download(page, 'export-json');
  expect(file.suggestedFilename()).toBe(`${ADAM_BASE}.allocscope-report.json`);
  const document: ReportDocument = reportDocumentSchema.parse(JSON.parse(bytes.toString('utf8')));
  expect(document.schema).toBe('allocscope.report/1');
  expect(document.devices.map((device) => device.device)).toEqual([0]);
  const device = document.devices[0]!;
  expect(document.summary.devices.map((summary) => summary.device)).toEqual([0]);

  // The figures the page shows.
  const summary = document.summary.devices[0]!;
  await expect(page.getByTestId('summary-active-peak')).toHaveAttribute(
    'data-bytes',
    String(summary.active_bytes.peak),
  );
  await expect(page.getByTestId('summary-reserved-peak')).toHaveAttribute(
    'data-bytes',
    String(summary.reserved_bytes!.peak),
  );
  await page.getByTestId('view-tab-oom').click();
  await expect(page.getByTestId('oom-explainer')).toHaveAttribute(
    'data-verdict',
    device.whatIf!.verdict,
  );
  await expect(page.getByTestId('oom-reserved')).toHaveAttribute(
    'data-bytes',
    String(device.whatIf!.reservedBytes),
  );

  // The figures the shared code computes, through the CLI.
  const reference = cli<ReportDocument>('report', ADAM, '--json', '-');
  const expected = reference.devices.find((candidate) => candidate.device === 0)!;
  expect(document.summary.devices).toEqual([reference.summary.devices[0]]);
  expect(device.atPeak).toEqual(expected.atPeak);
  expect(device.ooms).toEqual(expected.ooms);
  expect(device.whatIf).toEqual(expected.whatIf);
  expect(device.smallHoleThresholdBytes).toBe(expected.smallHoleThresholdBytes);
  // The page's moment is in the document.
  if (device.atMoment !== null) {
    const series = device.fragmentationSeries!;
    expect(series.moments).toContain(device.atMoment.event);
  }
});

test('JSON: every device of the file, as allocscope report --json has them', async ({ page }) => {
  // Constructor-Sun: three devices, the OOM on cuda:1 (where the page opens).
  const multiGpu = join(
    snapshotsDirectory,
    'Constructor-Sun_code_location__memory_snapshot.pickle',
  );
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('file-input').setInputFiles(multiGpu);
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('device-select')).toHaveValue('1');
  const { bytes } = await download(page, 'export-json');
  const document: ReportDocument = reportDocumentSchema.parse(JSON.parse(bytes.toString('utf8')));
  const reference = cli<ReportDocument>('report', multiGpu, '--json', '-');
  expect(document.devices.map((device) => device.device)).toEqual([0, 1, 2]);
  expect(document.summary).toEqual(reference.summary);
  document.devices.forEach((device, i) => {
    const expected = reference.devices[i]!;
    expect(device.atPeak).toEqual(expected.atPeak);
    expect(device.ooms).toEqual(expected.ooms);
    expect(device.whatIf).toEqual(expected.whatIf);
    // Only the device on screen carries the page's moment.
    if (device.device !== 1) expect(device.atMoment).toBeNull();
  });
});

test('CSV: every allocation of the device, those alive at the moment first', async ({ page }) => {
  await openAdam(page);
  const { file, bytes } = await download(page, 'export-csv');
  // The page opens a snapshot without an OOM at its active peak.
  const summary = cli<SummaryDocument>('summary', ADAM, '--json', '--top', '100000').devices[0]!;
  const peak = summary.active_bytes.peak_event_index;
  expect(file.suggestedFilename()).toBe(`${ADAM_BASE}.cuda0.allocations.after-event-${peak}.csv`);
  const text = bytes.toString('utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  const rows = parseCsv(text);
  expect(rows[0]).toEqual([...CSV_COLUMNS]);
  const records = rows
    .slice(1)
    .map((row) => Object.fromEntries(CSV_COLUMNS.map((name, i) => [name, row[i]!])));
  for (const row of rows) expect(row).toHaveLength(CSV_COLUMNS.length);

  // Every allocation: each alloc entry of the trace, each free of one made before it (this
  // file's trace starts with nothing allocated, so there are no others).
  expect(summary.active_bytes.baseline).toBe(0);
  expect(records.length).toBe((summary.actions['alloc'] ?? 0) + summary.unmatched_frees);
  expect(records.length).toBeGreaterThan(await page.getByTestId('largest-row').count());

  // Alive at the moment: the table's rows, in its order, and the CLI's list at the peak.
  const alive = records.filter((record) => record.alive_at_moment === 'true');
  const tableRows = page.getByTestId('largest-row');
  expect(alive.length).toBe(await tableRows.count());
  expect(records.slice(0, alive.length)).toEqual(alive);
  await expect(tableRows.first().locator('td').first()).toHaveAttribute(
    'title',
    `${formatExactBytes(Number(alive[0]!.size_bytes))} B`,
  );
  const top = summary.largest_allocations_at_peak;
  expect(alive.map((r) => [BigInt(r.address!), Number(r.size_bytes)])).toEqual(
    top.map((allocation) => [BigInt(allocation.address), allocation.bytes]),
  );
  // Times from the trace start (ms) beside the file's own epoch µs.
  const timed = records.filter((record) => record.start_time_us_epoch !== '');
  expect(timed.length).toBeGreaterThan(0);
  // One offset for every row (the first trace entry's time_us), at or before every start.
  const offsets = timed.map(
    (record) =>
      Number(record.start_time_us_epoch) - Number(record.start_ms_from_trace_start) * 1000,
  );
  for (const offset of offsets) expect(Math.abs(offset - offsets[0]!)).toBeLessThan(1);
  const earliest = Math.min(...timed.map((record) => Number(record.start_time_us_epoch)));
  expect(offsets[0]!).toBeLessThanOrEqual(earliest + 0.5);
  const atFirstEntry = timed.find((record) => record.start_event === '0');
  if (atFirstEntry !== undefined) expect(atFirstEntry.start_ms_from_trace_start).toBe('0.000');
});

test('CSV: a frame or user_metadata that reads as a formula is written as text', async ({
  page,
}, testInfo) => {
  // Formulas (=HYPERLINK(…), =cmd|…, +1, -cmd, @SUM(1), a leading tab or CR) as frames and
  // user_metadata: a spreadsheet program would run them. Cells that are numbers stay numbers
  // (this file has none below zero, csv-format's unit test has); only text gets the '.
  const path = testInfo.outputPath('csv-formulas.pickle');
  await writeFile(path, csvFormulasSnapshot());
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('file-input').setInputFiles(path);
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  const { bytes } = await download(page, 'export-csv');
  const [header, ...rows] = parseCsv(bytes.toString('utf8'));
  expect(header).toEqual([...CSV_COLUMNS, 'user_metadata']);
  expect(rows).toHaveLength(2 + CSV_FORMULAS.length);
  const starts = new Set<string>();
  for (const row of rows) {
    expect(row).toHaveLength(header!.length);
    row.forEach((cell, i) => {
      if (cell !== '') starts.add(cell[0]!);
      // Numbers are numbers; every other cell starts as no formula does.
      if (/^-?\d+(\.\d+)?$/.test(cell)) return;
      expect(cell, `${header![i]}: ${cell}`).not.toMatch(/^[=+\-@\t\r＝＋－＠]/);
    });
  }
  expect(starts.has("'")).toBe(true);
  // Each formula is in the file, as the text it was.
  const column = (name: string): string[] => rows.map((row) => row[header!.indexOf(name)]!);
  for (const formula of CSV_FORMULAS) {
    expect(column('user_metadata')).toContain(`'${formula}`);
    expect(column('user_frames')).toContain(
      `'${formula}.py:${CSV_FORMULAS.indexOf(formula) + 1} ${formula}`,
    );
  }
});

/** The SVG the page exports from the tab shown, parsed by the browser. */
async function exportedSvg(
  page: Page,
): Promise<{ text: string; title: string; width: number; height: number }> {
  const { bytes } = await download(page, 'export-svg');
  const text = bytes.toString('utf8');
  const parsed = await page.evaluate((svg) => {
    const document = new DOMParser().parseFromString(svg, 'image/svg+xml');
    const root = document.documentElement;
    return {
      error: document.getElementsByTagName('parsererror').length > 0,
      root: root.localName,
      title: root.querySelector('title')?.textContent ?? '',
      width: Number(root.getAttribute('width')),
      height: Number(root.getAttribute('height')),
    };
  }, text);
  expect(parsed).toMatchObject({ error: false, root: 'svg' });
  return { text, title: parsed.title, width: parsed.width, height: parsed.height };
}

test('each tab exports its own chart: the buttons say which', async ({ page }, testInfo) => {
  const problems = await watchPageProblems(page);
  const multiGpu = join(
    snapshotsDirectory,
    'Constructor-Sun_code_location__memory_snapshot.pickle',
  );
  const base = 'Constructor-Sun_code_location__memory_snapshot';
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('file-input').setInputFiles(multiGpu);
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('export-bar')).toBeVisible();

  // Fragmentation: the chart with the figures the tab shows at the moment.
  await page.getByTestId('view-tab-fragmentation').click();
  await expect(page.getByTestId('fragmentation-panel')).toHaveAttribute('data-series', 'ready');
  await expect(page.getByTestId('export-png')).toHaveAttribute(
    'title',
    /^Export fragmentation as PNG/,
  );
  const fragmentation = await exportedSvg(page);
  expect(fragmentation.text).toContain('<g class="allocscope-fragmentation">');
  expect(fragmentation.title).toContain('cuda:1 · fragmentation');
  const largest = Number(
    await page.getByTestId('frag-moment-largest-free').getAttribute('data-bytes'),
  );
  expect(fragmentation.text).toContain(`largest free block ${formatBytes(largest)}`);
  const stage = (await page
    .locator('[data-testid="fragmentation-panel"] .frag-stage')
    .boundingBox())!;
  expect(fragmentation.width).toBe(Math.round(stage.width));
  const fragmentationPng = await download(page, 'export-png');
  expect(fragmentationPng.file.suggestedFilename()).toBe(`${base}.cuda1.fragmentation.png`);
  // As wide as on screen; at least as tall (a short pane still exports a readable chart).
  expect(fragmentation.height).toBeGreaterThanOrEqual(Math.round(stage.height));
  expect(pngSize(fragmentationPng.bytes)).toEqual({
    width: fragmentation.width * 2,
    height: fragmentation.height * 2,
  });
  await writeFile(testInfo.outputPath('fragmentation-2x.png'), fragmentationPng.bytes);

  // OOM: the verdict the tab shows, its holders.
  await page.getByTestId('view-tab-oom').click();
  await expect(page.getByTestId('oom-explainer')).toBeVisible();
  await expect(page.getByTestId('export-svg')).toHaveAttribute(
    'title',
    'Export the OOM explainer as SVG',
  );
  const oom = await exportedSvg(page);
  expect(oom.text).toContain('<g class="allocscope-oom">');
  const verdict = await page.getByTestId('oom-verdict').getAttribute('data-verdict');
  expect(oom.text).toContain(`data-verdict="${verdict}"`);
  const holderBytes = await page.getByTestId('oom-holder').first().getAttribute('data-bytes');
  expect(oom.text).toContain(`>${formatExactBytes(Number(holderBytes))}<`);
  const oomPng = await download(page, 'export-png');
  expect(oomPng.file.suggestedFilename()).toBe(`${base}.cuda1.oom.png`);
  expect(pngSize(oomPng.bytes)).toEqual({ width: oom.width * 2, height: oom.height * 2 });
  await writeFile(testInfo.outputPath('oom-2x.png'), oomPng.bytes);

  // Segments and the timeline (from the largest-allocations tab) keep their own pictures.
  await page.getByTestId('view-tab-segments').click();
  expect((await exportedSvg(page)).title).toContain('allocator segments');
  await page.getByTestId('view-tab-largest').click();
  await expect(page.getByTestId('export-svg')).toHaveAttribute(
    'title',
    'Export the timeline as SVG',
  );
  const timeline = await exportedSvg(page);
  expect(timeline.title).toContain('peak active');
  expect(timeline.text).not.toContain('allocscope-fragmentation');
  expect(await problems()).toEqual([]);
});
