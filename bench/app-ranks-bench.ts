// The app's side of a job's ranks (`npm run bench -- --ranks`): the 8 generated rank files opened
// in the web build in Chromium, as a folder (decoded side by side, as many at once as the cores
// and the memory allow) and one after the other (each file chosen once the one before is
// decoded), timed from the choice to the last tab decoded; and the memory the browser holds for
// it: the peak of the proportional set size (PSS: shared pages split between the processes that
// share them) summed over every Chromium process, sampled every 50 ms from /proc. Fresh pages,
// medians of several runs.

import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumArgs, chromiumExecutablePath } from '../test/e2e/chromium';
import { PORT, startServer } from './ui-bench';

export interface AppRanksRow {
  files: number;
  fileBytes: number;
  /** Median seconds from choosing the folder to every rank decoded. */
  togetherSeconds: number;
  /** Median seconds for the files chosen one after the other. */
  oneByOneSeconds: number;
  /** Peak PSS of all Chromium processes (the largest over the runs), and before opening. */
  togetherPeakBytes: number;
  oneByOnePeakBytes: number;
  idleBytes: number;
  /** Decodes seen running at once (the page's own count), most over the runs. */
  mostAtOnce: number;
  cores: number;
  runs: number;
  load: number;
}

const SAMPLE_MS = 50;
const TIMEOUT_MS = 300_000;

export async function measureAppRanks(
  root: string,
  folder: string,
  runs: number,
): Promise<AppRanksRow | { skipped: string }> {
  if (process.platform !== 'linux')
    return { skipped: 'the browser memory figure reads /proc (Linux only)' };
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.pickle'))
    .map((name) => join(folder, name));
  const server = await startServer(root);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: chromiumExecutablePath, args: chromiumArgs });
    const load = loadavg()[0]!;
    const together: number[] = [];
    const oneByOne: number[] = [];
    let togetherPeak = 0;
    let oneByOnePeak = 0;
    let idle = Infinity;
    let mostAtOnce = 0;
    let cores = 0;
    for (let run = 0; run < runs; run++) {
      for (const mode of ['together', 'one-by-one'] as const) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
        try {
          await page.goto(`http://127.0.0.1:${PORT}/index.html`);
          await page.waitForSelector('body[data-state="ready"]');
          await page.waitForTimeout(1000);
          cores = await page.evaluate(() => navigator.hardwareConcurrency);
          idle = Math.min(idle, chromiumPss(server.pid));
          const sampler = startSampler(server.pid);
          const started = performance.now();
          if (mode === 'together') {
            await countDecodesAtOnce(page);
            await page.getByTestId('folder-input').setInputFiles(folder);
            await waitForDecoded(page, files.length);
            mostAtOnce = Math.max(mostAtOnce, await page.evaluate(() => window.__mostAtOnce ?? 0));
          } else {
            for (const [i, file] of files.entries()) {
              await page.getByTestId('file-input').setInputFiles(file);
              await waitForDecoded(page, i + 1);
            }
          }
          const seconds = (performance.now() - started) / 1000;
          const peak = sampler.stop();
          if (mode === 'together') {
            together.push(seconds);
            togetherPeak = Math.max(togetherPeak, peak);
          } else {
            oneByOne.push(seconds);
            oneByOnePeak = Math.max(oneByOnePeak, peak);
          }
        } finally {
          await page.close();
        }
      }
    }
    return {
      files: files.length,
      fileBytes: Math.round(
        files.reduce((sum, file) => sum + readFileSync(file).byteLength, 0) / files.length,
      ),
      togetherSeconds: median(together),
      oneByOneSeconds: median(oneByOne),
      togetherPeakBytes: togetherPeak,
      oneByOnePeakBytes: oneByOnePeak,
      idleBytes: idle,
      mostAtOnce,
      cores,
      runs,
      load,
    };
  } finally {
    await browser?.close();
    server.kill();
  }
}

declare global {
  interface Window {
    __mostAtOnce?: number;
  }
}

/** Counts, in the page, the tabs reading or building at once (loading and not waiting). */
async function countDecodesAtOnce(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.__mostAtOnce = 0;
    new MutationObserver(() => {
      const loading = document.querySelectorAll('[data-tab-state="loading"]').length;
      const waiting = document.querySelectorAll('[data-tab-stage="waiting"]').length;
      window.__mostAtOnce = Math.max(window.__mostAtOnce ?? 0, loading - waiting);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

async function waitForDecoded(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (wanted) =>
      document.querySelectorAll('[data-tab-state="snapshot"]').length >= wanted &&
      document.querySelectorAll('[data-tab-state="loading"]').length === 0,
    count,
    { timeout: TIMEOUT_MS, polling: 50 },
  );
}

/** Samples the Chromium processes' summed PSS until stopped; returns the peak. */
function startSampler(serverPid: number | undefined): { stop(): number } {
  let peak = chromiumPss(serverPid);
  const timer = setInterval(() => {
    peak = Math.max(peak, chromiumPss(serverPid));
  }, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, chromiumPss(serverPid));
    },
  };
}

/** Σ PSS (bytes) of this process's descendants but the static server: the browser's processes. */
function chromiumPss(serverPid: number | undefined): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: the name may hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const isOurs = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at))
      if (at === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const pid of parents.keys()) {
    if (pid === serverPid || !isOurs(pid)) continue;
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const kb = /^Pss:\s+(\d+) kB/m.exec(rollup);
      if (kb) total += Number(kb[1]) * 1024;
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return total;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

export function formatAppRanksTable(row: AppRanksRow | { skipped: string }): string {
  if ('skipped' in row) return `the app's ranks: skipped (${row.skipped})`;
  const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;
  return [
    `the app's ranks: ${row.files} x ${mb(row.fileBytes)} in Chromium (web build), ${row.cores} cores, median of ${row.runs}, load ${row.load.toFixed(2)}`,
    'as a folder (together)        one after the other   speed-up  peak browser PSS together / one by one / idle',
    [
      `${row.togetherSeconds.toFixed(2)} s (${row.mostAtOnce} at once)`.padEnd(29),
      `${row.oneByOneSeconds.toFixed(2)} s`.padEnd(21),
      `${(row.oneByOneSeconds / row.togetherSeconds).toFixed(2)}x`.padEnd(9),
      `${mb(row.togetherPeakBytes)} / ${mb(row.oneByOnePeakBytes)} / ${mb(row.idleBytes)}`,
    ].join(' '),
  ].join('\n');
}
