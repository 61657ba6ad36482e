// `npm run bench -- --page-memory --only 6GB` (issue 25): a generated snapshot picked in the web
// build in Debian's Chromium, as a person picks it: whether the page shows its progress while it
// reads, the time to the first paint of its timeline, and the browser's memory (every Chromium
// process, sampled from /proc), before the pick and at its highest.

import { loadavg } from 'node:os';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumExecutablePath } from '../test/e2e/chromium';
import type { BenchInput } from './bench-inputs';
import { descendantsRss } from './process-rss';
import { PORT } from './ui-bench';

export interface PageMemoryRow {
  readonly label: string;
  readonly fileBytes: number;
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

export async function measurePageMemory(input: BenchInput): Promise<PageMemoryRow> {
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
    await page.goto(`http://127.0.0.1:${PORT}/index.html`);
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
    return {
      label: input.size.label,
      fileBytes: input.bytes,
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
    '| input | file GB | progress seen | first paint | browser RSS before / peak GB | peak / file | load |',
    '| ----- | ------- | ------------- | ----------- | ---------------------------- | ----------- | ---- |',
  ];
  for (const row of rows) {
    const paint =
      row.firstPaintSeconds === null
        ? `failed: ${row.failure}`
        : `${row.firstPaintSeconds.toFixed(1)} s`;
    const progress = row.progressSeen === null ? 'none' : `up to ${row.progressSeen}%`;
    lines.push(
      `| ${row.label} | ${gb(row.fileBytes)} | ${progress} | ${paint} | ${gb(row.browserBaseRssBytes)} / ${gb(row.browserPeakRssBytes)} | ${(row.browserPeakRssBytes / row.fileBytes).toFixed(2)} | ${row.load} |`,
    );
  }
  return lines.join('\n');
}
