// The app's side of `npm run bench`: in Debian Chromium, with the web build served on loopback,
// the time from a file being selected to the first paint of its timeline, and the frame time of
// zooming and panning the timeline (input handling plus the redraw it causes).

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumArgs, chromiumExecutablePath } from '../test/e2e/chromium';

export interface UiBenchRow {
  label: string;
  fileBytes: number;
  firstPaintSeconds: number;
  allocations: number;
  /** Zoom/pan frame times in milliseconds. */
  frameP50Ms: number;
  frameP95Ms: number;
}

const PORT = 4391;
const FRAMES = 60;

export async function runUiBench(
  root: string,
  inputs: { label: string; path: string; bytes: number }[],
): Promise<UiBenchRow[]> {
  const server = await startServer(root);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: chromiumExecutablePath, args: chromiumArgs });
    const rows: UiBenchRow[] = [];
    for (const input of inputs) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      try {
        rows.push(await measureInput(page, input));
      } finally {
        await page.close();
      }
    }
    return rows;
  } finally {
    await browser?.close();
    server.kill();
  }
}

async function measureInput(
  page: Page,
  input: { label: string; path: string; bytes: number },
): Promise<UiBenchRow> {
  await page.goto(`http://127.0.0.1:${PORT}/index.html`);
  await page.waitForSelector('body[data-state="ready"]');
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
  const firstPaintMs = await page.evaluate(() => {
    const marks = window as unknown as { selectedAt: number; paintedAt: number };
    return marks.paintedAt - marks.selectedAt;
  });
  const allocations = await page.evaluate(() =>
    Number(
      document.querySelector('[data-testid="timeline"]')?.getAttribute('data-allocations') ?? NaN,
    ),
  );
  const frames = await measureFrames(page);
  frames.sort((a, b) => a - b);
  return {
    label: input.label,
    fileBytes: input.bytes,
    firstPaintSeconds: firstPaintMs / 1000,
    allocations,
    frameP50Ms: percentile(frames, 0.5),
    frameP95Ms: percentile(frames, 0.95),
  };
}

/**
 * Zooms in first (not measured), then cycles zoom in, pan right, zoom out, pan left, so every
 * measured input really changes the view; per frame: the handler's time plus the frame's work.
 */
async function measureFrames(page: Page): Promise<number[]> {
  return page.evaluate(async (count) => {
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
      const event = wheel(i, 0.35 + (0.3 * ((i * 7) % 10)) / 10);
      const dispatched = performance.now();
      canvas.dispatchEvent(event);
      const handled = performance.now();
      // Our callback runs after the chart's own redraw callback of the same frame.
      const frameStart = await nextFrame();
      const drawn = performance.now();
      times.push(handled - dispatched + Math.max(0, drawn - Math.max(frameStart, handled)));
    }
    return times;
  }, FRAMES);
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function startServer(root: string): Promise<ChildProcess> {
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
