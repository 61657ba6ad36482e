// The benchmark's `allocscope serve` side: the built command serving one input on a free port,
// and a fresh page opening its URL, timed as the picked file is: from the moment the page asks
// the server what it serves (served.json, the counterpart of the user's choice) to the first
// frame after the timeline is ready; the time the page itself took to load is logged beside it.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from '@playwright/test';

export interface ServeProcess {
  url: string;
  stop(): Promise<void>;
}

export async function startServe(root: string, file: string): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [join(root, 'out/cli/allocscope.js'), 'serve', '--port', '0', file],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /http:\/\/127\.0\.0\.1:\d+\/[\w-]{43}\//.exec(out);
      if (found && out.includes('Ctrl+C')) resolve(found[0]);
    });
    child.once('exit', (code) => reject(new Error(`allocscope serve exited ${code}: ${stderr}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

/**
 * Opens the served page; returns the first paint in ms from its request for served.json, and
 * when that request began (page time).
 */
export async function openServed(
  page: Page,
  url: string,
): Promise<{ firstPaintMs: number; askedAtMs: number }> {
  // Before the page's own scripts: the first frame once a decoded tab is ready.
  await page.addInitScript(() => {
    const marks = window as unknown as { paintedAt?: number };
    const watch = () => {
      const ready =
        document.body?.dataset['state'] === 'ready' &&
        document.querySelector('[data-tab-state="snapshot"]') !== null;
      if (ready) requestAnimationFrame(() => (marks.paintedAt ??= performance.now()));
      else requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
  });
  await page.goto(url);
  await page.waitForFunction(
    () => (window as unknown as { paintedAt?: number }).paintedAt !== undefined,
    undefined,
    { timeout: 180_000, polling: 50 },
  );
  const { askedAt, paintedAt, loadedAt } = await page.evaluate(() => {
    const asked = performance
      .getEntriesByType('resource')
      .find((entry) => entry.name.endsWith('/served.json'));
    return {
      askedAt: asked?.startTime ?? NaN,
      paintedAt: (window as unknown as { paintedAt: number }).paintedAt,
      loadedAt: performance.getEntriesByType('navigation')[0]?.duration ?? NaN,
    };
  });
  process.stdout.write(
    `  through serve: page loaded in ${(loadedAt / 1000).toFixed(2)} s, asked for the file at ` +
      `${(askedAt / 1000).toFixed(2)} s, first paint ${((paintedAt - askedAt) / 1000).toFixed(2)} s later\n`,
  );
  return { firstPaintMs: paintedAt - askedAt, askedAtMs: askedAt };
}
