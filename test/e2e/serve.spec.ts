// `allocscope serve` end to end (issue 23): the built command serves two real snapshots and a
// folder of ranks on a free port; the page at the URL it prints opens both files as tabs with the
// CLI's figures, the folder as a Ranks page, says where they are served from, and names a file in
// the folder that is no snapshot. The static web build, which no server marks, asks for nothing.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import type { SummaryDocument } from '../../src/shared/report/summary-report';
import { formatBytes } from '../../src/shared/format/units';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';

test.use({ viewport: { width: 1280, height: 720 } });

const CLI = resolve('out/cli/allocscope.js');
const real = (name: string) => resolve('test/fixtures/real', name);
const ADAM = real('a0kuma_pytorchMemoryViz__tests__gpu_memory_snapshot-adam.pickle');
const LAYOUT = real('Muduard_LayoutEditing__memory_snapshot.pickle');
const RANK_SOURCES = [
  real('Yiyi-philosophy_LLM-inference__oom_snapshot.pickle'),
  real('drisspg_transformer_nuggets__test__data__mini_snapshot.pickle'),
];

// Made in beforeAll, not at import: with fullyParallel a worker can come back to this file after
// its afterAll removed the folder, and the module is not imported again.
let directory = '';
let folder = '';
let server: ChildProcess | null = null;
let url = '';
let stderr = '';

test.beforeAll(async () => {
  assertChromiumInstalled();
  directory = mkdtempSync(join(tmpdir(), 'allocscope-serve-e2e-'));
  folder = join(directory, 'job');
  mkdirSync(folder);
  RANK_SOURCES.forEach((source, rank) => copyFileSync(source, join(folder, `rank${rank}.pickle`)));
  // Named like a snapshot, it is not one: the page names it in a notice.
  writeFileSync(join(folder, 'rank2.pickle'), 'not a pickle at all\n');
  writeFileSync(join(folder, 'notes.txt'), 'left alone');
  // A link out of the folder is never served.
  symlinkSync(ADAM, join(folder, 'rank9.pickle'));
  ({ server, url } = await startServe([ADAM, LAYOUT, folder], (text) => (stderr += text)));
});

test.afterAll(async () => {
  await stopServe(server);
  rmSync(directory, { recursive: true, force: true });
});

/** `allocscope serve` on a free port with these paths: the process and its printed URL. */
async function startServe(
  paths: readonly string[],
  onStderr: (text: string) => void = () => {},
): Promise<{ server: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...paths], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
    onStderr(chunk.toString());
  });
  const printed = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\//.exec(out);
      if (found) resolveUrl(found[0]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${errors}`)));
  });
  return { server: child, url: printed };
}

async function stopServe(child: ChildProcess | null): Promise<void> {
  if (child === null || child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGINT');
  await exited;
}

function cliSummary(path: string): SummaryDocument {
  return JSON.parse(
    execFileSync(process.execPath, [CLI, 'summary', path, '--json'], { encoding: 'utf8' }),
  ) as SummaryDocument;
}

test('the printed URL opens both files with the figures of the CLI, the folder as ranks', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  expect(stderr).toContain('rank9.pickle: a symbolic link out of the folder (left out)');
  const problems = await watchPageProblems(page);
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto(url);
  const tabs = page.getByTestId('tab');
  // Two files and the folder's two snapshots decoded; its third file refused, by name.
  await expect(page.locator('[data-tab-state="snapshot"]')).toHaveCount(4, { timeout: 60_000 });
  await expect(tabs).toHaveCount(4);
  const notice = page.getByTestId('error-notice');
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText('rank2.pickle');
  await expect(page.locator('body')).toHaveAttribute('data-state', /ready|error/);

  // The folder opened as a job's ranks, on its own Ranks page.
  const rows = page.getByTestId('ranks-table').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  expect(
    await rows.evaluateAll((all) => all.map((row) => Number(row.getAttribute('data-rank')))),
  ).toEqual([0, 1]);
  for (const [rank, source] of RANK_SOURCES.entries()) {
    const summary = cliSummary(source);
    // Each rank's first device with the largest active peak, as the Ranks page reads it.
    const peak = Math.max(...summary.devices.map((device) => device.active_bytes.peak));
    await expect(page.locator(`tr[data-rank="${rank}"]`)).toHaveAttribute(
      'data-peak',
      String(peak),
    );
  }

  for (const path of [ADAM, LAYOUT]) {
    await page.locator(`[data-testid="tab"][data-file-name="${basename(path)}"]`).click();
    await expect(page.getByTestId('snapshot-page')).toBeVisible();
    const device = Number(await page.getByTestId('device-select').inputValue());
    const summary = cliSummary(path).devices.find((candidate) => candidate.device === device)!;
    const strip = page.getByTestId('summary-strip');
    for (const [testId, bytes] of [
      ['summary-active-peak', summary.active_bytes.peak],
      ['summary-reserved-peak', summary.reserved_bytes!.peak],
    ] as const) {
      await expect(strip.getByTestId(testId)).toHaveAttribute('data-bytes', String(bytes));
      await expect(strip.getByTestId(testId)).toHaveText(formatBytes(bytes));
    }
    // Where it comes from: the machine (in the header: a laptop's window hides the status bar),
    // and the path there.
    const mark = page.getByTestId('served-from-mark');
    await expect(mark).toBeVisible();
    await expect(mark).toHaveText(`from ${hostname()}`);
    await expect(mark).toHaveAttribute(
      'title',
      `Served by allocscope serve from ${hostname()}:${path}`,
    );
    await expect(page.locator('[data-testid="tab"][aria-selected="true"]')).toHaveAttribute(
      'title',
      new RegExp(
        `\\nServed by allocscope serve from ${hostname()}:${path.replaceAll('.', '\\.')}$`,
      ),
    );
    const servedFrom = page.getByTestId('served-from');
    await expect(servedFrom).toHaveText(`served from ${hostname()}`);
    await expect(servedFrom).toHaveAttribute(
      'title',
      `Served by allocscope serve from ${hostname()}:${path}`,
    );
  }
  await page.screenshot({ path: testInfo.outputPath('served-1280x720.png') });
  // The decode worker the script ahead of the bundle started, from its own file (the policy let
  // it: no problem reported); the page's own workers are blob: URLs.
  expect(workers[0]).toBe(`${url}assets/decode-worker.js`);
  expect(workers.filter((address) => address.endsWith('decode-worker.js'))).toHaveLength(1);
  expect(await problems()).toEqual([]);
});

test('a served file decodes in parts, read by range requests, with ?jobs=3', async ({ page }) => {
  const file = real(
    'LINYUNLinYun_CS336-assignment2-systems__cs336_systems__results__memory_profiles__xl_ctx128_full_step_bf16.pickle',
  );
  const problems = await watchPageProblems(page);
  const served = await startServe([file]);
  try {
    await page.goto(`${served.url}?jobs=3`);
    const tab = page.locator('[data-tab-state="snapshot"]');
    await expect(tab).toHaveCount(1, { timeout: 60_000 });
    await expect(tab).toHaveAttribute('data-decode-threads', '3');
    const summary = cliSummary(file).devices[0]!;
    const strip = page.getByTestId('summary-strip');
    for (const [testId, bytes] of [
      ['summary-active-peak', summary.active_bytes.peak],
      ['summary-reserved-peak', summary.reserved_bytes!.peak],
      ['summary-active-final', summary.active_bytes.final],
    ] as const)
      await expect(strip.getByTestId(testId)).toHaveAttribute('data-bytes', String(bytes));
    await expect(strip.getByTestId('summary-events')).toHaveAttribute(
      'data-count',
      String(summary.trace_entries),
    );
  } finally {
    await stopServe(served.server);
  }
  expect(await problems()).toEqual([]);
});

test('the static web build is not served: it asks for no list of files', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const problems = await watchPageProblems(page);
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('tab')).toHaveCount(0);
  // Nor does it load the served page's scripts (served-prestart.js, its decode-worker.js).
  expect(requested.filter((address) => /served|decode-worker/.test(address))).toEqual([]);
  expect(await problems()).toEqual([]);
});
