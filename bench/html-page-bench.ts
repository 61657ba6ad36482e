// `npm run bench -- --html --only 500MB`: the one-file page of `allocscope html` on a generated
// snapshot: how long the CLI takes to write it and the memory it takes, the page's size, and, opened
// from disk (file://, no server) in Debian's Chromium, the time to the first paint of its
// timeline and the browser's peak memory (every Chromium process, sampled from /proc: a page from
// disk is not cross-origin isolated, so performance.measureUserAgentSpecificMemory is not there).

import { rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumExecutablePath } from '../test/e2e/chromium';
import { runMeasured } from './measure-command';
import { descendantsRss } from './process-rss';

export interface HtmlPageRow {
  readonly label: string;
  readonly fileBytes: number;
  readonly pageBytes: number;
  readonly writeSeconds: number;
  readonly writeMaxRssBytes: number | null;
  /** From navigation to the first frame with the snapshot's timeline; null: it never came. */
  readonly firstPaintSeconds: number | null;
  /** The page's own words when it failed (a notice), else null. */
  readonly failure: string | null;
  /** Every Chromium process together, the highest sample. */
  readonly browserPeakRssBytes: number;
  /** The page's main-thread JS heap once shown. */
  readonly pageHeapBytes: number | null;
  readonly load: number;
}

const PAINT_TIMEOUT_MS = 15 * 60_000;

export async function measureHtmlPage(
  cli: string,
  input: { label: string; path: string; bytes: number },
  dataDir: string,
): Promise<HtmlPageRow> {
  const load = loadavg()[0]!;
  const output = join(dataDir, `page-${input.label}.html`);
  const written = runMeasured(process.execPath, [cli, 'html', input.path, '-o', output]);
  if (written.status !== 0)
    throw new Error(`allocscope html failed: ${written.stderr.trim() || written.error?.message}`);
  const pageBytes = statSync(output).size;
  const browser = await chromium.launch({
    executablePath: chromiumExecutablePath,
    args: [...chromiumArgs, '--enable-precise-memory-info'],
  });
  let peakRss = 0;
  const sampler = setInterval(
    () => (peakRss = Math.max(peakRss, descendantsRss(process.pid))),
    250,
  );
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(pathToFileURL(output).href, { timeout: PAINT_TIMEOUT_MS });
    const outcome = await page
      .waitForFunction(
        // Checked every frame: the first frame with the snapshot shown, timed from navigation.
        () =>
          document.body?.dataset['state'] === 'ready' &&
          document.querySelector('[data-testid="summary-strip"]') !== null
            ? performance.now()
            : (document.querySelector('[data-testid="error-notice"]')?.textContent ?? null),
        undefined,
        { timeout: PAINT_TIMEOUT_MS, polling: 'raf' },
      )
      .then((handle) => handle.jsonValue() as Promise<number | string>);
    const heap = await page.evaluate(
      () =>
        (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory
          ?.usedJSHeapSize ?? null,
    );
    peakRss = Math.max(peakRss, descendantsRss(process.pid));
    return {
      label: input.label,
      fileBytes: input.bytes,
      pageBytes,
      writeSeconds: written.wallSeconds,
      writeMaxRssBytes: written.maxRssBytes,
      firstPaintSeconds: typeof outcome === 'number' ? outcome / 1000 : null,
      failure: typeof outcome === 'string' ? outcome : null,
      browserPeakRssBytes: peakRss,
      pageHeapBytes: heap,
      load,
    };
  } finally {
    clearInterval(sampler);
    await browser.close();
    rmSync(output, { force: true });
  }
}

const mb = (bytes: number | null): string => (bytes === null ? '—' : (bytes / 1e6).toFixed(0));

export function formatHtmlPageTable(rows: readonly HtmlPageRow[]): string {
  const lines = [
    'allocscope html: the one-file page, written and opened from file:// in Chromium',
    'input    snapshot MB  page MB  write s  write RSS MB  first paint s  browser peak RSS MB  page heap MB  load',
  ];
  for (const row of rows)
    lines.push(
      [
        row.label.padEnd(8),
        mb(row.fileBytes).padStart(11),
        mb(row.pageBytes).padStart(8),
        row.writeSeconds.toFixed(1).padStart(8),
        mb(row.writeMaxRssBytes).padStart(13),
        (row.firstPaintSeconds === null
          ? `failed: ${row.failure}`
          : row.firstPaintSeconds.toFixed(1)
        ).padStart(14),
        mb(row.browserPeakRssBytes).padStart(20),
        mb(row.pageHeapBytes).padStart(13),
        row.load.toFixed(1).padStart(5),
      ].join(' '),
    );
  return lines.join('\n');
}
