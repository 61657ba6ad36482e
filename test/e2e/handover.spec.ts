/// <reference lib="dom" />
// Electron's hand-over, driven in Chromium where Electron cannot run. The page runs the real
// Electron client (src/renderer/api/electron-snapshot-client.ts) against a stand-in for the
// preload bridge that plays main's part: it hands over URLs, and records what the page reports
// back. Each URL is answered by main's own protocol handler (src/main/snapshot-protocol.ts, with
// its token table and Node's file system) through a Playwright route, so the page's decode worker
// fetches and decodes exactly what Electron's allocscope-file: scheme would give it. Only the
// transport differs: a same-origin http URL instead of allocscope-file://snapshot/<token>.

import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { expect, test, type Page, type Route } from '@playwright/test';
import { nodeSnapshotFileSystem, respondToSnapshotRequest } from '../../src/main/snapshot-protocol';
import { createSnapshotTokenTable, type SnapshotTokenTable } from '../../src/main/snapshot-tokens';
import { SNAPSHOT_SCHEME } from '../../src/main/snapshot-url';
import type {
  AllocscopeBridge,
  SnapshotHandover,
  SnapshotOutcome,
} from '../../src/preload/index.d';
import { assertChromiumInstalled } from './chromium';
import { watchPageProblems } from './page-problems';
import { decodeFile } from './snapshot-pages';

const ADAM = resolve(
  'test/fixtures/real/a0kuma_pytorchMemoryViz__tests__gpu_memory_snapshot-adam.pickle',
);

/** Where the page fetches what main would serve as allocscope-file://snapshot/<token>. */
const ROUTE_PATH = '/allocscope-file/snapshot/';

/** The page's WebContents id, as main's token table knows it. */
const PAGE = 1;

declare global {
  interface Window {
    /** The stand-in for main, on the page's side of the bridge. */
    __main?: {
      handOver(handover: SnapshotHandover): void;
      readonly settled: [string, SnapshotOutcome][];
      readySignals: number;
    };
  }
}

/** Before the page loads: a bridge like the preload's, with main's side in window.__main. */
async function installBridge(page: Page): Promise<void> {
  await page.addInitScript(() => {
    let listener: ((handover: SnapshotHandover) => void) | null = null;
    const main = {
      handOver: (handover: SnapshotHandover) => listener?.(handover),
      settled: [] as [string, SnapshotOutcome][],
      readySignals: 0,
    };
    const bridge: AllocscopeBridge = {
      showOpenDialog: () => Promise.resolve(),
      showOpenFolderDialog: () => Promise.resolve(),
      openRecentFile: () => {},
      openDroppedFile: () => false,
      openDemoSnapshot: () => {},
      getRecentFiles: () => Promise.resolve([]),
      onSnapshotHandover(next) {
        listener = next;
        return () => (listener = null);
      },
      settleSnapshot: (url, outcome) => void main.settled.push([url, outcome]),
      onMenuCommand: () => () => {},
      saveExport: () => Promise.resolve({ saved: false }),
      onMenuExport: () => () => {},
      signalRendererReady: () => void main.readySignals++,
    };
    Object.defineProperty(window, '__main', { value: main });
    Object.defineProperty(window, 'allocscope', { value: bridge });
  });
}

interface Served {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** Main's side: its token table, and its protocol handler answering the page's fetches. */
async function serveLikeMain(
  page: Page,
  options: { hold?: Promise<void> } = {},
): Promise<{ tokens: SnapshotTokenTable; served: Served[]; handOver: HandOver }> {
  const tokens = createSnapshotTokenTable();
  const served: Served[] = [];
  await page.route(`**${ROUTE_PATH}*`, async (route: Route) => {
    await options.hold;
    const request = route.request();
    const token = new URL(request.url()).pathname.slice(ROUTE_PATH.length);
    const response = await respondToSnapshotRequest(
      { method: request.method(), url: `${SNAPSHOT_SCHEME}://snapshot/${token}` },
      tokens,
      nodeSnapshotFileSystem,
    );
    served.push({ status: response.status, headers: response.headers });
    const body =
      typeof response.body === 'string'
        ? response.body
        : Buffer.from(await new Response(response.body).arrayBuffer());
    await route
      .fulfill({ status: response.status, headers: { ...response.headers }, body })
      .catch(() => {}); // the page cancelled meanwhile
  });
  const handOver: HandOver = async (path, fileName = basename(path), url?: string) => {
    const handoverUrl =
      url ?? new URL(ROUTE_PATH + tokens.issue({ path, fileName }, PAGE), page.url()).href;
    let sizeBytes: number | null = null;
    try {
      sizeBytes = statSync(path).size;
    } catch {
      // as main does: a file it cannot stat goes over without a size
    }
    await page.evaluate(
      ([url, fileName, sizeBytes]) =>
        window.__main!.handOver({ url, fileName, sizeBytes, rankGroup: null }),
      [handoverUrl, fileName, sizeBytes] as const,
    );
    return handoverUrl;
  };
  return { tokens, served, handOver };
}

type HandOver = (path: string, fileName?: string, url?: string) => Promise<string>;

/**
 * Chromium (156) reports some fetches whose body was read to its end through a stream reader as
 * aborted (net::ERR_ABORTED), a reporting quirk: a bare page loop reading a static file shows it
 * too, and a fetch read with blob() never does. The bytes are all there: the route served 200 and
 * the figures match.
 */
function isStreamReadQuirk(problem: string, url: string): boolean {
  return problem === `request failed: ${url} (net::ERR_ABORTED)`;
}

async function settled(page: Page): Promise<[string, SnapshotOutcome][]> {
  return page.evaluate(() => window.__main!.settled);
}

async function openPage(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  expect(await page.evaluate(() => window.__main!.readySignals)).toBeGreaterThan(0);
}

let directory = '';

test.beforeAll(async () => {
  assertChromiumInstalled();
  directory = await mkdtemp(join(tmpdir(), 'allocscope-handover-'));
});

test.afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

test.beforeEach(async ({ page }) => {
  await installBridge(page);
});

test('a file main hands over is fetched and decoded by the page worker', async ({ page }) => {
  const problems = await watchPageProblems(page);
  const expected = (await decodeFile(ADAM)).snapshot.devices[0]!.figures.active.peakBytes;
  const { served, handOver } = await serveLikeMain(page);
  await openPage(page);

  const url = await handOver(ADAM);
  await expect(page.getByTestId('tab')).toHaveAttribute('data-file-name', basename(ADAM));
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('summary-active-peak')).toHaveAttribute(
    'data-bytes',
    String(expected),
  );
  // One request, from the worker: the whole file, its size announced for the progress bar.
  expect(served).toEqual([
    {
      status: 200,
      headers: expect.objectContaining({
        'Content-Length': String((await stat(ADAM)).size),
      }) as unknown,
    },
  ]);
  // The page told main, which would now add the file to Open Recent and drop its token.
  expect(await settled(page)).toEqual([[url, 'decoded']]);
  expect((await problems()).filter((problem) => !isStreamReadQuirk(problem, url))).toEqual([]);
});

test('a file that cannot be read says why, naming it, as the file’s fault', async ({ page }) => {
  const folder = join(directory, 'folder.pickle');
  await mkdir(folder);
  const files: [path: string, message: string][] = [
    [join(directory, 'gone.pickle'), 'no such file'],
    [folder, 'is a directory, not a snapshot file'],
  ];
  if (process.platform !== 'win32') {
    const fifo = join(directory, 'pipe.pickle');
    execFileSync('mkfifo', [fifo]);
    files.push([fifo, 'is a named pipe (FIFO), not a regular file']);
  }
  const { handOver } = await serveLikeMain(page);
  await openPage(page);

  const urls: string[] = [];
  for (const [path, message] of files) {
    urls.push(await handOver(path));
    const notice = page.locator(`.notices [data-file-name="${basename(path)}"]`);
    await expect(notice).toContainText(message);
    await expect(notice).toHaveAttribute('data-testid', 'error-notice');
  }
  await expect(page.getByTestId('bug-notice')).toHaveCount(0);
  expect(await settled(page)).toEqual(urls.map((url) => [url, 'failed']));
});

test('a link used twice is refused, and shown as a bug with a report', async ({ page }) => {
  const { served, handOver } = await serveLikeMain(page);
  await openPage(page);
  const url = await handOver(ADAM);
  await expect(page.locator('body')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('tab')).toHaveCount(1);

  await handOver(ADAM, 'again.pickle', url);
  const notice = page.getByTestId('bug-notice');
  await expect(notice).toBeVisible();
  await expect(notice).toHaveAttribute('data-file-name', 'again.pickle');
  await expect(notice).toContainText('the link to this file is unknown or was already used');
  await expect(notice.getByTestId('copy-report')).toBeVisible();
  expect(served.map((answer) => answer.status)).toEqual([200, 404]);
  // The first tab is untouched.
  await expect(page.getByTestId('tab')).toHaveCount(1);
});

test('cancel aborts the fetch in the page, and the page tells main', async ({ page }) => {
  let release: () => void = () => {};
  const hold = new Promise<void>((resolve) => (release = resolve));
  const { handOver } = await serveLikeMain(page, { hold });
  await openPage(page);

  const url = await handOver(ADAM);
  await expect(page.locator('body')).toHaveAttribute('data-state', 'loading');
  await expect(page.getByTestId('progress')).toContainText(basename(ADAM));
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('tab')).toHaveCount(0);
  await expect(page.getByTestId('error-notice')).toHaveCount(0);
  expect(await settled(page)).toEqual([[url, 'cancelled']]);
  release();
  // Whatever main would still send arrives nowhere.
  await page.waitForTimeout(300);
  await expect(page.getByTestId('tab')).toHaveCount(0);
  expect(await settled(page)).toEqual([[url, 'cancelled']]);
});

test("the page's policy lets fetch reach allocscope-file:, and no other new scheme", async ({
  page,
}) => {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations?.push(`${event.effectiveDirective} ${event.blockedURI}`);
    });
  });
  await openPage(page);
  const violations = await page.evaluate(async () => {
    // Chromium has no such schemes: both fetches fail, but only a policy refusal is reported.
    for (const url of ['allocscope-file://snapshot/x', 'other-scheme://snapshot/x']) {
      await fetch(url).catch(() => {});
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    return window.__cspViolations ?? [];
  });
  expect(violations).toEqual(['connect-src other-scheme']);
});
