// The app's side of `npm run bench`: in Debian Chromium, with the web build served on loopback,
// the time from a file being selected to the first paint of its timeline, and the frame time of
// zooming and panning the timeline (input handling plus the redraw it causes), and the long tasks
// (> 50 ms on the main thread) while opening the file (from the pick to a moment after the first
// paint, when the page builds what it did not have) and while zooming: paced (one wheel event a
// frame) and in bursts (a trackpad or a fast wheel sends several per frame). Each input is measured in several fresh
// pages; the table shows medians, the worst long task of all runs, and the host's load. Each
// input is also opened through `allocscope serve` (the page at its URL fetches the file), run for
// run alternating with the picked file, so both rows see the same machine.

import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumArgs, chromiumExecutablePath } from '../test/e2e/chromium';
import { openServed, startServe } from './serve-bench';

export interface UiBenchRow {
  label: string;
  fileBytes: number;
  /** From the pick (or the page's request for its file) to the first curves drawn while it decodes; null where none were. */
  firstCurvesSeconds: number | null;
  firstPaintSeconds: number;
  allocations: number;
  /** Zoom/pan frame times in milliseconds (medians over the runs of each run's percentile). */
  frameP50Ms: number;
  frameP95Ms: number;
  /** Frame p95 while wheel events arrive several per frame. */
  burstP95Ms: number;
  /** The longest main-thread task seen while zooming, over every run; 0 when none > 50 ms. */
  longestTaskMs: number;
  /** Tasks over 50 ms while zooming, over every run. */
  longTasks: number;
  /** Tasks over 50 ms while opening (OPENING_TAIL_MS past the first paint): the median per run. */
  openingLongTasks: number;
  /** The longest of them over every run; 0 when none > 50 ms. */
  openingLongestTaskMs: number;
  runs: number;
  /** 1-minute load average of the host when this input's runs started. */
  load: number;
  /** How the file reached the page: picked from disk, or fetched from `allocscope serve`. */
  via: 'disk' | 'serve';
}

export interface UiRun {
  firstCurvesSeconds: number | null;
  firstPaintSeconds: number;
  allocations: number;
  frames: number[];
  burstFrames: number[];
  longTaskMs: number[];
  /** Tasks over 50 ms from the pick (or the page's start, when served) to OPENING_TAIL_MS after the first paint. */
  openingTaskMs: number[];
}

export const PORT = 4391;
const FRAMES = 60;
const BURST_EVENTS_PER_FRAME = 4;
/** How long after the first paint the opening's tasks are counted: the page builds after it what it did not have. */
const OPENING_TAIL_MS = 1500;

export async function runUiBench(
  root: string,
  inputs: { label: string; path: string; bytes: number }[],
  runs: number,
): Promise<UiBenchRow[]> {
  const server = await startServer(root);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: chromiumExecutablePath, args: chromiumArgs });
    const rows: UiBenchRow[] = [];
    for (const input of inputs) {
      const load = loadavg()[0]!;
      const picked: UiRun[] = [];
      const served: UiRun[] = [];
      const serve = await startServe(root, input.path);
      try {
        for (let run = 0; run < runs; run++) {
          for (const via of ['disk', 'serve'] as const) {
            const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
            try {
              if (via === 'disk') picked.push(await measureInput(page, input));
              else {
                await page.addInitScript(watchOpeningTasks);
                await page.addInitScript(watchFirstCurves);
                const opened = await openServed(page, serve.url);
                served.push(await measureAfterPaint(page, opened.firstPaintMs, opened.askedAtMs));
              }
            } finally {
              await page.close();
            }
          }
        }
      } finally {
        await serve.stop();
      }
      rows.push(summarizeRuns(input, picked, load, 'disk'));
      rows.push(summarizeRuns(input, served, load, 'serve'));
    }
    return rows;
  } finally {
    await browser?.close();
    server.kill();
  }
}

function summarizeRuns(
  input: { label: string; bytes: number },
  measured: readonly UiRun[],
  load: number,
  via: 'disk' | 'serve',
): UiBenchRow {
  const sortedFrames = measured.map((run) => [...run.frames].sort((a, b) => a - b));
  const sortedBursts = measured.map((run) => [...run.burstFrames].sort((a, b) => a - b));
  const longTasks = measured.flatMap((run) => run.longTaskMs);
  return {
    label: input.label,
    fileBytes: input.bytes,
    firstCurvesSeconds: medianOrNull(measured.map((run) => run.firstCurvesSeconds)),
    firstPaintSeconds: median(measured.map((run) => run.firstPaintSeconds)),
    allocations: measured[0]?.allocations ?? NaN,
    frameP50Ms: median(sortedFrames.map((frames) => percentile(frames, 0.5))),
    frameP95Ms: median(sortedFrames.map((frames) => percentile(frames, 0.95))),
    burstP95Ms: median(sortedBursts.map((frames) => percentile(frames, 0.95))),
    longestTaskMs: longTasks.length === 0 ? 0 : Math.max(...longTasks),
    longTasks: longTasks.length,
    openingLongTasks: median(measured.map((run) => run.openingTaskMs.length)),
    openingLongestTaskMs: Math.max(0, ...measured.flatMap((run) => run.openingTaskMs)),
    runs: measured.length,
    load,
    via,
  };
}

/** How long after the page is ready the file is chosen. */
const THINK_TIME_MS = 1000;

export async function measureInput(
  page: Page,
  input: { label: string; path: string; bytes: number },
): Promise<UiRun> {
  await page.addInitScript(watchOpeningTasks);
  await page.addInitScript(watchFirstCurves);
  await page.goto(`http://127.0.0.1:${PORT}/index.html`);
  await page.waitForSelector('body[data-state="ready"]');
  // A person picks or drops a file a moment after the window shows, never in the same
  // millisecond: by then the page has started its spare decode worker (api/page-decoder.ts).
  // First paint is timed from the choice, as the person sees it.
  await page.waitForTimeout(THINK_TIME_MS);
  // In-page clocks: selection (the input's change event) and the first frame after "ready".
  await page.evaluate(() => {
    const marks = window as unknown as { selectedAt?: number; paintedAt?: number };
    document.addEventListener('change', () => (marks.selectedAt ??= performance.now()), {
      capture: true,
    });
    new MutationObserver(() => {
      if (
        document.body.dataset['state'] === 'ready' &&
        marks.selectedAt !== undefined &&
        marks.paintedAt === undefined
      ) {
        requestAnimationFrame(() => (marks.paintedAt ??= performance.now()));
      }
    }).observe(document.body, { attributes: true, attributeFilter: ['data-state'] });
  });
  await page.setInputFiles('[data-testid="file-input"]', input.path);
  await page.waitForFunction(
    () => (window as unknown as { paintedAt?: number }).paintedAt !== undefined,
    undefined,
    {
      timeout: 180_000,
      polling: 50,
    },
  );
  const { firstPaintMs, selectedAt } = await page.evaluate(() => {
    const marks = window as unknown as { selectedAt: number; paintedAt: number };
    return { firstPaintMs: marks.paintedAt - marks.selectedAt, selectedAt: marks.selectedAt };
  });
  return measureAfterPaint(page, firstPaintMs, selectedAt);
}

/**
 * Collects the page's tasks over 50 ms from its start (an init script, before the page's own
 * scripts): the opening's share is read once the file is painted (openingTasks).
 */
export function watchOpeningTasks(): void {
  const marks = window as unknown as { openingTasks: [number, number][] };
  marks.openingTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      marks.openingTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
}

/**
 * Notes the frame after the page first draws the curves of the entries decoded so far (the
 * progress view's decode-preview with rows), as an init script.
 */
export function watchFirstCurves(): void {
  const marks = window as unknown as { curvesAt?: number };
  new MutationObserver((_, observer) => {
    const preview = document.querySelector('[data-testid="decode-preview"]');
    if (Number(preview?.getAttribute('data-rows') ?? 0) > 0) {
      observer.disconnect();
      requestAnimationFrame(() => (marks.curvesAt ??= performance.now()));
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
}

/** The durations of the tasks over 50 ms that began after `fromMs`, OPENING_TAIL_MS after the paint. */
async function openingTasks(page: Page, fromMs: number): Promise<number[]> {
  await page.waitForTimeout(OPENING_TAIL_MS);
  return page.evaluate(
    (from) =>
      (window as unknown as { openingTasks: [number, number][] }).openingTasks
        .filter(([start]) => start >= from)
        .map(([, duration]) => duration),
    fromMs,
  );
}

/**
 * Once the file's timeline is painted: the opening's long tasks (those from `openingFromMs`, page
 * time), its allocations, zoom/pan frames and long tasks.
 */
export async function measureAfterPaint(
  page: Page,
  firstPaintMs: number,
  openingFromMs: number,
): Promise<UiRun> {
  const openingTaskMs = await openingTasks(page, openingFromMs);
  const curvesAt = await page.evaluate(() => (window as unknown as { curvesAt?: number }).curvesAt);
  const allocations = await page.evaluate(() =>
    Number(
      document.querySelector('[data-testid="timeline"]')?.getAttribute('data-allocations') ?? NaN,
    ),
  );
  await startLongTaskObserver(page);
  const frames = await measureFrames(page, 1);
  const burstFrames = await measureFrames(page, BURST_EVENTS_PER_FRAME);
  const longTaskMs = await page.evaluate(
    () => (window as unknown as { longTasks: number[] }).longTasks,
  );
  return {
    firstCurvesSeconds: curvesAt === undefined ? null : (curvesAt - openingFromMs) / 1000,
    firstPaintSeconds: firstPaintMs / 1000,
    allocations,
    frames,
    burstFrames,
    longTaskMs,
    openingTaskMs,
  };
}

/** Collects main-thread tasks over 50 ms from now on (Chromium's Long Tasks API). */
async function startLongTaskObserver(page: Page): Promise<void> {
  await page.evaluate(() => {
    const marks = window as unknown as { longTasks: number[] };
    marks.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) marks.longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
}

/**
 * Zooms in first (not measured), then cycles zoom in, pan right, zoom out, pan left, so every
 * measured input really changes the view; per frame: the handlers' time plus the frame's work.
 * `perFrame` wheel events are dispatched back to back before each frame.
 */
async function measureFrames(page: Page, perFrame: number): Promise<number[]> {
  return page.evaluate(
    async ({ count, perFrame }) => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="timeline-canvas"]');
      if (canvas === null) throw new Error('no timeline canvas');
      const box = canvas.getBoundingClientRect();
      const nextFrame = (): Promise<number> =>
        new Promise((resolve) => requestAnimationFrame((start) => resolve(start)));
      const wheel = (step: number, x: number): WheelEvent => {
        const kind = step % 4; // 0 zoom in, 1 pan right, 2 zoom out, 3 pan left
        const pan = kind === 1 || kind === 3;
        return new WheelEvent('wheel', {
          bubbles: true,
          cancelable: true,
          clientX: box.left + box.width * x,
          clientY: box.top + box.height / 2,
          deltaY: pan ? 0 : kind === 0 ? -120 : 120,
          deltaX: pan ? (kind === 1 ? 120 : -120) : 0,
        });
      };
      for (let i = 0; i < 5; i++) {
        canvas.dispatchEvent(wheel(0, 0.5));
        await nextFrame();
        await nextFrame();
      }
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        await nextFrame();
        const dispatched = performance.now();
        for (let k = 0; k < perFrame; k++) {
          canvas.dispatchEvent(wheel(i, 0.35 + (0.3 * ((i * 7 + k) % 10)) / 10));
        }
        const handled = performance.now();
        // Our callback runs after the chart's own redraw callback of the same frame.
        const frameStart = await nextFrame();
        const drawn = performance.now();
        times.push(handled - dispatched + Math.max(0, drawn - Math.max(frameStart, handled)));
      }
      return times;
    },
    { count: FRAMES, perFrame },
  );
}

/** The median of the values that are there; null where none is. */
function medianOrNull(values: readonly (number | null)[]): number | null {
  const present = values.filter((value): value is number => value !== null);
  return present.length === 0 ? null : median(present);
}

function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export async function startServer(root: string): Promise<ChildProcess> {
  const server = spawn(
    process.execPath,
    [join(root, 'scripts/serve-static.mjs'), join(root, 'out/web'), String(PORT)],
    {
      stdio: 'ignore',
    },
  );
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const response = await fetch(`http://127.0.0.1:${PORT}/index.html`);
      if (response.ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill();
  throw new Error('the static server for the web build did not start');
}
