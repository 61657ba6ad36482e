// `npm run bench -- --page-memory --only 6GB` (issue 25): a generated snapshot picked in the web
// build in Debian's Chromium, as a person picks it: whether the page shows its progress while it
// reads, the time to the first paint of its timeline, and the browser's memory (every Chromium
// process, sampled from /proc), before the pick and at its highest. With `--jobs=N`, each input is
// picked at 1 and N threads (the page's ?jobs=), alternating, --ui-runs times each: the page's
// decode in parts against its one-thread decode, in one run.

import { loadavg } from 'node:os';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumExecutablePath } from '../test/e2e/chromium';
import type { BenchInput } from './bench-inputs';
import { descendantsRss } from './process-rss';
import { PORT } from './ui-bench';

export interface PageMemoryRow {
  readonly label: string;
  readonly fileBytes: number;
  /** The page's ?jobs= (null: the page's own choice). */
  readonly threads: number | null;
  /** The threads that decoded it, as the page's status bar says. */
  readonly decodedOn: number | null;
  /** From the pick to the first frame with the timeline; null: it never came. */
  readonly firstPaintSeconds: number | null;
  /** The page's own words when it failed (a notice), else null. */
  readonly failure: string | null;
  /** The highest share the page's progress showed before the timeline (null: none seen). */
  readonly progressSeen: number | null;
  readonly browserBaseRssBytes: number;
  readonly browserPeakRssBytes: number;
  readonly load: string;
}

const PAINT_TIMEOUT_MS = 15 * 60_000;
const SAMPLE_MS = 250;

export async function measurePageMemory(
  input: BenchInput,
  threads: number | null = null,
): Promise<PageMemoryRow> {
  const loadBefore = loadavg()[0]!.toFixed(1);
  const browser = await chromium.launch({
    executablePath: chromiumExecutablePath,
    args: chromiumArgs,
  });
  let peak = 0;
  const sampler = setInterval(
    () => (peak = Math.max(peak, descendantsRss(process.pid))),
    SAMPLE_MS,
  );
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(
      `http://127.0.0.1:${PORT}/index.html${threads === null ? '' : `?jobs=${threads}`}`,
    );
    await page.waitForSelector('body[data-state="ready"]');
    const base = descendantsRss(process.pid);
    const started = performance.now();
    await page.setInputFiles('[data-testid="file-input"]', input.path);
    let progressSeen: number | null = null;
    let outcome: number | string | null = null;
    while (outcome === null && performance.now() - started < PAINT_TIMEOUT_MS) {
      const state = await page.evaluate(() => {
        if (document.querySelector('[data-testid="error-notice"]') !== null)
          return document.querySelector('[data-testid="error-notice"]')!.textContent ?? 'failed';
        if (document.querySelector('[data-testid="timeline"]') !== null) return 'painted';
        return /(\d+)%/.exec(document.body.innerText)?.[1] ?? '';
      });
      if (state === 'painted') outcome = (performance.now() - started) / 1000;
      else if (/^\d+$/.test(state)) progressSeen = Math.max(progressSeen ?? 0, Number(state));
      else if (state !== '') outcome = state;
      else await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      if (outcome === null && /^\d+$/.test(state))
        await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
    peak = Math.max(peak, descendantsRss(process.pid));
    const decodedOn = await page
      .locator('[data-tab-state="snapshot"]')
      .first()
      .getAttribute('data-decode-threads', { timeout: 1000 })
      .catch(() => null);
    return {
      label: input.size.label,
      fileBytes: input.bytes,
      threads,
      decodedOn: decodedOn === null ? null : Number(decodedOn),
      firstPaintSeconds: typeof outcome === 'number' ? outcome : null,
      failure: typeof outcome === 'string' ? outcome : outcome === null ? 'timed out' : null,
      progressSeen,
      browserBaseRssBytes: base,
      browserPeakRssBytes: peak,
      load: `${loadBefore}-${loadavg()[0]!.toFixed(1)}`,
    };
  } finally {
    clearInterval(sampler);
    await browser.close();
  }
}

const gb = (bytes: number): string => (bytes / 1e9).toFixed(2);

export function formatPageMemoryTable(rows: readonly PageMemoryRow[]): string {
  const lines = [
    'the web build in Chromium, a generated snapshot picked: progress, first paint, browser memory',
    '| input | file GB | ?jobs= | decoded on | progress seen | first paint | browser RSS before / peak GB | peak / file | load |',
    '| ----- | ------- | ------ | ---------- | ------------- | ----------- | ---------------------------- | ----------- | ---- |',
  ];
  for (const row of rows) {
    const paint =
      row.firstPaintSeconds === null
        ? `failed: ${row.failure}`
        : `${row.firstPaintSeconds.toFixed(1)} s`;
    const progress = row.progressSeen === null ? 'none' : `up to ${row.progressSeen}%`;
    lines.push(
      `| ${row.label} | ${gb(row.fileBytes)} | ${row.threads ?? '-'} | ${row.decodedOn ?? '-'} | ${progress} | ${paint} | ${gb(row.browserBaseRssBytes)} / ${gb(row.browserPeakRssBytes)} | ${(row.browserPeakRssBytes / row.fileBytes).toFixed(2)} | ${row.load} |`,
    );
  }
  return lines.join('\n');
}

/**
 * Per input and ?jobs=: the median first paint of the runs, and its ratio to the input's runs at
 * one thread (run for run alternating, so the load is shared).
 */
export function formatPageThreadsTable(rows: readonly PageMemoryRow[]): string {
  const lines = [
    "the page's first paint by decode threads (medians; ratio: 1 thread / N threads)",
    '| input | ?jobs= | runs | first paint median | runs (s) | speed-up | browser RSS peak GB |',
    '| ----- | ------ | ---- | ------------------ | -------- | -------- | ------------------- |',
  ];
  const labels = [...new Set(rows.map((row) => row.label))];
  for (const label of labels) {
    const ofLabel = rows.filter((row) => row.label === label);
    const groups = [...new Set(ofLabel.map((row) => row.threads))];
    const medianOf = (threads: number | null): number =>
      median(
        ofLabel
          .filter((row) => row.threads === threads && row.firstPaintSeconds !== null)
          .map((row) => row.firstPaintSeconds!),
      );
    const oneThread = medianOf(1);
    for (const threads of groups) {
      const runs = ofLabel.filter((row) => row.threads === threads);
      const paint = medianOf(threads);
      lines.push(
        `| ${label} | ${threads ?? '-'} | ${runs.length} | ${paint.toFixed(2)} s | ${runs.map((row) => row.firstPaintSeconds?.toFixed(2) ?? 'failed').join(', ')} | ${(oneThread / paint).toFixed(2)}x | ${gb(Math.max(...runs.map((row) => row.browserPeakRssBytes)))} |`,
      );
    }
  }
  return lines.join('\n');
}

function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
