/// <reference lib="dom" />
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import { reportDocumentSchema, type ReportDocument } from '../../src/shared/report/report-document';
import type { SummaryDocument } from '../../src/shared/report/summary-report';
import { formatExactBytes } from '../../src/shared/format/units';
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

const CSV_HEADER =
  'rank,address,size_bytes,block_bytes,start_event,end_event,start_time_us,lifetime_events,top_user_frame,stack';

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

/** Fields of one RFC 4180 line set (CRLF line ends, quoted fields with doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field).toBe('');
  return rows;
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
  const box = (await page.getByTestId('segments-view').boundingBox())!;

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
    String(summary.reserved_bytes.peak),
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
    const series = device.fragmentationSeries;
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

test('CSV: the largest-allocations table with exact figures', async ({ page }) => {
  await openAdam(page);
  const { file, bytes } = await download(page, 'export-csv');
  expect(file.suggestedFilename()).toBe(`${ADAM_BASE}.cuda0.largest-allocations.csv`);
  const text = bytes.toString('utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  const rows = parseCsv(text);
  expect(rows[0]!.join(',')).toBe(CSV_HEADER);
  const records = rows.slice(1);
  const tableRows = page.getByTestId('largest-row');
  expect(records.length).toBe(await tableRows.count());
  expect(records.length).toBeGreaterThan(0);
  for (const record of records) expect(record).toHaveLength(10);
  expect(records.map((record) => Number(record[0]))).toEqual(records.map((_r, i) => i + 1));

  // The first row is the table's first row (the table sorts by size, largest first).
  const first = records[0]!;
  await expect(tableRows.first().locator('td').first()).toHaveAttribute(
    'title',
    `${formatExactBytes(Number(first[2]))} B`,
  );
  await expect(tableRows.first()).toHaveAttribute('data-row', /\d+/);
  // Sizes never grow down the list.
  const sizes = records.map((record) => Number(record[2]));
  for (let i = 1; i < sizes.length; i++) expect(sizes[i]!).toBeLessThanOrEqual(sizes[i - 1]!);

  // The page opens a snapshot without an OOM at its active peak, where the CLI lists the same
  // largest allocations (sizes and addresses).
  const summary = cli<SummaryDocument>('summary', ADAM, '--json').devices[0]!;
  await expect(page.getByTestId('largest-table').locator('h3')).toContainText(
    `event ${formatExactBytes(summary.active_bytes.peak_event_index)}`,
  );
  const top = summary.largest_allocations_at_peak;
  expect(top.length).toBeGreaterThan(0);
  expect(sizes.slice(0, top.length)).toEqual(top.map((allocation) => allocation.bytes));
  expect(records.slice(0, top.length).map((record) => BigInt(record[1]!))).toEqual(
    top.map((allocation) => BigInt(allocation.address)),
  );
});
