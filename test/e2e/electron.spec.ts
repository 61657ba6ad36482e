/// <reference lib="dom" />
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { basename, join, resolve } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import type { SummaryDocument } from '../../src/shared/report/summary-report';

const mainEntry = resolve('out/main/index.js');
const ADAM = resolve(
  'test/fixtures/real/a0kuma_pytorchMemoryViz__tests__gpu_memory_snapshot-adam.pickle',
);
const DEMO = resolve('resources/demo-snapshot.pickle');

/** Device 0's active peak as the CLI (`npm run build`) reports it. */
function cliActivePeak(path: string): number {
  const output = execFileSync(
    process.execPath,
    [resolve('out/cli/allocscope.js'), 'summary', path, '--json'],
    {
      encoding: 'utf8',
    },
  );
  const document = JSON.parse(output) as SummaryDocument;
  return document.devices.find((device) => device.device === 0)!.active_bytes.peak;
}

/** The Electron binary's path, or why there is none (CI installs with ELECTRON_SKIP_BINARY_DOWNLOAD). */
function findElectronBinary(): { path: string } | { missing: string } {
  const missing =
    'Electron binary not installed (ELECTRON_SKIP_BINARY_DOWNLOAD); skipping Electron end-to-end tests';
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? { path } : { missing };
  } catch {
    return { missing };
  }
}

const electronBinary = findElectronBinary();
if ('missing' in electronBinary) console.log(electronBinary.missing);

async function launchApp(...extraArgs: string[]): Promise<ElectronApplication> {
  if (!('path' in electronBinary)) throw new Error(electronBinary.missing);
  // Always the built page, never a dev server; never Electron-as-Node.
  const ignored = new Set(['ELECTRON_RENDERER_URL', 'ELECTRON_RUN_AS_NODE']);
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !ignored.has(entry[0]),
    ),
  );
  const asRoot = process.getuid?.() === 0; // Chromium refuses to run as root with its OS sandbox
  return electron.launch({
    executablePath: electronBinary.path,
    args: [...(asRoot ? ['--no-sandbox'] : []), mainEntry, ...extraArgs],
    env,
  });
}

test.describe('Electron app', () => {
  test.skip('missing' in electronBinary, 'missing' in electronBinary ? electronBinary.missing : '');

  test.beforeAll(() => {
    if (!existsSync(mainEntry))
      throw new Error(`${mainEntry} not found; run \`npx electron-vite build\` first.`);
  });

  test('the window is isolated and sandboxed, and the page cannot leave', async () => {
    const app = await launchApp();
    try {
      const page = await app.firstWindow();
      await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');

      // getLastWebPreferences() is undocumented (absent from electron.d.ts) but is what Electron
      // itself reads back; the page-side checks below hold even if it ever disappears.
      const webPreferences = await app.evaluate(({ BrowserWindow }) => {
        const [window] = BrowserWindow.getAllWindows();
        const contents = window?.webContents as
          { getLastWebPreferences?: () => Electron.WebPreferences | null } | undefined;
        const preferences = contents?.getLastWebPreferences?.();
        return {
          contextIsolation: preferences?.contextIsolation,
          sandbox: preferences?.sandbox,
          nodeIntegration: preferences?.nodeIntegration,
          webSecurity: preferences?.webSecurity,
        };
      });
      expect(webPreferences).toEqual({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
      });

      const pageView = await page.evaluate(() => ({
        hasRequire: 'require' in window,
        hasProcess: 'process' in window,
        bridge: Object.keys(window.allocscope ?? {}).sort(),
      }));
      expect(pageView).toEqual({
        hasRequire: false,
        hasProcess: false,
        bridge: [
          'getRecentFiles',
          'onMenuCommand',
          'onMenuExport',
          'onSnapshotHandover',
          'openDemoSnapshot',
          'openDroppedFile',
          'openRecentFile',
          'saveExport',
          'settleSnapshot',
          'showOpenDialog',
          'signalRendererReady',
        ],
      });

      const startUrl = page.url();
      expect(await page.evaluate(() => window.open('https://example.com/'))).toBeNull();
      await page.evaluate(() => {
        window.location.href = 'https://example.com/';
      });
      await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
      expect(page.url()).toBe(startUrl);
    } finally {
      await app.close();
    }
  });

  test('a snapshot named on the command line opens, decoded in the page worker', async () => {
    const expected = cliActivePeak(ADAM);
    const app = await launchApp(ADAM);
    try {
      const page = await app.firstWindow();
      await expect(page.getByTestId('tab')).toHaveAttribute('data-file-name', basename(ADAM));
      await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
      await expect(page.getByTestId('summary-active-peak')).toHaveAttribute(
        'data-bytes',
        String(expected),
      );
    } finally {
      await app.close();
    }
  });

  test('the page reads no file it was not handed: allocscope-file: refuses other URLs', async () => {
    const app = await launchApp();
    try {
      const page = await app.firstWindow();
      await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
      const answers = await page.evaluate(async () => {
        const urls = [
          `allocscope-file://snapshot/${'A'.repeat(43)}`,
          'allocscope-file://snapshot/../../etc/passwd',
          'allocscope-file:///etc/passwd',
        ];
        return Promise.all(
          urls.map(async (url) => {
            const response = await fetch(url);
            return { status: response.status, body: (await response.json()) as unknown };
          }),
        );
      });
      for (const answer of answers) {
        expect(answer).toEqual({
          status: 404,
          body: {
            message: 'internal error: the link to this file is unknown or was already used',
            bugReport: expect.stringContaining('allocscope-file: request refused') as unknown,
          },
        });
      }
    } finally {
      await app.close();
    }
  });

  test('File > Open… opens the file chosen in the (stubbed) dialog', async () => {
    const expected = cliActivePeak(ADAM);
    const app = await launchApp();
    try {
      const page = await app.firstWindow();
      await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
      await app.evaluate(({ dialog, Menu }, path) => {
        // The native dialog cannot be driven; answer it as a user picking `path` would.
        dialog.showOpenDialog = (async () => ({
          canceled: false,
          filePaths: [path],
        })) as typeof dialog.showOpenDialog;
        Menu.getApplicationMenu()?.getMenuItemById('file-open')?.click();
      }, ADAM);
      await expect(page.getByTestId('tab')).toHaveAttribute('data-file-name', basename(ADAM));
      await expect(page.getByTestId('summary-active-peak')).toHaveAttribute(
        'data-bytes',
        String(expected),
      );
    } finally {
      await app.close();
    }
  });

  test('File > Open Folder of Ranks… opens its snapshots on the Ranks page', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'allocscope-e2e-ranks-'));
    for (const rank of [1, 0, 2]) await copyFile(ADAM, join(directory, `job_rank_${rank}.pickle`));
    await writeFile(join(directory, 'notes.txt'), 'not a snapshot');
    const app = await launchApp();
    try {
      const page = await app.firstWindow();
      await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
      await app.evaluate(({ dialog, Menu }, folder) => {
        // The native dialog cannot be driven; answer it as a user picking `folder` would.
        dialog.showOpenDialog = (async () => ({
          canceled: false,
          filePaths: [folder],
        })) as typeof dialog.showOpenDialog;
        Menu.getApplicationMenu()?.getMenuItemById('file-open-folder')?.click();
      }, directory);
      const rows = page.getByTestId('ranks-table').locator('tbody tr');
      await expect(rows).toHaveCount(3);
      expect(
        await rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-rank'))),
      ).toEqual(['0', '1', '2']);
    } finally {
      await app.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('a bad file on the command line shows an error naming it', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'allocscope-e2e-'));
    const badPath = join(directory, 'from-command-line.pickle');
    await writeFile(badPath, Buffer.alloc(4321));
    const app = await launchApp(badPath);
    try {
      const page = await app.firstWindow();
      await expect(page.locator('body')).toHaveAttribute('data-state', 'error');
      await expect(page.getByTestId('error-notice')).toContainText('from-command-line.pickle');
      await expect(page.getByTestId('tab')).toHaveCount(0);
    } finally {
      await app.close();
      await rm(directory, { recursive: true, force: true });
    }
  });

  test('the demo snapshot opens from the welcome page', async () => {
    test.skip(!existsSync(DEMO), `${DEMO} does not exist yet`);
    const app = await launchApp();
    try {
      const page = await app.firstWindow();
      await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
      await page.getByTestId('open-demo').click();
      await expect(page.getByTestId('tab')).toHaveAttribute(
        'data-file-name',
        'demo-snapshot.pickle',
      );
      await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
      await expect(page.getByTestId('summary-strip')).toBeVisible();
    } finally {
      await app.close();
    }
  });

  test('File > Export writes the CSV and JSON where the (stubbed) Save dialog says', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'allocscope-e2e-'));
    const app = await launchApp(ADAM);
    try {
      const page = await app.firstWindow();
      await expect(page.getByTestId('tab')).toHaveAttribute('data-file-name', basename(ADAM));
      await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
      await expect(page.getByTestId('export-bar')).toBeVisible();
      for (const [format, name] of [
        ['csv', 'table.csv'],
        ['json', 'report.json'],
      ] as const) {
        const target = join(directory, name);
        await app.evaluate(
          ({ dialog, Menu }, { target, format }) => {
            // The native dialog cannot be driven; answer it as a user choosing `target` would.
            dialog.showSaveDialog = (async () => ({
              canceled: false,
              filePath: target,
            })) as unknown as typeof dialog.showSaveDialog;
            Menu.getApplicationMenu()?.getMenuItemById(`file-export-${format}`)?.click();
          },
          { target, format },
        );
        await expect(page.getByTestId('export-notice')).toHaveAttribute('data-file-name', name);
        const text = await readFile(target, 'utf8');
        if (format === 'csv') expect(text.split('\r\n')[0]).toMatch(/^rank,address,size_bytes,/);
        else expect((JSON.parse(text) as { schema: string }).schema).toBe('allocscope.report/1');
      }
    } finally {
      await app.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
